/**
 * Each table is owned by one room (issue 9 item 3): only the room whose
 * file declares a table (`defineTable('name', …)`, src/store/table.ts, or
 * a `CREATE TABLE name` in a migration) names it in SQL; every other room
 * calls the owner's exported functions (its `service.ts`).
 *
 * - The owner of a table is the room of the file that declares it: a
 *   resource folder `src/resources/<name>/`, the deliveries folder
 *   `src/deliveries/`, or, for the tables of no resource, that one file
 *   (`src/state/teams.ts`, `src/clock/scheduler.ts`,
 *   `src/http/idempotency.ts`, `src/store/db.ts`).
 * - A file names a table in SQL when one of its string literals (the
 *   TypeScript parser finds them, so comments do not count) has
 *   `FROM|JOIN|INTO|UPDATE|TABLE <name>` (SQL keywords in capitals, the
 *   house style), or when it passes the name as `table: '<name>'` to
 *   `paginate`. A `table: NAME` constant must come from the file's own room
 *   (its store.ts exports it: `EMAIL_ATTACHMENTS`, `SEGMENT_MEMBERS`), where
 *   its literal is checked; one imported from another room is a violation.
 * - Allowed exceptions: `ALLOWED` below, each with its reason (none since
 *   the 1.0 baseline folded the migrations that moved facts between rooms).
 *   Reset (`src/state/reset.ts`) and snapshots
 *   (`src/state/snapshot.ts`) walk every table by `userTables()` without
 *   naming one.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT as root, repoFiles } from './repo-files.js';
import ts from 'typescript';


/** Source files of src/ (repo-relative, `/`-separated), without the generated types. */
function sourceFiles(): string[] {
  return repoFiles(['src'], (name) => name.endsWith('.ts'));
}

/** The room of a file: its resource folder, `src/deliveries/`, or the file itself. */
export function roomOf(file: string): string {
  const m = /^src\/resources\/[^/]+\//.exec(file) ?? /^src\/deliveries\//.exec(file);
  return m ? m[0] : file;
}

/**
 * Every string literal of a TypeScript source (template pieces included),
 * the names passed as `table: '<name>'`, and the rooms of the constants
 * passed as `table: NAME` that the file imports (a local constant's
 * literal is among `strings`).
 */
function literals(file: string, text: string): { strings: string[]; tableProps: string[]; tableConstRooms: { name: string; room: string }[]; declared: string[] } {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const strings: string[] = [];
  /** The names given to `defineTable` (its first argument). */
  const declared: string[] = [];
  const tableProps: string[] = [];
  const tableIdents: string[] = [];
  /** Imported name → repo-relative `.ts` file it comes from. */
  const imported = new Map<string, string>();
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      strings.push(node.text);
    }
    if (ts.isPropertyAssignment(node) && node.name.getText(sf) === 'table' && ts.isStringLiteral(node.initializer)) {
      tableProps.push(node.initializer.text);
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineTable' && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      declared.push(node.arguments[0].text);
    }
    if (ts.isPropertyAssignment(node) && node.name.getText(sf) === 'table' && ts.isIdentifier(node.initializer)) {
      tableIdents.push(node.initializer.text);
    }
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text.startsWith('.')) {
      const from = path.posix.join(path.posix.dirname(file), node.moduleSpecifier.text).replace(/\.js$/, '.ts');
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) imported.set(el.name.text, from);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const tableConstRooms = tableIdents.filter((n) => imported.has(n)).map((name) => ({ name, room: roomOf(imported.get(name)!) }));
  return { strings, tableProps, tableConstRooms, declared };
}

/** Tables declared (`defineTable`) or created (`CREATE TABLE`) in `files` → the file that declares each. */
export function tableOwners(files: Record<string, string>): Map<string, string> {
  const owners = new Map<string, string>();
  for (const [file, text] of Object.entries(files)) {
    const { strings, declared } = literals(file, text);
    const names = [...declared, ...strings.flatMap((s) => [...s.matchAll(/\bCREATE TABLE (?:IF NOT EXISTS )?(\w+)/g)].map((m) => m[1]))];
    for (const name of names) {
      const prev = owners.get(name);
      if (prev && roomOf(prev) !== roomOf(file)) throw new Error(`table ${name} is created in two rooms: ${prev} and ${file}`);
      if (!prev) owners.set(name, file);
    }
  }
  return owners;
}

/** Files of a room (a resource folder, `src/deliveries/`) other than its `store.ts` that name one of the room's tables in SQL. */
export function sqlOutsideStore(files: Record<string, string>): string[] {
  const owners = tableOwners(files);
  const names = [...owners.keys()];
  const sql = new RegExp(`\\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\\s+(?:IF (?:NOT )?EXISTS\\s+)?(${names.join('|')})\\b`);
  return Object.entries(files)
    .filter(([file]) => roomOf(file) !== file && !file.endsWith('/store.ts'))
    .filter(([file, text]) => {
      const { strings, tableProps } = literals(file, text);
      return tableProps.some((t) => owners.has(t)) || strings.some((x) => sql.test(x));
    })
    .map(([file]) => file)
    .sort();
}

/**
 * Files that still hold SQL on their room's tables outside its `store.ts`:
 * none left (issue 9 items 3 and 4). The test below fails when any file
 * other than a room's store.ts writes SQL.
 */
const SQL_NOT_YET_IN_STORE: string[] = [];

/** `file: table (owner room)` for every table a file names in SQL outside the table's owner room. */
export function violations(files: Record<string, string>): string[] {
  const owners = tableOwners(files);
  const names = [...owners.keys()];
  const sql = new RegExp(`\\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\\s+(?:IF (?:NOT )?EXISTS\\s+)?(${names.join('|')})\\b`, 'g');
  const out: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    const { strings, tableProps, tableConstRooms } = literals(file, text);
    const named = new Set<string>(tableProps.filter((t) => owners.has(t)));
    for (const s of strings) for (const m of s.matchAll(sql)) named.add(m[1]);
    for (const table of named) {
      const owner = roomOf(owners.get(table)!);
      if (roomOf(file) !== owner) out.push(`${file}: ${table} (owned by ${owner})`);
    }
    for (const c of tableConstRooms) {
      if (c.room !== roomOf(file)) out.push(`${file}: table constant ${c.name} (owned by ${c.room})`);
    }
  }
  return out.sort();
}

/** `file: table` pairs allowed to cross rooms, each with why. */
const ALLOWED: Record<string, string> = {};

describe('table ownership (issue 9)', () => {
  const files = Object.fromEntries(sourceFiles().map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));

  it('finds the tables and their owners', () => {
    const owners = tableOwners(files);
    // A sample of each kind of owner, so a parser that finds nothing fails.
    expect(roomOf(owners.get('emails')!)).toBe('src/resources/emails/');
    expect(roomOf(owners.get('contact_segments')!)).toBe('src/resources/contacts/');
    expect(roomOf(owners.get('webhook_deliveries')!)).toBe('src/deliveries/');
    expect(owners.get('teams')).toBe('src/state/teams.ts');
    expect(owners.get('idempotency_keys')).toBe('src/http/idempotency.ts');
    expect(roomOf(owners.get('emulator_usage')!)).toBe('src/resources/usage/');
    expect(owners.size).toBeGreaterThanOrEqual(30);
  });

  it('no file names another room\'s table in SQL', () => {
    expect(violations(files).filter((v) => !ALLOWED[v.split(' (')[0]])).toEqual([]);
  });

  it('within a room, SQL lives in its store.ts', () => {
    expect(sqlOutsideStore(files)).toEqual(SQL_NOT_YET_IN_STORE);
  });

  it('catches SQL in a handler file of a room (self-test)', () => {
    const wrong = { ...files, 'src/resources/topics/handlers.ts': "export const x = (db: any) => db.prepare('DELETE FROM topics WHERE id = ?');" };
    expect(sqlOutsideStore(wrong)).toContain('src/resources/topics/handlers.ts');
  });

  it('catches a deliberately wrong query, a paginated table and a join (self-test)', () => {
    const wrong = {
      ...files,
      'src/resources/emails/wrong.ts': [
        "export const a = (db: any) => db.prepare('SELECT id FROM domains WHERE name = ?');",
        'export const b = (db: any, t: string) => db.prepare(`SELECT * FROM emails e\n  JOIN api_keys k ON k.team_id = e.team_id WHERE e.team_id = ${t}`);',
        "export const c = { table: 'webhooks' };",
        '// a comment naming FROM topics does not count',
        "export const d = 'unsubscribe from topics';",
      ].join('\n'),
      'src/admin/wrong.ts': "export const e = (db: any) => db.prepare('UPDATE teams SET name = ?');",
      'src/resources/topics/wrong.ts': [
        "import { SEGMENT_MEMBERS } from '../contacts/store.js';",
        "import { TOPICS_OK } from './store.js';",
        'export const f = { table: SEGMENT_MEMBERS };',
        'export const g = { table: TOPICS_OK };',
      ].join('\n'),
    };
    expect(violations(wrong).filter((v) => !ALLOWED[v.split(' (')[0]])).toEqual([
      'src/admin/wrong.ts: teams (owned by src/state/teams.ts)',
      'src/resources/emails/wrong.ts: api_keys (owned by src/resources/api-keys/)',
      'src/resources/emails/wrong.ts: domains (owned by src/resources/domains/)',
      'src/resources/emails/wrong.ts: webhooks (owned by src/resources/webhooks/)',
      'src/resources/topics/wrong.ts: table constant SEGMENT_MEMBERS (owned by src/resources/contacts/)',
    ]);
  });

  it('refuses a table created in two rooms (self-test)', () => {
    expect(() => tableOwners({ ...files, 'src/resources/topics/dup.ts': "export const m = 'CREATE TABLE segments (id TEXT)';" })).toThrow(/segments is created in two rooms/);
    expect(() => tableOwners({ ...files, 'src/resources/topics/dup.ts': "export const t = defineTable('segments', {});" })).toThrow(/segments is created in two rooms/);
  });
});
