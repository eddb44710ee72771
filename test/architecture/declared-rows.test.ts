/**
 * Each table is declared once (issue 38 item 1; src/store/table.ts): its
 * row type and the column lists of its INSERTs come from the declaration,
 * so a new column is one edit the compiler follows (CONTRIBUTING.md,
 * "Adding a column").
 *
 * - No hand-written row interface: a `…Row` type of a table is
 *   `RowOf<typeof table>` (or a `Pick`/`Omit` of one), never an
 *   `interface …Row { … }` that repeats the columns.
 * - No INSERT whose column list is written out in a string: it comes from
 *   `table.insert(names)` or `table.columnList(names)`, whose names the
 *   compiler checks against the declaration. (A snapshot import builds its
 *   list from the file's own keys, read against `userTables()`: not a
 *   written-out list.)
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { REPO_ROOT, repoFiles } from './repo-files.js';

/** `file: Name` for each interface named `…Row` in `text`. */
export function rowInterfaces(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isInterfaceDeclaration(node) && /Row$/.test(node.name.text)) out.push(`${file}: ${node.name.text}`);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** An INSERT whose column list starts with a written-out name: `INSERT [OR …] INTO t (a, …`. */
const WRITTEN_OUT_INSERT = /\bINSERT\s+(?:OR\s+\w+\s+)?INTO\s+"?\w+"?\s*\(\s*"?[a-z_]/;

/** `file: text` for each string literal (template pieces included) of `text` with a written-out INSERT column list. */
export function writtenOutInserts(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      if (WRITTEN_OUT_INSERT.test(node.text)) out.push(`${file}: ${node.text.slice(0, 80)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const files = Object.fromEntries(repoFiles(['src'], (n) => n.endsWith('.ts')).map((f) => [f, fs.readFileSync(path.join(REPO_ROOT, f), 'utf8')]));

describe('each table declared once: rows and INSERT lists come from the declaration', () => {
  it('no source file hand-writes a row interface', () => {
    expect(Object.entries(files).flatMap(([f, t]) => rowInterfaces(f, t))).toEqual([]);
  });

  it('no source file writes out an INSERT column list', () => {
    expect(Object.entries(files).flatMap(([f, t]) => writtenOutInserts(f, t))).toEqual([]);
  });

  it('the checks find what they look for', () => {
    expect(rowInterfaces('x.ts', 'export interface TopicRow { id: string }')).toEqual(['x.ts: TopicRow']);
    expect(rowInterfaces('x.ts', 'export type TopicRow = RowOf<typeof topicsTable>;')).toEqual([]);
    expect(writtenOutInserts('x.ts', "db.prepare('INSERT INTO teams (id, name) VALUES (?, ?)')")).toHaveLength(1);
    expect(writtenOutInserts('x.ts', "db.prepare('INSERT OR IGNORE INTO t (a) VALUES (?)')")).toHaveLength(1);
    expect(writtenOutInserts('x.ts', 'const s = `INSERT INTO t (${t.columnList(["a"])}) VALUES (?)`;')).toEqual([]);
  });
});
