/**
 * The import rules of `.dependency-cruiser.cjs` (issue 9 item 7) fail on a
 * wrong import: dependency-cruiser's CLI, with the project's own rule file,
 * runs on a small tree in a temp folder that breaks each rule once, next to
 * the same tree without the wrong imports. The real tree is checked by
 * `npm run lint:deps` (part of `npm test`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const depcruise = path.join(root, 'node_modules', '.bin', 'depcruise');

/** The fixture: the layers of src/ in miniature, each file one line. */
const clean: Record<string, string> = {
  'src/context.ts': 'export interface Emulator { n: number }',
  'src/module.ts': "import type { Emulator } from './context.js';\nexport type Handler = (ctx: Emulator) => unknown;",
  'src/clock/scheduler.ts': "import type { Emulator } from '../context.js';\nexport const tick = (ctx: Emulator) => ctx.n;",
  'src/http/pipeline.ts': "import type { Handler } from '../module.js';\nexport const run = (h: Handler) => h;",
  'src/resources/domains/store.ts': "import type { Emulator } from '../../context.js';\nexport const findDomain = (ctx: Emulator) => ctx.n;",
  'src/resources/domains/service.ts': "export { findDomain } from './store.js';",
  'src/resources/domains/index.ts': "import { findDomain } from './store.js';\nexport const domainsModule = { findDomain };",
  'src/resources/emails/handlers.ts': "import { findDomain } from '../domains/service.js';\nexport const send = findDomain;",
  'src/resources/emails/index.ts': "import { send } from './handlers.js';\nexport const emailsModule = { send };",
  'src/modules.ts': "import { domainsModule } from './resources/domains/index.js';\nimport { emailsModule } from './resources/emails/index.js';\nexport const modules = [domainsModule, emailsModule];",
  'src/admin/dashboard.ts': "import { findDomain } from '../resources/domains/service.js';\nexport const show = findDomain;",
  'src/testing/matchers.ts': 'export const pass = true;',
  'src/vitest.ts': "import { pass } from './testing/matchers.js';\nexport const matchers = { pass };",
};

/** One wrong import per rule. */
const wrong: Record<string, string> = {
  // resource-through-service: another resource's store.ts
  'src/resources/emails/send.ts': "import { findDomain } from '../domains/store.js';\nexport const check = findDomain;",
  // room-through-service: the admin API reaching into a resource's handlers
  'src/admin/emails.ts': "import { send } from '../resources/emails/handlers.js';\nexport const resend = send;",
  // handlers-leaf: a file of the resource other than index.ts importing its handlers
  'src/resources/emails/jobs.ts': "import { send } from './handlers.js';\nexport const job = send;",
  // http-imports-no-room
  'src/http/auth.ts': "import { findDomain } from '../resources/domains/service.js';\nexport const auth = findDomain;",
  // deliveries-import-no-resource: even through a service
  'src/deliveries/emit.ts': "import { findDomain } from '../resources/domains/service.js';\nexport const emit = findDomain;",
  // ground-floor
  'src/clock/jobs.ts': "import { run } from '../http/pipeline.js';\nexport const job = run;",
  // testing-core-framework-free: the shared core importing a framework entry
  'src/testing/use-emulator.ts': "import { matchers } from '../vitest.js';\nexport const use = matchers;",
  // no-circular
  'src/resources/events/a.ts': "import { b } from './b.js';\nexport const a = () => b;",
  'src/resources/events/b.ts': "import { a } from './a.js';\nexport const b = () => a;",
};

let dir = '';

/** Writes the tree to a fresh folder and returns the rule names dependency-cruiser reports, with their files. */
function cruise(files: Record<string, string>): { rule: string; from: string; to: string }[] {
  fs.rmSync(path.join(dir, 'src'), { recursive: true, force: true });
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text + '\n');
  }
  let out: string;
  try {
    out = execFileSync(depcruise, ['src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    // Exit status = the number of errors; the report is still on stdout.
    out = (err as { stdout: string }).stdout;
  }
  const report = JSON.parse(out) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  return report.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to })).sort((a, b) => a.from.localeCompare(b.from));
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'depcruise-rules-'));
  fs.copyFileSync(path.join(root, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }, include: ['src/**/*.ts'] }),
  );
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the dependency rules (.dependency-cruiser.cjs)', () => {
  it('pass on a tree that keeps the layers', () => {
    expect(cruise(clean)).toEqual([]);
  }, 60_000);

  it('fail on each kind of wrong import', () => {
    const found = cruise({ ...clean, ...wrong });
    expect(found).toEqual(
      expect.arrayContaining([
        { rule: 'resource-through-service', from: 'src/resources/emails/send.ts', to: 'src/resources/domains/store.ts' },
        { rule: 'room-through-service', from: 'src/admin/emails.ts', to: 'src/resources/emails/handlers.ts' },
        { rule: 'handlers-leaf', from: 'src/resources/emails/jobs.ts', to: 'src/resources/emails/handlers.ts' },
        { rule: 'handlers-leaf', from: 'src/admin/emails.ts', to: 'src/resources/emails/handlers.ts' },
        { rule: 'http-imports-no-room', from: 'src/http/auth.ts', to: 'src/resources/domains/service.ts' },
        { rule: 'deliveries-import-no-resource', from: 'src/deliveries/emit.ts', to: 'src/resources/domains/service.ts' },
        { rule: 'ground-floor', from: 'src/clock/jobs.ts', to: 'src/http/pipeline.ts' },
        { rule: 'testing-core-framework-free', from: 'src/testing/use-emulator.ts', to: 'src/vitest.ts' },
        expect.objectContaining({ rule: 'no-circular', from: 'src/resources/events/a.ts' }),
      ]),
    );
    // Nothing else: the clean part of the tree stays clean.
    expect(found.every((v) => Object.keys(wrong).includes(v.from))).toBe(true);
  }, 60_000);
});
