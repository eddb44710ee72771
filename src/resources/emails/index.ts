/**
 * Sent emails (API-FACTS §5.1, §5.2, §6, §7; interface-spec "Sent email",
 * "Emails"). Files: `send.ts` (the CONTRACT `sendEmail`, its rules),
 * `jobs.ts` (clock jobs), `store.ts` (tables, shapes, webhook data),
 * `operations.ts` (handlers), `metrics.ts`, `addresses.ts`.
 * | operationId | rule |
 * |---|---|
 * | emails/send | body of API-FACTS §5.1 (rules in `send.ts`); `Idempotency-Key`; open to `sending_access` keys → `{id}`; starts `queued` (or `scheduled` + `email.scheduled`) |
 * | emails/send-batch | array of 1..100 send bodies without `attachments`; `x-batch-validation: strict` (all or nothing) or `permissive` (`errors: [{index, message}]`); `Idempotency-Key` → `{data: [{id}]}` in input order |
 * | emails/list | the team's sent emails, newest first, `limit` default 20; items of interface-spec "Sent email" (unset cc/bcc/reply_to `null`) |
 * | emails/get | `object: "email"` + html, text, tags, topic_id (unset lists `[]`); another team's → 404 `Email not found` |
 * | emails/update | `{scheduled_at}` on a `scheduled` email → `{object: "email", id}`; otherwise 422 `validation_error` |
 * | emails/cancel | `scheduled` → `canceled` (final) → `{object: "email", id}`; otherwise 422 |
 * | emails/share | `{expires_in}` ≤ 48 h (default 48 h) → `{object: "email", id, url}` |
 * | emails/list-attachments, emails/get-attachment | `{id, filename, content_type, content_id, content_disposition, download_url, expires_at, size}`; `download_url` = the admin API's download (or the `path` given) |
 * | emails/metrics | counts and rates over `start_date`..`end_date` (default the last 6 days), breakdown by `dimensions` (see `metrics.ts`) |
 * Lifecycle jobs `emails.send`, `emails.deliver`, `emails.complain`: see `jobs.ts`.
 */
import { htmlToText } from './text.js';
import type { ResourceModule } from '../../module.js';
import { emailOperations } from './handlers.js';
import { metrics } from './metrics.js';
import { emailComplainJob, emailDeliverJob, emailSendJob } from './jobs.js';
import { emailContactMigration, emailEventsColumnMigration, emailsMigration, insertEmail, messageId, sentUsageMigration } from './store.js';
import { parseAddress } from './addresses.js';
import { domainIdByName } from '../domains/service.js';

export const emailsModule: ResourceModule = {
  name: 'emails',
  migrations: [emailsMigration, emailContactMigration, emailEventsColumnMigration, sentUsageMigration],
  operations: { ...emailOperations, 'emails/metrics': metrics },
  jobs: [emailSendJob, emailDeliverJob, emailComplainJob],
  /**
   * `fixtures.emails`: `[{id, team_id, from, to, subject, html?, text?, cc?, bcc?, reply_to?, tags?,
   * created_at (ISO), events: [{type, at (ISO)}]}]`; `last_event` is the last event's type.
   * No webhooks are raised and no jobs scheduled for them.
   */
  seed(ctx, fixtures, db) {
    const arr = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(Array.isArray(v) ? v : [v]));
    for (const e of fixtures.emails ?? []) {
      const created = e.created_at ? Date.parse(e.created_at) : ctx.clock.nowMs();
      const events: { type: string; at: string }[] = e.events ?? [{ type: 'delivered', at: e.created_at }];
      const domain = parseAddress(e.from)?.domain ?? 'example.com';
      insertEmail(ctx, {
        id: e.id, team_id: e.team_id, message_id: e.message_id ?? messageId(String(e.id), created, domain), from_addr: e.from,
        to_addrs: JSON.stringify(Array.isArray(e.to) ? e.to : [e.to]), cc: arr(e.cc), bcc: arr(e.bcc), reply_to: arr(e.reply_to),
        subject: e.subject, html: e.html ?? null, text: e.text ?? (e.html ? htmlToText(e.html) : null), headers: null,
        tags: e.tags ? JSON.stringify(e.tags) : null, last_event: events[events.length - 1]?.type ?? 'delivered', scheduled_at: null,
        created_at: created, source: 'api', domain_id: domainIdByName(ctx, e.team_id, domain), broadcast_id: null, template_id: null, topic_id: null, automation_run_id: null, contact_id: null,
        events: JSON.stringify(events.map((ev) => ({ type: ev.type, at: ev.at ? Date.parse(ev.at) : created }))),
      });
    }
  },
};
