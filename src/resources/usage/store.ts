/**
 * The usage ledger's table and its SQL (the ledger's rules are service.ts):
 * per team and UTC day (emulated ms ÷ 86,400,000), the recipients sent and
 * the emails received that count toward the quotas.
 */
import type { Emulator } from '../../context.js';
import { defineTable, integer, text, type RowOf } from '../../store/table.js';

/** A UTC day in ms: the ledger's `day` is emulated ms ÷ DAY_MS (rounded down); the quota windows (service.ts) start on its multiples. */
export const DAY_MS = 86_400_000;

/** The ledger: per team and UTC day (`day`: the emulated time of the send or receipt in ms ÷ 86,400,000), the recipients sent and the emails received that count toward the quotas. */
export const usageTable = defineTable(
  'emulator_usage',
  {
    team_id: text().notNull(),
    /** The UTC day: emulated ms ÷ 86,400,000, rounded down. */
    day: integer().notNull(),
    /** Recipients sent that count toward the quotas. */
    sent: integer().notNull().default(0),
    /** Emails received that count toward the quotas. */
    received: integer().notNull().default(0),
  },
  { primaryKey: ['team_id', 'day'], withoutRowid: true },
);

/** An `emulator_usage` row: one team's counts of one UTC day. */
export type UsageRow = RowOf<typeof usageTable>;

/** The INSERT of a row (every column), which `addUsage` turns into an upsert. */
const INSERT_USAGE = usageTable.insert(usageTable.columnNames);

/** Adds a row's counts to its team and day's, or stores the row when the day has none yet. */
const ADD_USAGE = `${INSERT_USAGE.sql} ON CONFLICT (team_id, day) DO UPDATE SET sent = sent + excluded.sent, received = received + excluded.received`;

/** Adds `sent` recipients and `received` emails to a team's UTC day of `atMs` (emulated ms). */
export function addUsage(ctx: Emulator, teamId: string, atMs: number, sent: number, received: number): void {
  const row: UsageRow = { team_id: teamId, day: Math.floor(atMs / DAY_MS), sent, received };
  ctx.db.prepare(ADD_USAGE).run(...INSERT_USAGE.params(row));
}

/** Deletes every count of the ledger. */
export function deleteUsage(ctx: Emulator): void {
  ctx.db.prepare('DELETE FROM emulator_usage').run();
}

/**
 * A team's counts in two windows, read in one query over at most the
 * month's days: `*_day` since `dayStartMs`, `*_month` since `monthStartMs`
 * (emulated ms, UTC day starts).
 */
export function usageSince(ctx: Emulator, teamId: string, dayStartMs: number, monthStartMs: number): { sent_day: number; sent_month: number; received_day: number; received_month: number } {
  const day = Math.floor(dayStartMs / DAY_MS);
  return ctx.db
    .prepare(
      `SELECT COALESCE(SUM(CASE WHEN day >= ? THEN sent END), 0) AS sent_day, COALESCE(SUM(sent), 0) AS sent_month,
         COALESCE(SUM(CASE WHEN day >= ? THEN received END), 0) AS received_day, COALESCE(SUM(received), 0) AS received_month
       FROM emulator_usage WHERE team_id = ? AND day >= ?`,
    )
    .get(day, day, teamId, Math.floor(monthStartMs / DAY_MS)) as { sent_day: number; sent_month: number; received_day: number; received_month: number };
}
