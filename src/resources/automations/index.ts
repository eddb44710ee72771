/**
 * Automations and runs (docs/reference/interface-spec.md#automation-and-automation-run;
 * docs/reference/interface-spec.md#other-states; docs/reference/interface-spec.md#errors 4;
 * docs/reference/resources.md#automations-and-runs; docs/reference/interface-spec.md#where-the-spec-and-the-service-differ rows 7, 11). Rows and shapes: `store.ts`; graph rules: `graph.ts`;
 * handlers: `automations.ts`; the step engine (the clock job): `jobs.ts`;
 * rules and `{var}` references: `conditions.ts`.
 * | operationId | rule |
 * |---|---|
 * | automations/create | `name` required; `status` default `disabled`; `steps` and `connections` together or neither (422 `validation_error`, docs/reference/interface-spec.md#errors 4 over the document's "both required", docs/reference/interface-spec.md#where-the-spec-and-the-service-differ row 7); 1-150 steps, exactly one `trigger`; each step's `config` checked by its type's schema; unique keys, connections between existing steps, none into the trigger, no cycles, connection types fitting their source (graph.ts); durations ≤ 30 days → 201 `{object, id}` |
 * | automations/list | `?status=enabled|disabled`; newest first, `limit` default 20; items id, name, status, created_at, updated_at |
 * | automations/get | `{object, id, name, status, created_at, updated_at, steps[{key, type, config}], connections[{from, to, type}]}` |
 * | automations/update | at least one of name, status, steps+connections (together) → `{object, id}`; runs under way keep their graph |
 * | automations/remove | `{object, id, deleted: true}`; its runs are cancelled and removed |
 * | automations/duplicate | 201 `{object, id}`: a `disabled` copy named `<name> (copy)` |
 * | automations/stop | status `disabled`, running runs → `cancelled` (unfinished steps `skipped`) → `{object, id, status: "disabled"}` |
 * | automations/list-runs | `?status=` comma-separated of running, completed, failed, cancelled (else 422); all runs when `limit` is omitted (docs/reference/interface-spec.md#pagination 3) |
 * | automations/get-run | `{object: "automation_run", id, status, started_at, completed_at, created_at, steps[{key, type, status, started_at, completed_at, output, error, created_at}]}` |
 * Unknown → 404 `Automation not found` / `Automation run not found`.
 * Runs start from POST /events/send (src/resources/events) through `dispatchEvent`.
 */
import type { ResourceModule } from '../../module.js';
import { automationOperations } from './handlers.js';
import { automationRunJob } from './jobs.js';
import { checkGraph } from './graph.js';
import { insertAutomation, tables } from './store.js';

export const automationsModule: ResourceModule = {
  name: 'automations',
  tables,
  operations: automationOperations,
  jobs: [automationRunJob],
  seed(ctx, fixtures) {
    for (const a of fixtures.automations ?? []) {
      insertAutomation(ctx, a.team_id, {
        id: a.id,
        name: a.name,
        status: a.status ?? 'disabled',
        graph: checkGraph(a.steps ?? [], a.connections ?? []),
        createdAt: a.created_at ? Date.parse(a.created_at) : undefined,
      });
    }
  },
};
