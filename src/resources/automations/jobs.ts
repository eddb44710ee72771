/**
 * The step engine of automation runs, as the resource's clock job
 * (docs/reference/resources.md#automations-and-runs; docs/reference/interface-spec.md#events). Everything happens on the
 * emulated clock through one job type, `automations.run` (`automationRunJob`),
 * with payload `{run_id, kind, key?, event?}` (`AutomationRunPayload`):
 * | kind | when | does |
 * |---|---|---|
 * | start | POST /events/send, due now (`DELAYS.automationRunStart`) | resolves the contact (an unknown email is created, `createContact`), then walks the graph from the trigger |
 * | resume | a `delay` step's duration has passed | completes the delay, follows its `default` connections |
 * | timeout | a `wait_for_event` step's `timeout` has passed | completes it with `{timed_out: true}`, follows `timeout` connections |
 * | event | POST /events/send of the awaited event for the run's contact | if `filter_rule` holds: completes it, follows `event_received` and `default` connections; later steps see the new payload as `event.*` |
 * Within a job, steps run one after the other in graph order (breadth first)
 * until each branch ends or waits (`delay`, `wait_for_event` → step status
 * `waiting`). Each step runs in its own transaction: a step that throws
 * leaves no half-written state, is `failed` with `error` = the `ApiError`
 * body (`{statusCode, message, name}`), and fails the run. A run with no
 * step left waiting is `completed`. Unsubscribed contact → `send_email` is
 * `skipped` (docs/reference/resources.md#automations-and-runs).
 */
import type { Emulator } from '../../context.js';
import { ApiError, errors } from '../../http/errors.js';
import { DELAYS } from '../../clock/delays.js';
import { defineJob } from '../../clock/jobs.js';
import type { AutomationRunPayload } from '../../clock/job-types.js';
import {
  addContactToSegment,
  contactPropertyValues,
  createContact,
  deleteContact,
  findContact,
  updateContact,
  type Contact,
} from '../contacts/service.js';
import { sendEmail, type SendEmailInput } from '../emails/service.js';
import { evaluate, resolveValues, type Rule, type RunContext } from './conditions.js';
import { stepDuration } from './graph.js';
import { newId } from '../../http/format.js';
import {
  completeRun, enabledFor, endRun, finishRunStep, insertRun, openSteps, runById, runningRunIds, runStep, runStepRunning, setRunContact, setRunPayload,
  setStepWaitEvent, startRunStep, stepsWaitingFor,
} from './store.js';
import type { ConnectionType, Graph, RunRow, RunStepRow, Step, StepStatus } from './store.js';

/** `automations.run`: one step of a run (`runJob`). */
export const automationRunJob = defineJob('automations.run', (ctx, job) => runJob(ctx, job.payload));

/** An event sent with POST /events/send, after payload coercion. */
export interface SentEvent {
  name: string;
  payload: Record<string, unknown>;
  /** Known contact (when sent with `contact_id`, or an email that matched a contact). */
  contactId: string | null;
  email: string | null;
}

/**
 * Starts a run (status `running`, trigger step `pending`) for every enabled
 * automation of the team whose trigger has this `event_name`, and schedules
 * the resume of the contact's runs waiting for this event. Synchronous; call
 * inside the caller's transaction. Returns the new run ids.
 */
export function dispatchEvent(ctx: Emulator, teamId: string, ev: SentEvent): string[] {
  const now = ctx.clock.nowMs();
  const automations = enabledFor(ctx, teamId, ev.name);
  const runIds: string[] = [];
  for (const a of automations) {
    const id = newId();
    const steps = JSON.parse(a.steps) as Step[];
    const trigger = steps.find((s) => s.type === 'trigger')!;
    insertRun(ctx, {
      id, teamId, automationId: a.id, event: ev.name, payload: JSON.stringify(ev.payload), contactId: ev.contactId, email: ev.email,
      graph: JSON.stringify({ steps, connections: JSON.parse(a.connections) }), triggerKey: trigger.key, now,
    });
    automationRunJob.schedule(ctx, { run_id: id, kind: 'start' }, { dueAt: now + DELAYS.automationRunStart, teamId });
    runIds.push(id);
  }
  const waiting = stepsWaitingFor(ctx, teamId, ev.name, ev.contactId, ev.email);
  for (const w of waiting) {
    automationRunJob.schedule(ctx, { run_id: w.run_id, kind: 'event', key: w.key, event: { name: ev.name, payload: ev.payload } }, { dueAt: now + DELAYS.automationEventResume, teamId });
  }
  return runIds;
}

/**
 * Cancels a running run: status `cancelled`, `completed_at` now, its
 * unfinished steps `skipped`, its pending jobs dropped.
 */
export function cancelRun(ctx: Emulator, runId: string): void {
  const now = ctx.clock.nowMs();
  endRun(ctx, runId, 'cancelled', now);
  automationRunJob.cancel(ctx, 'run_id', runId);
}

/** Cancels every running run of an automation (`cancelRun` each): it is stopped or deleted. */
export function cancelRunsOf(ctx: Emulator, automationId: string): void {
  for (const id of runningRunIds(ctx, automationId)) cancelRun(ctx, id);
}

/** The error column of a failed step: the ApiError body, or a 500 `application_error`. */
function errorBody(err: unknown): Record<string, unknown> {
  if (err instanceof ApiError) return err.toJSON();
  return { statusCode: 500, message: String((err as Error)?.message ?? err), name: 'application_error' };
}

interface StepResult {
  status: Extract<StepStatus, 'completed' | 'skipped' | 'waiting'>;
  output: Record<string, unknown> | null;
  /** Connection types to follow from this step. */
  follow: ConnectionType[];
  waitEvent?: string;
}

class Walker {
  private readonly teamId: string;
  private readonly graph: Graph;
  private event: Record<string, unknown>;

  constructor(private readonly ctx: Emulator, private run: RunRow) {
    this.teamId = run.team_id;
    this.graph = JSON.parse(run.graph);
    this.event = JSON.parse(run.event_payload);
  }

  private step(key: string): Step | undefined {
    return this.graph.steps.find((s) => s.key === key);
  }

  private next(key: string, types: ConnectionType[]): string[] {
    return this.graph.connections.filter((c) => c.from === key && types.includes(c.type)).map((c) => c.to);
  }

  private row(key: string): RunStepRow | undefined {
    return runStep(this.ctx, this.run.id, key);
  }

  private contact(): Contact {
    const c = this.run.contact_id ? findContact(this.ctx, this.teamId, this.run.contact_id) : undefined;
    if (!c) throw errors.notFound('Contact');
    return c;
  }

  private context(withContact: boolean): RunContext {
    if (!withContact) return { event: this.event, contact: null };
    const c = this.contact();
    const props = contactPropertyValues(this.ctx, this.teamId, c);
    return {
      event: this.event,
      contact: { ...props, id: c.id, email: c.email, first_name: c.first_name, last_name: c.last_name, unsubscribed: c.unsubscribed, properties: props },
    };
  }

  private finishStep(key: string, status: StepStatus, output: unknown, error: unknown): void {
    const now = this.ctx.clock.nowMs();
    finishRunStep(this.ctx, this.run.id, key, status, status === 'waiting' ? null : now, output, error);
  }

  private fail(key: string, err: unknown): void {
    const now = this.ctx.clock.nowMs();
    this.finishStep(key, 'failed', null, errorBody(err));
    endRun(this.ctx, this.run.id, 'failed', now);
    automationRunJob.cancel(this.ctx, 'run_id', this.run.id);
    this.ctx.log('debug', `automation run ${this.run.id} failed at step ${key}: ${(err as Error)?.message ?? err}`);
  }

  /** Handles one job. */
  handle(p: AutomationRunPayload): void {
    switch (p.kind) {
      case 'start': {
        const trigger = this.graph.steps.find((s) => s.type === 'trigger')!;
        try {
          this.ctx.db.transaction(() => {
            let c: Contact | undefined;
            if (this.run.contact_id) c = findContact(this.ctx, this.teamId, this.run.contact_id);
            else if (this.run.contact_email) {
              c = findContact(this.ctx, this.teamId, this.run.contact_email) ?? createContact(this.ctx, this.teamId, { email: this.run.contact_email }).contact;
            }
            if (!c) throw errors.notFound('Contact');
            setRunContact(this.ctx, this.run.id, c.id, c.email);
            this.run = { ...this.run, contact_id: c.id, contact_email: c.email };
          })();
        } catch (err) {
          startRunStep(this.ctx, this.run.id, trigger.key, this.ctx.clock.nowMs());
          this.fail(trigger.key, err);
          return;
        }
        this.walk([trigger.key]);
        return;
      }
      case 'resume': {
        if (this.row(p.key!)?.status !== 'waiting') return;
        this.finishStep(p.key!, 'completed', null, null);
        this.walk(this.next(p.key!, ['default']));
        return;
      }
      case 'timeout': {
        if (this.row(p.key!)?.status !== 'waiting') return;
        this.finishStep(p.key!, 'completed', { timed_out: true }, null);
        this.walk(this.next(p.key!, ['timeout']));
        return;
      }
      case 'event': {
        if (this.row(p.key!)?.status !== 'waiting') return;
        const filter = this.step(p.key!)?.config.filter_rule as Rule | undefined;
        const previous = this.event;
        this.event = p.event!.payload;
        try {
          if (filter && !evaluate(filter, this.context(JSON.stringify(filter).includes('"contact.')))) {
            this.event = previous;
            return;
          }
        } catch (err) {
          this.fail(p.key!, err);
          return;
        }
        setRunPayload(this.ctx, this.run.id, JSON.stringify(this.event));
        this.finishStep(p.key!, 'completed', { event: p.event!.name, payload: p.event!.payload }, null);
        this.walk(this.next(p.key!, ['event_received', 'default']));
        return;
      }
    }
  }

  /** Runs steps breadth first from `start` until every branch ends or waits; then completes the run if nothing waits. */
  private walk(start: string[]): void {
    const queue = [...start];
    while (queue.length) {
      const key = queue.shift()!;
      const step = this.step(key);
      if (!step) continue;
      const existing = this.row(key);
      if (existing && existing.status !== 'pending') continue; // a join already reached
      const now = this.ctx.clock.nowMs();
      runStepRunning(this.ctx, this.run.id, key, step.type, now, existing !== undefined);
      let result: StepResult;
      try {
        result = this.ctx.db.transaction(() => this.exec(step))();
      } catch (err) {
        this.fail(key, err);
        return;
      }
      this.finishStep(key, result.status, result.output, null);
      if (result.waitEvent) setStepWaitEvent(this.ctx, this.run.id, key, result.waitEvent);
      if (result.status !== 'waiting') queue.push(...this.next(key, result.follow));
    }
    if (openSteps(this.ctx, this.run.id) === 0) completeRun(this.ctx, this.run.id, this.ctx.clock.nowMs());
  }

  /** Executes one step. Throws (ApiError or other) to fail it. */
  private exec(step: Step): StepResult {
    const cfg = step.config ?? {};
    const now = this.ctx.clock.nowMs();
    switch (step.type) {
      case 'trigger':
        return { status: 'completed', output: null, follow: ['default'] };
      case 'delay': {
        const ms = stepDuration(cfg.duration, 'duration');
        automationRunJob.schedule(this.ctx, { run_id: this.run.id, kind: 'resume', key: step.key }, { dueAt: now + ms, teamId: this.teamId });
        return { status: 'waiting', output: null, follow: [] };
      }
      case 'wait_for_event': {
        if (cfg.timeout !== undefined) {
          const ms = stepDuration(cfg.timeout, 'timeout');
          automationRunJob.schedule(this.ctx, { run_id: this.run.id, kind: 'timeout', key: step.key }, { dueAt: now + ms, teamId: this.teamId });
        }
        return { status: 'waiting', output: null, follow: [], waitEvent: String(cfg.event_name) };
      }
      case 'condition': {
        const rule = cfg as Rule;
        const result = evaluate(rule, this.context(JSON.stringify(rule).includes('"contact.')));
        return { status: 'completed', output: { result }, follow: [result ? 'condition_met' : 'condition_not_met'] };
      }
      case 'send_email': {
        const context = this.context(true);
        const contact = this.contact();
        if (contact.unsubscribed) return { status: 'skipped', output: null, follow: ['default'] };
        const templateId = String(cfg.template.id);
        const variables = resolveValues(cfg.template.variables, context) as Record<string, string | number | boolean>;
        const input: SendEmailInput = { to: contact.email, template: { id: templateId, variables } };
        // Without `from`, sendEmail takes the published template's own `from`.
        if (cfg.from) input.from = cfg.from;
        if (cfg.subject) input.subject = cfg.subject;
        if (cfg.reply_to) input.reply_to = cfg.reply_to;
        if (cfg.topic_id) input.topic_id = cfg.topic_id;
        const sent = sendEmail(this.ctx, input, { teamId: this.teamId, source: 'automation', automationRunId: this.run.id });
        return { status: 'completed', output: { to: contact.email, email_id: sent.id, template: { id: templateId, variables } }, follow: ['default'] };
      }
      case 'contact_update': {
        const context = this.context(true);
        const contact = this.contact();
        const patch: Record<string, unknown> = resolveValues({ first_name: cfg.first_name, last_name: cfg.last_name, unsubscribed: cfg.unsubscribed }, context);
        if (cfg.properties) patch.properties = resolveValues(cfg.properties, context);
        updateContact(this.ctx, this.teamId, contact.id, patch);
        return { status: 'completed', output: { contact_id: contact.id }, follow: ['default'] };
      }
      case 'contact_delete': {
        const contact = this.contact();
        deleteContact(this.ctx, this.teamId, contact.id);
        return { status: 'completed', output: { contact_id: contact.id }, follow: ['default'] };
      }
      case 'add_to_segment': {
        const contact = this.contact();
        addContactToSegment(this.ctx, this.teamId, contact.id, String(cfg.segment_id));
        return { status: 'completed', output: { contact_id: contact.id, segment_id: cfg.segment_id }, follow: ['default'] };
      }
    }
  }
}

/** The `automations.run` job handler. A run that is no longer `running` is left alone. */
function runJob(ctx: Emulator, payload: AutomationRunPayload): void {
  const run = runById(ctx, payload.run_id);
  if (!run || run.status !== 'running') return;
  new Walker(ctx, run).handle(payload);
}
