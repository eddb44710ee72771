/**
 * The one implementation of list pagination (docs/reference/interface-spec.md#pagination;
 * docs/reference/formats.md#cursors; docs/reference/formats.md#page-size; docs/reference/formats.md#lists):
 * - newest first (`ORDER BY seq DESC`, `seq` = insertion order) unless the
 *   list names another `order` (a column and a direction: a thread's emails
 *   are oldest first, docs/reference/inboxes.md#thread-emails; an inbox's threads by latest
 *   activity, its drafts by latest update, docs/reference/inboxes.md#thread-endpoints,
 *   docs/reference/inboxes.md#drafts); a column other than
 *   `seq` is tie-broken by `seq` in the same direction, so cursors stay exact
 *   when two rows share a value;
 * - `limit` 1..100 (checked by the spec's `limit` parameter schema);
 * - `after` = id of the last item seen → the items after it in the list's
 *   order (older ones, newest first); `before` = id of the first item seen →
 *   the items before it; the cursor item itself is excluded;
 * - `after` with `before` → 422 `validation_error`; an unknown cursor → 422;
 * - `limit` omitted: `defaultLimit` items, or all items when it is `null`.
 * Each page is one indexed range scan on `(team_id, seq)`, so its cost does
 * not grow with the table.
 */
import type { DB, Statement } from '../store/db.js';
import { errors } from './errors.js';

/** Pagination query parameters as validated. */
export interface PageQuery {
  limit?: number;
  after?: string;
  before?: string;
}

/** The list envelope (docs/reference/interface-spec.md#conventions). */
export interface ListEnvelope<T> {
  object: 'list';
  has_more: boolean;
  data: T[];
}

export interface PageOptions<Row, Item> {
  /** Table name (a trusted constant, never user input). */
  table: string;
  /** SQL condition without pagination, e.g. `team_id = ? AND segment_id = ?`. */
  where: string;
  /** Bind values of `where`. */
  params: unknown[];
  query: PageQuery;
  /** 20 for emails, topics, templates; `null` where the spec says all items. */
  defaultLimit: number | null;
  /** Row → list item. */
  map: (row: Row) => Item;
  /** Columns to select (default `*`). */
  columns?: string;
  /** The list's order (default `NEWEST_FIRST`). */
  order?: PageOrder;
}

/**
 * A list's order: a column and a direction. `seq` (the insertion order,
 * unique, never rewritten) is the default; another column (e.g. an
 * activity counter) may repeat or change between two page reads: rows are
 * then ordered by `(column, seq)`, both in `direction`, and a cursor is the
 * cursor row's `(column, seq)` pair as it is when the page is read.
 * Default `{ column: 'seq', direction: 'desc' }` (newest first). Give the
 * table an index on `(<filter columns>, column)` so a page stays one range
 * scan.
 */
export interface PageOrder {
  /** A trusted constant, never user input. */
  column: string;
  direction: 'asc' | 'desc';
}

/** The order of every list that names none: newest first. */
export const NEWEST_FIRST: PageOrder = { column: 'seq', direction: 'desc' };

/**
 * Runs a page query and returns its rows as objects. Rows are read in raw
 * mode (arrays) and keyed here, which costs less than better-sqlite3
 * building 101 objects natively (docs/benchmarks.md#figures-behind-the-code); lists are on every test's hot path.
 */
function objects<Row>(stmt: Statement, bind: unknown[]): Row[] {
  const names = stmt.columns();
  const raw = stmt.raw().all(...bind);
  const out = new Array<Row>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i];
    const o: Record<string, unknown> = {};
    for (let j = 0; j < names.length; j++) o[names[j]] = r[j];
    out[i] = o as Row;
  }
  return out;
}

/**
 * Returns one page as a list envelope. Throws `ApiError` 422 for both
 * cursors or an unknown cursor.
 */
export function paginate<Row = any, Item = any>(db: DB, opts: PageOptions<Row, Item>): ListEnvelope<Item> {
  const { table, where, params, query } = opts;
  if (query.after !== undefined && query.before !== undefined) {
    throw errors.bothCursors();
  }
  const limit = query.limit ?? opts.defaultLimit ?? null;
  const { column, direction } = opts.order ?? NEWEST_FIRST;
  const cursorId = query.after ?? query.before;
  // A column other than `seq` is tie-broken by `seq`: the key of a row is (column, seq).
  const tieBreak = column !== 'seq';
  let cursorKey: unknown[] = [];
  if (cursorId !== undefined) {
    const row = db.prepare(`SELECT ${column} AS v, seq AS s FROM ${table} WHERE id = ? AND (${where})`).get(cursorId, ...params) as { v: unknown; s: unknown } | undefined;
    if (!row) {
      throw errors.unknownCursor(query.after !== undefined ? 'after' : 'before', cursorId);
    }
    cursorKey = tieBreak ? [row.v, row.v, row.s] : [row.v];
  }
  const cols = opts.columns ?? '*';
  // The list's order, and the comparison that means "after the cursor" in it.
  const forward = direction === 'asc' ? 'ASC' : 'DESC';
  const backward = direction === 'asc' ? 'DESC' : 'ASC';
  const afterOp = direction === 'asc' ? '>' : '<';
  const beforeOp = direction === 'asc' ? '<' : '>';
  const orderBy = (dir: string) => (tieBreak ? `${column} ${dir}, seq ${dir}` : `${column} ${dir}`);
  const past = (op: string) => (tieBreak ? `(${column} ${op} ? OR (${column} = ? AND seq ${op} ?))` : `${column} ${op} ?`);
  let rows: Row[];
  let hasMore: boolean;
  const take = limit === null ? -1 : limit + 1;
  if (query.before !== undefined) {
    // The items just before the cursor, read walking away from it, then put back in the list's order.
    rows = objects<Row>(db.prepare(`SELECT ${cols} FROM ${table} WHERE (${where}) AND ${past(beforeOp)} ORDER BY ${orderBy(backward)} LIMIT ?`), [...params, ...cursorKey, take]);
    hasMore = limit !== null && rows.length > limit;
    if (hasMore) rows = rows.slice(0, limit!);
    rows.reverse();
  } else {
    const cond = cursorId !== undefined ? ` AND ${past(afterOp)}` : '';
    rows = objects<Row>(db.prepare(`SELECT ${cols} FROM ${table} WHERE (${where})${cond} ORDER BY ${orderBy(forward)} LIMIT ?`), [...params, ...cursorKey, take]);
    hasMore = limit !== null && rows.length > limit;
    if (hasMore) rows = rows.slice(0, limit!);
  }
  return { object: 'list', has_more: hasMore, data: rows.map(opts.map) };
}

/**
 * The common list operation: `paginate` over the caller's team's rows of a
 * table (`WHERE team_id = ?`), with the request's pagination query.
 * For operations that need a key (`req.auth` is the caller).
 */
export function paginateTeam<Row = any, Item = any>(
  db: DB,
  req: { auth: { teamId: string }; query: PageQuery },
  opts: Omit<PageOptions<Row, Item>, 'where' | 'params' | 'query'>,
): ListEnvelope<Item> {
  return paginate(db, { ...opts, where: 'team_id = ?', params: [req.auth.teamId], query: req.query });
}

/** What `teamPager` makes: `paginateTeam` over one table, the table already chosen. */
export type TeamPager<Row> = <Item>(
  db: DB,
  req: { auth: { teamId: string }; query: PageQuery },
  opts: Omit<PageOptions<Row, Item>, 'table' | 'where' | 'params' | 'query'>,
) => ListEnvelope<Item>;

/**
 * `paginateTeam` bound to one table, so the table's name stays in the
 * owner's `store.ts` (only the owner names its tables) and its
 * handlers page it without naming it: `export const pageTopics =
 * teamPager<TopicRow>('topics')`.
 */
export function teamPager<Row>(table: string): TeamPager<Row> {
  return (db, req, opts) => paginateTeam(db, req, { ...opts, table });
}
