/**
 * Import rules of src/ (issue 9), checked by `npm run lint:deps` (part of
 * `npm test`). Type-only imports count: a cycle of types is still a cycle a
 * reader has to untangle.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle anywhere in src/ (issue 9): move the shared piece down a layer (src/module.ts, src/context.ts) instead.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'ground-floor',
      severity: 'error',
      comment:
        'The ground floor (the module contract src/module.ts, the context src/context.ts, the event bus src/bus.ts, the store src/store/, the clock and scheduler src/clock/) imports no room above it: no HTTP, resource, admin, deliveries, state, SMTP or server code (issue 9).',
      from: { path: '^src/(module\\.ts|context\\.ts|bus\\.ts|store/|clock/)' },
      to: { path: '^src/(http|resources|admin|deliveries|state|smtp)/|^src/(app|server|cli|index|vitest|jest|playwright|modules)\\.ts$|^src/testing/' },
    },
    {
      name: 'http-imports-no-room',
      severity: 'error',
      comment:
        'The request pipeline (src/http/) serves every room and knows none: it never imports a resource, the admin API or the deliveries; what it needs of them comes through the context (e.g. ctx.keys for the API keys).',
      from: { path: '^src/http/' },
      to: { path: '^src/(resources|admin|deliveries)/' },
    },
    {
      name: 'deliveries-import-no-resource',
      severity: 'error',
      comment:
        'The deliveries (src/deliveries/) sit below the resources that raise events: they import no resource; the webhook endpoints they need come through the context (ctx.webhooks).',
      from: { path: '^src/deliveries/' },
      to: { path: '^src/resources/' },
    },
    {
      name: 'resource-through-service',
      severity: 'error',
      comment:
        'A resource imports another resource only through its service.ts (issue 9): src/resources/<a>/* may import src/resources/<b>/service.ts, never <b>/store.ts, handlers.ts, jobs.ts or the rest.',
      from: { path: '^src/resources/([^/]+)/' },
      to: { path: '^src/resources/[^/]+/', pathNot: ['^src/resources/$1/', '^src/resources/[^/]+/service\\.ts$'] },
    },
    {
      name: 'handlers-leaf',
      severity: 'error',
      comment:
        "A resource's handlers.ts is a leaf (issue 31): only its index.ts imports it (and contacts' legacy.ts, whose deprecated paths are the same handlers); the logic a handler calls lives in files named for what they do, which the others import instead (CONTRIBUTING 'Where things are').",
      from: { path: '^src/', pathNot: ['^src/resources/[^/]+/index\\.ts$', '^src/resources/contacts/legacy\\.ts$'] },
      to: { path: '^src/resources/[^/]+/handlers\\.ts$' },
    },
    {
      name: 'room-through-service',
      severity: 'error',
      comment:
        'Outside src/resources/, code reaches a resource only through its service.ts (the admin API, the deliveries, the SMTP relay, the server); only the module list src/modules.ts (where the app is assembled) imports the resources\' index.ts.',
      from: { path: '^src/', pathNot: ['^src/resources/', '^src/modules\\.ts$'] },
      to: { path: '^src/resources/[^/]+/', pathNot: '^src/resources/[^/]+/service\\.ts$' },
    },
    {
      name: 'testing-core-framework-free',
      severity: 'error',
      comment:
        'src/testing/ is the one core of the test-framework entries (src/vitest.ts, src/jest.ts, src/playwright.ts: thin adapters over it): it imports no test framework and no entry, so it loads under any of them.',
      from: { path: '^src/testing/' },
      to: { path: '(^|/)node_modules/(vitest|jest|@jest/[^/]+|@playwright/test|playwright)/|^src/(vitest|jest|playwright)\\.ts$' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that does not resolve is a typo or a missing dependency.',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json', '.d.ts'],
    },
  },
};
