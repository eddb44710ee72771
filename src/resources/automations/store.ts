/**
 * Automation and run rows and their API shapes. Times in emulated ms.
 * A run keeps a snapshot of the graph it started with (`graph`), so edits of
 * the automation do not change runs under way.
 */
import type { Emulator } from '../../context.js';
import type { DB } from '../../store/db.js';
import { paginate, type ListEnvelope, type PageQuery } from '../../http/pagination.js';
import { apiTime, fromJson, newId } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import type { ListItem, ResponseBody } from '../../http/document-types.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

export type StepType = 'trigger' | 'delay' | 'wait_for_event' | 'condition' | 'send_email' | 'contact_update' | 'contact_delete' | 'add_to_segment';
export type ConnectionType = 'default' | 'condition_met' | 'condition_not_met' | 'timeout' | 'event_received';

export interface Step {
  key: string;
  type: StepType;
  config: Record<string, any>;
}

export interface Connection {
  from: string;
  to: string;
  type: ConnectionType;
}

export interface Graph {
  steps: Step[];
  connections: Connection[];
}

export type RunStatus = 'running' | 'completed' | 'failed' | 'cancelled';
export type StepStatus = 'pending' | 'running' | 'completed' | 'failed' | 'skipped' | 'waiting';

/** The `automations` table: each automation's graph as JSON text. */
export const automationsTable = defineTable(
  'automations',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    name: text().notNull(),
    status: text().notNull().as<'enabled' | 'disabled'>(),
    /** JSON Step[]. */
    steps: text().notNull(),
    /** JSON Connection[]. */
    connections: text().notNull(),
    /** The trigger's `event_name` (indexed copy), or null without steps. */
    trigger_event: text(),
    created_at: integer().notNull(),
    updated_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'automations_team', on: 'team_id, seq' },
      { name: 'automations_trigger', on: 'team_id, status, trigger_event' },
    ],
  },
);

/** Runs of an automation; they go with it (`DELETE /automations/{id}`). */
export const automationRunsTable = defineTable(
  'automation_runs',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    automation_id: text().notNull().references('automations', { onDelete: 'CASCADE' }),
    status: text().notNull().as<RunStatus>(),
    event_name: text().notNull(),
    /** JSON object: the payload of the triggering (or latest awaited) event. */
    event_payload: text().notNull(),
    contact_id: text(),
    contact_email: text(),
    /** JSON Graph snapshot. */
    graph: text().notNull(),
    started_at: integer(),
    completed_at: integer(),
    created_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'automation_runs_automation', on: 'automation_id, seq' },
      { name: 'automation_runs_status', on: 'team_id, status' },
    ],
  },
);

/** Steps of a run; they go with it. */
export const automationRunStepsTable = defineTable(
  'automation_run_steps',
  {
    seq: seq(),
    run_id: text().notNull().references('automation_runs', { onDelete: 'CASCADE' }),
    key: text().notNull(),
    type: text().notNull().as<StepType>(),
    status: text().notNull().as<StepStatus>(),
    started_at: integer(),
    completed_at: integer(),
    /** JSON object, or null. */
    output: text(),
    /** JSON object, or null. */
    error: text(),
    /** Event name a `wait_for_event` step waits for, while waiting. */
    wait_event: text(),
    created_at: integer().notNull(),
  },
  {
    unique: [['run_id', 'key']],
    indexes: [
      { name: 'automation_run_steps_wait', on: 'status, wait_event' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [automationsTable, automationRunsTable, automationRunStepsTable];

/** An `automations` row (times in emulated ms). */
export type AutomationRow = RowOf<typeof automationsTable>;

/** An `automation_runs` row (times in emulated ms). */
export type RunRow = RowOf<typeof automationRunsTable>;

/** An `automation_run_steps` row (times in emulated ms). */
export type RunStepRow = RowOf<typeof automationRunStepsTable>;

/** The INSERT of a new automation: every column but `seq`. */
const INSERT_AUTOMATION = automationsTable.insert(automationsTable.columnsExcept('seq'));

/** The INSERT of a new run: every column but `seq`. */
const INSERT_RUN = automationRunsTable.insert(automationRunsTable.columnsExcept('seq'));

/** The INSERT of a run's trigger step (`insertRun`): not started yet. */
const INSERT_TRIGGER_STEP = automationRunStepsTable.insert(['run_id', 'key', 'type', 'status', 'created_at']);

/** The INSERT of a step as it starts (`runStepRunning`). */
const INSERT_STARTED_STEP = automationRunStepsTable.insert(['run_id', 'key', 'type', 'status', 'started_at', 'created_at']);

/** The trigger's event name of a graph, or null. */
export function triggerEvent(graph: Graph): string | null {
  return graph.steps.find((s) => s.type === 'trigger')?.config.event_name ?? null;
}

/** Inserts an automation; returns its row. */
export function insertAutomation(
  ctx: Emulator,
  teamId: string,
  a: { id?: string; name: string; status?: 'enabled' | 'disabled'; graph: Graph; createdAt?: number },
): AutomationRow {
  const id = a.id ?? newId();
  const now = a.createdAt ?? ctx.clock.nowMs();
  ctx.db.prepare(INSERT_AUTOMATION.sql).run(...INSERT_AUTOMATION.params({
    id,
    team_id: teamId,
    name: a.name,
    status: a.status ?? 'disabled',
    steps: JSON.stringify(a.graph.steps),
    connections: JSON.stringify(a.graph.connections),
    trigger_event: triggerEvent(a.graph),
    created_at: now,
    updated_at: now,
  }));
  return ctx.db.prepare('SELECT * FROM automations WHERE id = ?').get(id) as AutomationRow;
}

/** The team's automation; throws 404 `Automation not found`. */
export function automationOr404(ctx: Emulator, teamId: string, id: string): AutomationRow {
  const row = ctx.db.prepare('SELECT * FROM automations WHERE id = ? AND team_id = ?').get(id, teamId) as AutomationRow | undefined;
  if (!row) throw errors.notFound('Automation');
  return row;
}

export function graphOf(row: { steps: string; connections: string }): Graph {
  return { steps: JSON.parse(row.steps), connections: JSON.parse(row.connections) };
}

export function automationShape(row: AutomationRow): ResponseBody<'automations/get'> {
  const g = graphOf(row);
  return {
    object: 'automation',
    id: row.id,
    name: row.name,
    status: row.status,
    created_at: apiTime(row.created_at),
    updated_at: apiTime(row.updated_at),
    steps: g.steps.map((s) => ({ key: s.key, type: s.type, config: s.config })),
    connections: g.connections.map((c) => ({ from: c.from, to: c.to, type: c.type })),
  };
}

/** The columns its list items read (`AUTOMATION_LIST_COLUMNS`, `AutomationListRow`). */
const AUTOMATION_LIST_NAMES = ['seq', 'id', 'name', 'status', 'created_at', 'updated_at'] as const;

/** The columns its list items read (a page selects only these: a list reads only what it shows). */
const AUTOMATION_LIST_COLUMNS = automationsTable.columnList(AUTOMATION_LIST_NAMES);

/** A row as a list page reads it (`AUTOMATION_LIST_COLUMNS`). */
export type AutomationListRow = Pick<AutomationRow, (typeof AUTOMATION_LIST_NAMES)[number]>;

export function automationListItem(row: AutomationListRow): ListItem<'automations/list'> {
  return { id: row.id, name: row.name, status: row.status, created_at: apiTime(row.created_at), updated_at: apiTime(row.updated_at) };
}

/** The columns its list items read (`RUN_LIST_COLUMNS`, `RunListRow`). */
const RUN_LIST_NAMES = ['seq', 'id', 'status', 'started_at', 'completed_at', 'created_at'] as const;

/** The columns its list items read (a page selects only these: a list reads only what it shows). */
const RUN_LIST_COLUMNS = automationRunsTable.columnList(RUN_LIST_NAMES);

/** A run as a list page reads it (`RUN_LIST_COLUMNS`). */
export type RunListRow = Pick<RunRow, (typeof RUN_LIST_NAMES)[number]>;

export function runListItem(r: RunListRow): ListItem<'automations/list-runs'> {
  return { id: r.id, status: r.status, started_at: apiTime(r.started_at), completed_at: apiTime(r.completed_at), created_at: apiTime(r.created_at) };
}

export function runStepRows(ctx: Emulator, runId: string): RunStepRow[] {
  return ctx.db.prepare('SELECT * FROM automation_run_steps WHERE run_id = ? ORDER BY seq').all(runId) as RunStepRow[];
}

/** GET /automations/{id}/runs/{run_id}: steps in execution (graph) order. */
export function runShape(ctx: Emulator, r: RunRow): ResponseBody<'automations/get-run'> {
  return {
    object: 'automation_run',
    ...runListItem(r),
    steps: runStepRows(ctx, r.id).map((s) => ({
      key: s.key,
      type: s.type,
      status: s.status,
      started_at: apiTime(s.started_at),
      completed_at: apiTime(s.completed_at),
      output: fromJson<Record<string, unknown>>(s.output),
      error: fromJson<Record<string, unknown>>(s.error),
      created_at: apiTime(s.created_at),
    })),
  };
}

/** The team's automation runs, newest first, at most `limit`, with their automation's name (for the admin dashboard). */
export function listRuns(ctx: Emulator, teamId: string, limit = 200): (RunRow & { automation_name: string | null })[] {
  return ctx.db
    .prepare(
      `SELECT r.*, a.name AS automation_name FROM automation_runs r LEFT JOIN automations a ON a.id = r.automation_id
       WHERE r.team_id = ? ORDER BY r.seq DESC LIMIT ?`,
    )
    .all(teamId, limit) as (RunRow & { automation_name: string | null })[];
}

/** A page of the team's automations (GET /automations), only those in `status` when given; 20 by default. */
export function pageAutomations<Item>(db: DB, teamId: string, status: string | undefined, query: PageQuery, map: (r: AutomationListRow) => Item): ListEnvelope<Item> {
  return paginate(db, {
    table: 'automations',
    where: status ? 'team_id = ? AND status = ?' : 'team_id = ?',
    params: status ? [teamId, status] : [teamId],
    query,
    defaultLimit: 20,
    columns: AUTOMATION_LIST_COLUMNS,
    map,
  });
}

/** A page of an automation's runs (GET /automations/{id}/runs), only those in one of `statuses` when any; all by default. */
export function pageRuns<Item>(db: DB, automationId: string, statuses: string[], query: PageQuery, map: (r: RunListRow) => Item): ListEnvelope<Item> {
  return paginate(db, {
    table: 'automation_runs',
    // The statuses as one JSON array (json_each): one SQL text whatever their number (src/store/db.ts).
    where: statuses.length ? 'automation_id = ? AND status IN (SELECT value FROM json_each(?))' : 'automation_id = ?',
    params: statuses.length ? [automationId, JSON.stringify(statuses)] : [automationId],
    query,
    defaultLimit: null,
    columns: RUN_LIST_COLUMNS,
    map,
  });
}

/** Sets an automation's name, status, graph (JSON text) and trigger event; `updated_at` = emulated now. */
export function updateAutomation(ctx: Emulator, id: string, a: Pick<AutomationRow, 'name' | 'status' | 'steps' | 'connections'> & { triggerEvent: string | null }): void {
  ctx.db
    .prepare('UPDATE automations SET name = ?, status = ?, steps = ?, connections = ?, trigger_event = ?, updated_at = ? WHERE id = ?')
    .run(a.name, a.status, a.steps, a.connections, a.triggerEvent, ctx.clock.nowMs(), id);
}

/** Ids of an automation's running runs. */
export function runningRunIds(ctx: Emulator, automationId: string): string[] {
  return (ctx.db.prepare(`SELECT id FROM automation_runs WHERE automation_id = ? AND status = 'running'`).all(automationId) as Pick<RunRow, 'id'>[]).map((r) => r.id);
}

/** Deletes an automation; its runs and their steps go with it (the foreign keys of `automationRunsTable` and `automationRunStepsTable`). Call inside a transaction. */
export function deleteAutomation(ctx: Emulator, id: string): void {
  ctx.db.prepare('DELETE FROM automations WHERE id = ?').run(id);
}

/** Disables an automation; `updated_at` = emulated now. */
export function disableAutomation(ctx: Emulator, id: string): void {
  ctx.db.prepare(`UPDATE automations SET status = 'disabled', updated_at = ? WHERE id = ?`).run(ctx.clock.nowMs(), id);
}

/** The automation's run `id`, or undefined. */
export function findRun(ctx: Emulator, automationId: string, id: string): RunRow | undefined {
  return ctx.db.prepare('SELECT * FROM automation_runs WHERE id = ? AND automation_id = ?').get(id, automationId) as RunRow | undefined;
}

/** The team's enabled automations triggered by the event `name`, oldest first. */
export function enabledFor(ctx: Emulator, teamId: string, name: string): Pick<AutomationRow, 'id' | 'steps' | 'connections'>[] {
  return ctx.db
    .prepare(`SELECT id, steps, connections FROM automations WHERE team_id = ? AND status = 'enabled' AND trigger_event = ? ORDER BY seq`)
    .all(teamId, name) as Pick<AutomationRow, 'id' | 'steps' | 'connections'>[];
}

/** Inserts a `running` run (graph and payload as JSON text, `now` emulated ms) with its trigger step `pending`. */
export function insertRun(
  ctx: Emulator,
  r: { id: string; teamId: string; automationId: string; event: string; payload: string; contactId: string | null; email: string | null; graph: string; triggerKey: string; now: number },
): void {
  ctx.db.prepare(INSERT_RUN.sql).run(...INSERT_RUN.params({
    id: r.id,
    team_id: r.teamId,
    automation_id: r.automationId,
    status: 'running',
    event_name: r.event,
    event_payload: r.payload,
    contact_id: r.contactId,
    contact_email: r.email,
    graph: r.graph,
    started_at: r.now,
    completed_at: null,
    created_at: r.now,
  }));
  ctx.db
    .prepare(INSERT_TRIGGER_STEP.sql)
    .run(...INSERT_TRIGGER_STEP.params({ run_id: r.id, key: r.triggerKey, type: 'trigger', status: 'pending', created_at: r.now }));
}

/** Steps of the team's running runs of this contact (by id or email, case-insensitive) waiting for the event `name`, oldest first. */
export function stepsWaitingFor(ctx: Emulator, teamId: string, name: string, contactId: string | null, email: string | null): Pick<RunStepRow, 'run_id' | 'key'>[] {
  return ctx.db
    .prepare(`SELECT s.run_id, s.key FROM automation_run_steps s JOIN automation_runs r ON r.id = s.run_id
      WHERE s.status = 'waiting' AND s.wait_event = ? AND r.team_id = ? AND r.status = 'running'
        AND (r.contact_id = ? OR lower(r.contact_email) = lower(?)) ORDER BY s.seq`)
    .all(name, teamId, contactId, email) as Pick<RunStepRow, 'run_id' | 'key'>[];
}

/**
 * Ends a run as `cancelled` (only a running one) or `failed`, `completed_at`
 * = `now` (emulated ms); its unfinished steps are `skipped`.
 */
export function endRun(ctx: Emulator, runId: string, status: 'cancelled' | 'failed', now: number): void {
  if (status === 'cancelled') ctx.db.prepare(`UPDATE automation_runs SET status = 'cancelled', completed_at = ? WHERE id = ? AND status = 'running'`).run(now, runId);
  else ctx.db.prepare(`UPDATE automation_runs SET status = 'failed', completed_at = ? WHERE id = ?`).run(now, runId);
  ctx.db.prepare(`UPDATE automation_run_steps SET status = 'skipped', wait_event = NULL WHERE run_id = ? AND status IN ('pending', 'running', 'waiting')`).run(runId);
}

/** A running run is `completed` at `now` (emulated ms). */
export function completeRun(ctx: Emulator, runId: string, now: number): void {
  ctx.db.prepare(`UPDATE automation_runs SET status = 'completed', completed_at = ? WHERE id = ? AND status = 'running'`).run(now, runId);
}

/** The run `id`, or undefined. */
export function runById(ctx: Emulator, id: string): RunRow | undefined {
  return ctx.db.prepare('SELECT * FROM automation_runs WHERE id = ?').get(id) as RunRow | undefined;
}

/** A run's step `key`, or undefined. */
export function runStep(ctx: Emulator, runId: string, key: string): RunStepRow | undefined {
  return ctx.db.prepare('SELECT * FROM automation_run_steps WHERE run_id = ? AND key = ?').get(runId, key) as RunStepRow | undefined;
}

/** Ends a step with `status` (`completedAt` emulated ms or null; output and error stored as JSON, null kept null). */
export function finishRunStep(ctx: Emulator, runId: string, key: string, status: string, completedAt: number | null, output: unknown, error: unknown): void {
  ctx.db
    .prepare('UPDATE automation_run_steps SET status = ?, completed_at = ?, output = ?, error = ?, wait_event = NULL WHERE run_id = ? AND key = ?')
    .run(status, completedAt, output == null ? null : JSON.stringify(output), error == null ? null : JSON.stringify(error), runId, key);
}

/** Sets the run's contact. */
export function setRunContact(ctx: Emulator, runId: string, contactId: string, email: string): void {
  ctx.db.prepare('UPDATE automation_runs SET contact_id = ?, contact_email = ? WHERE id = ?').run(contactId, email, runId);
}

/** Sets a step's `started_at` (emulated ms). */
export function startRunStep(ctx: Emulator, runId: string, key: string, at: number): void {
  ctx.db.prepare('UPDATE automation_run_steps SET started_at = ? WHERE run_id = ? AND key = ?').run(at, runId, key);
}

/** Sets the run's event payload (JSON text). */
export function setRunPayload(ctx: Emulator, runId: string, payload: string): void {
  ctx.db.prepare('UPDATE automation_runs SET event_payload = ? WHERE id = ?').run(payload, runId);
}

/** Marks a step `running` at `now` (emulated ms): the existing row, or a new one of `type`. */
export function runStepRunning(ctx: Emulator, runId: string, key: string, type: StepType, now: number, exists: boolean): void {
  if (exists) ctx.db.prepare(`UPDATE automation_run_steps SET status = 'running', started_at = ? WHERE run_id = ? AND key = ?`).run(now, runId, key);
  else ctx.db.prepare(INSERT_STARTED_STEP.sql).run(...INSERT_STARTED_STEP.params({ run_id: runId, key, type, status: 'running', started_at: now, created_at: now }));
}

/** The event a waiting step waits for. */
export function setStepWaitEvent(ctx: Emulator, runId: string, key: string, event: string): void {
  ctx.db.prepare('UPDATE automation_run_steps SET wait_event = ? WHERE run_id = ? AND key = ?').run(event, runId, key);
}

/** A run's steps not yet ended (pending, running, waiting). */
export function openSteps(ctx: Emulator, runId: string): number {
  return (ctx.db.prepare(`SELECT COUNT(*) AS n FROM automation_run_steps WHERE run_id = ? AND status IN ('pending', 'running', 'waiting')`).get(runId) as { n: number }).n;
}

/** The team's automation runs started at or after `sinceMs` (emulated ms; GET /usage `automation_runs.used`, per month). */
export function countRuns(ctx: Emulator, teamId: string, sinceMs: number): number {
  return (ctx.db.prepare('SELECT COUNT(*) AS n FROM automation_runs WHERE team_id = ? AND created_at >= ?').get(teamId, sinceMs) as { n: number }).n;
}
