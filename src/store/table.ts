/**
 * Table descriptors: each table declared once, in the room that owns it
 * (its `store.ts`), as `defineTable(name, columns, options)`. From the
 * descriptor come:
 * - its schema: `createSql` (CREATE TABLE, then its indexes and triggers),
 *   which a new store runs (src/store/db.ts `migrate`);
 * - its row type: `RowOf<typeof table>` (a `text()` column is
 *   `string | null`, `.notNull()` makes it `string`; `.as<T>()` narrows it);
 * - column lists: `columnList(names)` for SELECT and INSERT lists;
 * - positional statements: `insert(names)` gives the INSERT text with `?`
 *   placeholders in `names` order and `params(row)`, the row's values in
 *   that order (a function compiled once per list, so binding costs what a
 *   hand-written `run(row.a, row.b, …)` does: positional binding is the
 *   fast one, docs/benchmarks.md);
 * - `reader(names)`: rows read as arrays (`raw()`) shaped into objects by a
 *   function compiled once (an object literal of one fixed shape).
 *
 * Storage conventions (docs/reference/design.md#storage-conventions):
 * `seq INTEGER PRIMARY KEY` (insertion order), `id TEXT UNIQUE NOT NULL`,
 * `team_id TEXT NOT NULL`, times as INTEGER ms of emulated time, JSON as
 * TEXT; a row that belongs to another declares it with `.references()`.
 */

/** The SQLite storage class a column declares. */
export type SqlType = 'INTEGER' | 'TEXT';

/** What `ON DELETE` / `ON UPDATE` of a foreign key does. */
export type ForeignKeyAction = 'CASCADE' | 'SET NULL' | 'RESTRICT' | 'NO ACTION';

/** A column's declaration, as `Column` builds it. */
export interface ColumnSpec {
  type: SqlType;
  primaryKey: boolean;
  unique: boolean;
  notNull: boolean;
  /** The DEFAULT as SQL text (`0`, `'[]'`), or null for none. */
  default: string | null;
  references: { table: string; column: string; onDelete: ForeignKeyAction | null; onUpdate: ForeignKeyAction | null } | null;
  /** A CHECK expression (SQL), or null. */
  check: string | null;
}

/**
 * One column; `T` is its value's type in a row (`null` included while the
 * column is nullable). Each method returns a new column (declarations are
 * values, never edited in place).
 */
export class Column<T> {
  /** The type a row's value of this column has (type-level only; never set). */
  declare readonly valueType: T;
  constructor(readonly spec: ColumnSpec) {}
  /** NOT NULL: the value is never null. */
  notNull(): Column<Exclude<T, null>> {
    return new Column({ ...this.spec, notNull: true });
  }
  /** PRIMARY KEY (an INTEGER one is the rowid: `seq`). */
  primaryKey(): Column<Exclude<T, null>> {
    return new Column({ ...this.spec, primaryKey: true });
  }
  /** UNIQUE. */
  unique(): Column<T> {
    return new Column({ ...this.spec, unique: true });
  }
  /** DEFAULT: a number, or a string written as an SQL string literal (`'[]'`). */
  default(value: number | string): Column<T> {
    return new Column({ ...this.spec, default: typeof value === 'number' ? String(value) : `'${value.replace(/'/g, "''")}'` });
  }
  /** REFERENCES `table` (`column`, `id` unless given), with what a delete or update of the parent does. */
  references(table: string, opts: { column?: string; onDelete?: ForeignKeyAction; onUpdate?: ForeignKeyAction } = {}): Column<T> {
    return new Column({ ...this.spec, references: { table, column: opts.column ?? 'id', onDelete: opts.onDelete ?? null, onUpdate: opts.onUpdate ?? null } });
  }
  /** CHECK (`expression`), SQL over the row's columns. */
  check(expression: string): Column<T> {
    return new Column({ ...this.spec, check: expression });
  }
  /** The same column with a narrower value type (`text().notNull().as<'a' | 'b'>()`); the store does not check it. */
  as<U extends T>(): Column<U> {
    return this as unknown as Column<U>;
  }
  /** The column's definition in a CREATE TABLE (`name TEXT NOT NULL DEFAULT '[]'`). */
  sql(name: string): string {
    const s = this.spec;
    let out = `${name} ${s.type}`;
    if (s.primaryKey) out += ' PRIMARY KEY';
    if (s.unique) out += ' UNIQUE';
    if (s.notNull) out += ' NOT NULL';
    if (s.default !== null) out += ` DEFAULT ${s.default}`;
    if (s.references) {
      const r = s.references;
      out += ` REFERENCES ${r.table} (${r.column})`;
      if (r.onDelete) out += ` ON DELETE ${r.onDelete}`;
      if (r.onUpdate) out += ` ON UPDATE ${r.onUpdate}`;
    }
    if (s.check !== null) out += ` CHECK (${s.check})`;
    return out;
  }
}

const blank: ColumnSpec = { type: 'TEXT', primaryKey: false, unique: false, notNull: false, default: null, references: null, check: null };

/** A TEXT column (nullable until `.notNull()`). */
export function text(): Column<string | null> {
  return new Column({ ...blank, type: 'TEXT' });
}

/** An INTEGER column (nullable until `.notNull()`): counts, flags (0/1), times in ms. */
export function integer(): Column<number | null> {
  return new Column({ ...blank, type: 'INTEGER' });
}

/** `seq INTEGER PRIMARY KEY`: the insertion order (the rowid). */
export function seq(): Column<number> {
  return integer().primaryKey();
}

/** `id TEXT UNIQUE NOT NULL`: the public identifier. */
export function id(): Column<string> {
  return text().unique().notNull();
}

/**
 * An index: `on` is its column list as SQL (`team_id, seq`, or an
 * expression such as `lower(email_address)`); `where` makes it partial.
 */
export interface IndexSpec {
  name: string;
  on: string;
  unique?: boolean;
  where?: string;
}

/** A trigger a room still needs, written whole (`CREATE TRIGGER …`), with its reason in the room's docstring. */
export interface TriggerSpec {
  name: string;
  sql: string;
}

/** The table-level parts of a declaration. */
export interface TableOptions<K extends string> {
  /** A composite PRIMARY KEY (a single-column one is the column's `.primaryKey()`). */
  primaryKey?: readonly K[];
  /** UNIQUE constraints over several columns, each written in the table. */
  unique?: readonly (readonly K[])[];
  indexes?: readonly IndexSpec[];
  triggers?: readonly TriggerSpec[];
  /** WITHOUT ROWID (a table keyed by its primary key alone). */
  withoutRowid?: boolean;
  /**
   * Columns that 0.x stores had and the 1.0 baseline dropped because nothing
   * read them: a 0.x snapshot's values of them are ignored on import
   * (src/state/snapshot.ts), where any other unknown column is refused.
   */
  droppedAtBaseline?: readonly string[];
}

type Columns = Record<string, Column<any>>;

/** A table's row: each column's value type. */
export type RowOf<T extends { columns: Columns }> = RowOfColumns<T['columns']>;

/** The row of a set of columns. */
export type RowOfColumns<C extends Columns> = { [K in keyof C]: C[K]['valueType'] };

/** A positional INSERT of some columns: its SQL and the row → parameters function. */
export interface Insert<R> {
  /** `INSERT INTO t (a, b) VALUES (?, ?)`. */
  readonly sql: string;
  /** The row's values in the statement's column order. */
  readonly params: (row: R) => unknown[];
}

/** Reads rows selected as arrays (`raw()`) of some columns: the SELECT list and the array → object function. */
export interface Reader<R> {
  /** `a, b, c`: the columns in the order `fromArray` expects. */
  readonly columns: string;
  readonly fromArray: (values: readonly unknown[]) => R;
}

/** A column name as the descriptors accept it (it is compiled into code by `insert` and `reader`). */
const NAME = /^[a-z_][a-z0-9_]*$/;

/** A declared table (see the file's docstring). */
export class Table<C extends Columns> {
  readonly columnNames: readonly (keyof C & string)[];
  constructor(
    readonly name: string,
    readonly columns: C,
    readonly options: TableOptions<keyof C & string> = {},
  ) {
    this.columnNames = Object.keys(columns);
    for (const n of [name, ...this.columnNames, ...(options.indexes ?? []).map((i) => i.name)]) {
      if (!NAME.test(n)) throw new Error(`table ${name}: ${n} is not a lower-case SQL name`);
    }
    const known = new Set<string>(this.columnNames);
    for (const k of [...(options.primaryKey ?? []), ...(options.unique ?? []).flat()]) {
      if (!known.has(k)) throw new Error(`table ${name}: no column ${k}`);
    }
  }

  #createSql: string | undefined;

  /** CREATE TABLE, then each index and trigger, as one SQL text (statements separated by `;`); made once (a declaration never changes), not once per store. */
  get createSql(): string {
    return (this.#createSql ??= this.makeCreateSql());
  }

  private makeCreateSql(): string {
    const parts = this.columnNames.map((n) => this.columns[n].sql(n));
    if (this.options.primaryKey) parts.push(`PRIMARY KEY (${this.options.primaryKey.join(', ')})`);
    for (const u of this.options.unique ?? []) parts.push(`UNIQUE (${u.join(', ')})`);
    const out = [`CREATE TABLE ${this.name} (\n  ${parts.join(',\n  ')}\n)${this.options.withoutRowid ? ' WITHOUT ROWID' : ''};`];
    for (const i of this.options.indexes ?? []) {
      out.push(`CREATE ${i.unique ? 'UNIQUE ' : ''}INDEX ${i.name} ON ${this.name} (${i.on})${i.where ? ` WHERE ${i.where}` : ''};`);
    }
    for (const t of this.options.triggers ?? []) out.push(`${t.sql.trim().replace(/;?$/, ';')}`);
    return out.join('\n');
  }

  /** `a, b, c`: the given columns (every column when none are given), for a SELECT or INSERT list. */
  columnList(names: readonly (keyof C & string)[] = this.columnNames): string {
    return names.join(', ');
  }

  /** Every column but `except`, in declaration order. */
  columnsExcept<K extends keyof C & string>(...except: K[]): Exclude<keyof C & string, K>[] {
    return this.columnNames.filter((n) => !except.includes(n as K)) as Exclude<keyof C & string, K>[];
  }

  /**
   * The positional INSERT of `names` (`columnsExcept('seq')` for a whole new
   * row) and its row → parameters function, compiled once: call it once per
   * statement shape, at module load, and keep the result.
   */
  insert<K extends keyof C & string>(names: readonly K[]): Insert<Pick<RowOfColumns<C>, K>> {
    const sql = `INSERT INTO ${this.name} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
    // Names are checked lower-case identifiers (constructor): the compiled code reads only them.
    const params = new Function('r', `return [${names.map((n) => `r.${n}`).join(', ')}];`) as (row: Pick<RowOfColumns<C>, K>) => unknown[];
    return { sql, params };
  }

  /** A reader of rows selected as arrays of `names` (the SELECT list is `reader.columns`), compiled once. */
  reader<K extends keyof C & string>(names: readonly K[]): Reader<Pick<RowOfColumns<C>, K>> {
    const fromArray = new Function('v', `return { ${names.map((n, i) => `${n}: v[${i}]`).join(', ')} };`) as (values: readonly unknown[]) => Pick<RowOfColumns<C>, K>;
    return { columns: names.join(', '), fromArray };
  }
}

/** Declares a table (see the file's docstring): `defineTable('emails', { seq: seq(), id: id(), … }, { indexes: […] })`. */
export function defineTable<C extends Columns>(name: string, columns: C, options: TableOptions<keyof C & string> = {}): Table<C> {
  return new Table(name, columns, options);
}

/** Any declared table, as the store and snapshots read it (its name, its CREATE statements, its column names and options). */
export interface AnyTable {
  readonly name: string;
  readonly createSql: string;
  readonly columnNames: readonly string[];
  readonly options: { readonly droppedAtBaseline?: readonly string[] };
}
