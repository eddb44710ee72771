/**
 * The teams module (the first of `src/modules.ts`): teams, and the
 * tables of no resource: the clock's and scheduler's, and the request
 * pipeline's idempotency keys. Every API key and resource belongs to a team
 * (docs/reference/design.md#teams). Teams have an owner address, the only
 * non-test address `onboarding@resend.dev` may send to (docs/reference/errors.md#error-names-and-statuses).
 */
import type { ResourceModule } from '../module.js';
import type { DB } from '../store/db.js';
import { emulatorClockTable, jobsTable } from '../clock/scheduler.js';
import { idempotencyKeysTable } from '../http/idempotency.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../store/table.js';

/** Teams: every API key and resource belongs to one. */
export const teamsTable = defineTable(
  'teams',
  {
    seq: seq(),
    id: id(),
    name: text().notNull(),
    owner_email: text().notNull(),
    created_at: integer().notNull(),
  },
);

/** A team row. */
export type TeamRow = RowOf<typeof teamsTable>;

/** The INSERT of a new team: every column but `seq`. */
const INSERT_TEAM = teamsTable.insert(teamsTable.columnsExcept('seq'));

export const teamsModule: ResourceModule = {
  name: 'teams',
  // The tables of no resource, listed here (the first module): teams, the scheduler's and the clock's (src/clock/scheduler.ts), the
  // request pipeline's Idempotency-Key table (src/http/idempotency.ts owns it).
  tables: [teamsTable, jobsTable, emulatorClockTable, idempotencyKeysTable],
  seed(ctx, fixtures, db) {
    for (const t of fixtures.teams ?? []) {
      insertTeam(db, { id: t.id, name: t.name, ownerEmail: t.owner_email, createdAt: t.created_at ? Date.parse(t.created_at) : ctx.clock.nowMs() });
    }
  },
};

/** The team row, or undefined. */
export function getTeam(db: DB, teamId: string): TeamRow | undefined {
  return db.prepare('SELECT * FROM teams WHERE id = ?').get(teamId) as TeamRow | undefined;
}

/** True when a team with this id exists. */
export function teamExists(ctx: { db: DB }, teamId: string): boolean {
  return ctx.db.prepare('SELECT 1 FROM teams WHERE id = ?').get(teamId) !== undefined;
}

/** Every team, oldest first. */
export function listTeams(db: DB): TeamRow[] {
  return db.prepare('SELECT * FROM teams ORDER BY seq').all() as TeamRow[];
}

/** True when the store holds at least one team (a `--db` file with state). */
export function hasTeams(db: DB): boolean {
  return db.prepare('SELECT 1 FROM teams LIMIT 1').get() !== undefined;
}

/** Adds a team (emulated `createdAt` ms). */
export function insertTeam(db: DB, team: { id: string; name: string; ownerEmail: string; createdAt: number }): void {
  db.prepare(INSERT_TEAM.sql).run(...INSERT_TEAM.params({ id: team.id, name: team.name, owner_email: team.ownerEmail, created_at: team.createdAt }));
}
