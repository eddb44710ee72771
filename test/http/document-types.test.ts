/**
 * Handlers typed end to end (src/http/document-types.ts): each module's
 * operation map is written `{ ... } satisfies OperationHandlers`, so the
 * compiler checks every handler's request and reply against the document's
 * types of the operationId it is wired to.
 *
 * - The first test is the compiler's: each `@ts-expect-error` line below is
 *   a wiring or a reply the document does not allow. `npm test` (and
 *   `npx tsc -p tsconfig.test.json`) compiles the tests, and an
 *   `@ts-expect-error` with no error under it fails that compile, so a
 *   loosened `OperationHandlers` (or `Answer`) fails here.
 * - The second reads every `ResourceModule` of `src/` (the TypeScript
 *   parser, no type checker) and fails when its `operations` is not checked:
 *   an object literal must be `{ ... } satisfies OperationHandlers`, and a
 *   name (`operations`, `emailOperations`) must be declared, in that file or
 *   the one it is imported from, as `const name = { ... } satisfies
 *   OperationHandlers`. A self-test shows the scan refuses an unchecked map.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT as root, repoFiles } from '../architecture/repo-files.js';
import ts from 'typescript';
import type { Auth, Emulator } from '../../src/context.js';
import { Reply, type ResourceModule } from '../../src/module.js';
import type { Answer, OperationHandlers, Req } from '../../src/http/document-types.js';
import { emailOperations } from '../../src/resources/emails/handlers.js';
import { domainOperations } from '../../src/resources/domains/handlers.js';
import { loadSpec } from '../../src/http/spec.js';


describe('OperationHandlers', () => {
  it('refuses at compile time a handler wired to another operation, an unknown operationId and a reply the document does not declare', () => {
    // Each map marked below is a type error (tsc over test/ in `npm test`), one per map: the compiler reports
    // one error of an object literal, so two wrong entries in one map would let the second pass unseen.
    const wrong = () => [
      // The right handlers at their own keys compile.
      { 'emails/get': emailOperations['emails/get'], 'domains/get': domainOperations['domains/get'] } satisfies OperationHandlers,
      // @ts-expect-error emails/get's handler wired to domains/list (its query, a list reply)
      { 'domains/list': emailOperations['emails/get'] } satisfies OperationHandlers,
      // @ts-expect-error domains/get's handler wired to emails/get (`email_id`, not `domain_id`; an email, not a domain)
      { 'emails/get': domainOperations['domains/get'] } satisfies OperationHandlers,
      // @ts-expect-error emails/cancel's handler wired to emails/update: same path parameter, same reply; their `operationId`s differ
      { 'emails/update': emailOperations['emails/cancel'] } satisfies OperationHandlers,
      // @ts-expect-error an operationId the document does not have
      { 'emails/unknown': emailOperations['emails/get'] } satisfies OperationHandlers,
      // @ts-expect-error a reply missing the document's fields of `Email`
      { 'emails/get': (_ctx: Emulator, _req: Req<'emails/get'>) => ({ object: 'email' as const }) } satisfies OperationHandlers,
      // @ts-expect-error a status `emails/cancel` does not declare (201)
      { 'emails/cancel': (_ctx: Emulator, req: Req<'emails/cancel'>) => new Reply(201, { object: 'email' as const, id: req.params.email_id }) } satisfies OperationHandlers,
    ];
    void wrong;
    // A reply of a declared status, with that status's body, is an `Answer`.
    const cancelled: Answer<'emails/cancel'> = new Reply(200, { object: 'email', id: 'x' });
    expect(cancelled).toBeInstanceOf(Reply);
    expect(emailOperations['emails/get']).not.toBe(emailOperations['emails/cancel']);
  });

  it('refuses at compile time an async handler for an operation that takes an Idempotency-Key (it runs inside the key\'s transaction), and allows one elsewhere', async () => {
    const batch = emailOperations['emails/send-batch'];
    const wrong = () => [
      // An async handler of an operation without the header compiles.
      { 'emails/get': async (ctx: Emulator, req: Req<'emails/get'>) => emailOperations['emails/get'](ctx, req) } satisfies OperationHandlers,
      // The synchronous batch handler compiles.
      { 'emails/send-batch': batch } satisfies OperationHandlers,
      // @ts-expect-error emails/send-batch declares the Idempotency-Key header: an async handler would commit the emails and the key's record apart
      { 'emails/send-batch': async (ctx: Emulator, req: Req<'emails/send-batch'>) => batch(ctx, req) } satisfies OperationHandlers,
      // @ts-expect-error likewise a handler that returns a promise without `async`
      { 'emails/send': (ctx: Emulator, req: Req<'emails/send'>) => Promise.resolve(emailOperations['emails/send'](ctx, req)) } satisfies OperationHandlers,
    ];
    void wrong;
    // The header the types read is the one the pipeline honours (`Operation.idempotent`).
    const { operations } = await loadSpec();
    expect(operations.filter((o) => o.idempotent).map((o) => o.operationId)).toEqual(expect.arrayContaining(['emails/send', 'emails/send-batch']));
  });

  it('checks a ResourceModule\'s operations where the module is written, not only where its map is', () => {
    const modules = (): ResourceModule[] => [
      { name: 'right', operations: { 'emails/get': emailOperations['emails/get'] } },
      // @ts-expect-error emails/get's handler wired to domains/get in a module (`ResourceModule.operations` is `OperationMap`)
      { name: 'wired-wrong', operations: { 'domains/get': emailOperations['emails/get'] } },
      // @ts-expect-error an operationId the document does not have, in a module
      { name: 'unknown', operations: { 'emails/unknown': emailOperations['emails/get'] } },
    ];
    expect(modules().map((m) => m.name)).toEqual(['right', 'wired-wrong', 'unknown']);
  });

  it('types req.auth from the document: the caller on an operation that needs a key, null on one with security: []', () => {
    // A keyed operation's handler reads its caller with no `!` (this compiles under `strict`).
    const team = (req: Req<'emails/get'>): string => req.auth.teamId;
    const caller: Auth = { teamId: 't', apiKeyId: 'k', permission: 'full_access', domainId: null };
    expect(team({ auth: caller } as Req<'emails/get'>)).toBe('t');
    // @ts-expect-error an admin operation (security: []) has no caller: its `req.auth` is null
    const adminTeam = (req: Req<'admin/reset'>): string => req.auth.teamId;
    void adminTeam;
    const keyless: Req<'admin/reset'>['auth'] = null;
    expect(keyless).toBeNull();
  });
});

/** `.ts` files of src/ (repo-relative), without the generated types. */
function sourceFiles(): string[] {
  return repoFiles(['src'], (name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
}

const parse = (file: string, text: string) => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);

/** `expr satisfies OperationHandlers` (parenthesized or not). */
function isChecked(expr: ts.Expression | undefined): boolean {
  while (expr && ts.isParenthesizedExpression(expr)) expr = expr.expression;
  return !!expr && ts.isSatisfiesExpression(expr) && expr.type.getText() === 'OperationHandlers';
}

/** The initializer of the top-level `const name = …` of a source, if any. */
function constInitializer(sf: ts.SourceFile, name: string): ts.Expression | undefined {
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st)) continue;
    for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.name.text === name) return d.initializer;
  }
  return undefined;
}

/** The file (repo-relative) and exported name a local name is imported as, if it is imported from a relative path. */
function importOf(file: string, sf: ts.SourceFile, name: string): { file: string; name: string } | undefined {
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !ts.isStringLiteral(st.moduleSpecifier) || !st.moduleSpecifier.text.startsWith('.')) continue;
    const bindings = st.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const el of bindings.elements) {
      if (el.name.text !== name) continue;
      const target = path.posix.join(path.posix.dirname(file), st.moduleSpecifier.text.replace(/\.js$/, '.ts'));
      return { file: target, name: (el.propertyName ?? el.name).text };
    }
  }
  return undefined;
}

/**
 * The unchecked operation maps of one source: `operations` of each object
 * literal typed `ResourceModule`, as `file: module.operations`. `read` gives
 * a file's text (for a map imported from another file).
 */
export function uncheckedMaps(file: string, text: string, read: (file: string) => string): string[] {
  const sf = parse(file, text);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.type?.getText() === 'ResourceModule' && node.initializer && ts.isObjectLiteralExpression(node.initializer)) {
      const moduleName = node.name.getText();
      for (const p of node.initializer.properties) {
        if (p.name?.getText() !== 'operations') continue;
        let ok: boolean;
        if (ts.isPropertyAssignment(p) && !ts.isIdentifier(p.initializer)) ok = isChecked(p.initializer);
        else {
          const local = ts.isShorthandPropertyAssignment(p) ? p.name.text : (p as ts.PropertyAssignment).initializer.getText();
          const here = constInitializer(sf, local);
          const imported = here === undefined ? importOf(file, sf, local) : undefined;
          ok = here !== undefined ? isChecked(here) : !!imported && isChecked(constInitializer(parse(imported.file, read(imported.file)), imported.name));
        }
        if (!ok) out.push(`${file}: ${moduleName}.operations`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('operation maps', () => {
  const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

  it('every ResourceModule of src/ gives an operations map that satisfies OperationHandlers', () => {
    const modules = sourceFiles().filter((f) => /:\s*ResourceModule\s*=/.test(read(f)));
    expect(modules.length).toBeGreaterThan(25);
    expect(modules.flatMap((f) => uncheckedMaps(f, read(f), read))).toEqual([]);
  });

  it('self-test: the scan finds an unchecked literal, an unchecked imported map and accepts checked ones', () => {
    const files: Record<string, string> = {
      'src/x/handlers.ts': "export const loose = { 'emails/get': get };\nexport const operations = { 'emails/get': get } satisfies OperationHandlers;",
    };
    const text = [
      "import { loose, operations } from './handlers.js';",
      "export const a: ResourceModule = { name: 'a', operations: { 'emails/get': get } };",
      "export const b: ResourceModule = { name: 'b', operations: loose };",
      "export const c: ResourceModule = { name: 'c', operations };",
      "export const d: ResourceModule = { name: 'd', operations: { ...operations } satisfies OperationHandlers };",
    ].join('\n');
    expect(uncheckedMaps('src/x/index.ts', text, (f) => files[f])).toEqual(['src/x/index.ts: a.operations', 'src/x/index.ts: b.operations']);
  });
});
