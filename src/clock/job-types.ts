/**
 * Every job type of the emulator, with its payload type: the one list
 * (a job type named nowhere else cannot drift). A job is declared beside its resource with `defineJob(type,
 * run)` (src/clock/jobs.ts), typed by this list; at start-up the scheduler
 * refuses a type that is listed here and not defined, defined and not
 * listed, or stored in the `jobs` table and not known (see `registerJobs`).
 * Payloads are stored as JSON, so they hold only JSON values.
 * Delays: src/clock/delays.ts.
 */

/** Payload of the `automations.run` job (src/resources/automations/jobs.ts). */
export interface AutomationRunPayload {
  run_id: string;
  /** `start` (a new run), `resume` (a delay ended), `timeout` (a wait timed out), `event` (the awaited event came). */
  kind: 'start' | 'resume' | 'timeout' | 'event';
  /** The step it resumes (resume, timeout, event). */
  key?: string;
  /** The event that came (event). */
  event?: { name: string; payload: Record<string, unknown> };
}

/** Job type → payload type. */
export interface JobPayloads {
  /** src/resources/emails/jobs.ts: queued/scheduled → sent (or suppressed, failed). */
  'emails.send': { email_id: string };
  /** src/resources/emails/jobs.ts: sent → delivered or bounced. */
  /** `outcome` and `addresses`: an outcome fault rule's decision (src/faults/, `DeliverPayload` in emails/jobs.ts). */
  'emails.deliver': { email_id: string; outcome?: 'bounced' | 'delivery_delayed'; addresses?: string[] };
  /** src/resources/emails/jobs.ts: delivered → complained. */
  'emails.complain': { email_id: string };
  /** src/resources/emails/jobs.ts: the `emails.send` step of many emails queued together (a broadcast's batch), in order. */
  'emails.send-many': { email_ids: string[] };
  /** src/resources/emails/jobs.ts: the `emails.deliver` step of many emails sent together, each with its `emails.deliver` payload. */
  'emails.deliver-many': { emails: { email_id: string; outcome?: 'bounced' | 'delivery_delayed'; addresses?: string[] }[] };
  /** src/resources/domains/jobs.ts: ends a domain verification. */
  'domains.verify': { domain_id: string };
  /** src/resources/domains/jobs.ts: ends a domain claim's verification. */
  'domains.claim-verify': { claim_id: string };
  /** src/resources/domains/jobs.ts: a claim still pending after 7 days expires. */
  'domains.claim-expire': { claim_id: string };
  /** src/resources/contact-imports/jobs.ts: queued → in_progress. */
  'contact-imports.start': { import_id: string };
  /** src/resources/contact-imports/jobs.ts: reads the CSV, → completed or failed. */
  'contact-imports.run': { import_id: string };
  /** src/resources/broadcasts/jobs.ts: scheduled → queued at `scheduled_at`. */
  'broadcasts.start': { broadcast_id: string };
  /**
   * src/resources/broadcasts/jobs.ts: one batch of emails. A cursor over the
   * segment's memberships (`after_seq` < seq <= `until_seq`), both absent on
   * the first batch (which fixes `until_seq`): constant size, whatever the
   * segment's size.
   */
  'broadcasts.deliver': { broadcast_id: string; after_seq?: number; until_seq?: number };
  /** src/resources/automations/jobs.ts: one step of the run engine. */
  'automations.run': AutomationRunPayload;
  /** src/resources/inboxes/jobs.ts: a thread in `trash` for 30 days is deleted. */
  'inboxes.purge-thread': { thread_id: string };
  /** src/deliveries/jobs.ts: one scheduled attempt at a webhook delivery. */
  'webhook.deliver': { delivery_id: string };
  /** src/deliveries/jobs.ts: one extra attempt (a replay). */
  'webhook.replay': { delivery_id: string };
}

/** A job type. */
export type JobType = keyof JobPayloads;

/** Every key of `JobPayloads` once (the compiler keeps the two in step: a missing or extra key is an error). */
const listed: { [T in JobType]: true } = {
  'emails.send': true,
  'emails.deliver': true,
  'emails.complain': true,
  'emails.send-many': true,
  'emails.deliver-many': true,
  'domains.verify': true,
  'domains.claim-verify': true,
  'domains.claim-expire': true,
  'contact-imports.start': true,
  'contact-imports.run': true,
  'broadcasts.start': true,
  'broadcasts.deliver': true,
  'automations.run': true,
  'inboxes.purge-thread': true,
  'webhook.deliver': true,
  'webhook.replay': true,
};

/** Every job type, at run time (for the start-up check). */
export const JOB_TYPES: readonly JobType[] = Object.keys(listed) as JobType[];
