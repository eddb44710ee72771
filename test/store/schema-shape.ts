/**
 * The shape of a store's schema, for comparing a new store with one brought
 * to the same version by migrations (test/store/schema.test.ts): what
 * SQLite reports of each table (columns in order with type, NOT NULL,
 * default and key; foreign keys; indexes with their columns, uniqueness,
 * origin and partial WHERE; WITHOUT ROWID; CHECK constraints) and each
 * trigger and view, their SQL with the spacing normalised. The text of a
 * CREATE TABLE is not compared: `ALTER TABLE … ADD COLUMN` appends to it,
 * so a migrated table's text differs from a declared one's for the same
 * table.
 */
import type { DB } from '../../src/store/db.js';

/** SQL with its spacing normalised (runs of blanks one space, none inside parentheses or before commas). */
export function normalSql(sql: string): string {
  return sql.replace(/\s+/g, ' ').replace(/\s*([(),])\s*/g, '$1').trim();
}

/** See the file's docstring; plain data, for `toEqual`. */
export function schemaShape(db: DB): Record<string, unknown> {
  const objects = db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name`).all() as { type: string; name: string; tbl_name: string; sql: string | null }[];
  const tables: Record<string, unknown> = {};
  for (const t of objects.filter((o) => o.type === 'table')) {
    const indexes = (db.prepare(`PRAGMA index_list("${t.name}")`).all() as { name: string; unique: number; origin: string; partial: number }[]).map((i) => {
      const columns = (db.prepare(`PRAGMA index_xinfo("${i.name}")`).all() as { cid: number; name: string | null; desc: number; key: number }[]).filter((c) => c.key).map((c) => [c.name, c.desc]);
      const sql = objects.find((o) => o.type === 'index' && o.name === i.name)?.sql;
      // An index a constraint made is named by SQLite in the order of the constraints: named here by what it covers.
      return { name: i.origin === 'c' ? i.name : `${i.origin}:${columns.map((c) => c[0]).join(',')}`, unique: i.unique, origin: i.origin, partial: i.partial, columns, sql: sql ? normalSql(sql) : null };
    });
    indexes.sort((a, b) => a.name.localeCompare(b.name));
    const info = db.prepare(`SELECT wr, strict FROM pragma_table_list WHERE name = ?`).get(t.name) as { wr: number; strict: number };
    tables[t.name] = {
      columns: db.prepare(`PRAGMA table_xinfo("${t.name}")`).all(),
      foreignKeys: (db.prepare(`PRAGMA foreign_key_list("${t.name}")`).all() as Record<string, unknown>[]).map(({ id, seq, ...fk }) => fk).sort((a, b) => String(a.from).localeCompare(String(b.from))),
      indexes,
      withoutRowid: info.wr,
      strict: info.strict,
      checks: [...normalSql(t.sql ?? '').matchAll(/CHECK\((.*?)\)(?=,|\)$| )/g)].map((m) => m[1]).sort(),
    };
  }
  const others = objects.filter((o) => o.type === 'trigger' || o.type === 'view').map((o) => ({ type: o.type, name: o.name, table: o.tbl_name, sql: normalSql(o.sql ?? '') }));
  return { tables, others };
}

/** The statements a store's schema was made of, in creation order: what a schema fixture (test/fixtures/schemas/v<N>.sql) holds. */
export function schemaDump(db: DB): string {
  const rows = db.prepare(`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid`).all() as { sql: string }[];
  return rows.map((r) => `${r.sql};\n`).join('');
}
