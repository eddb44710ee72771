/**
 * Sent emails (docs/reference/resources.md#emails; docs/reference/resources.md#batch-sends; docs/reference/webhooks.md; docs/reference/test-addresses.md; docs/reference/interface-spec.md#sent-email). Files: `send.ts` (the CONTRACT `sendEmail`, its rules),
 * `jobs.ts` (clock jobs), `store.ts` (tables, shapes, webhook data),
 * `operations.ts` (handlers), `metrics.ts`, `addresses.ts`.
 * | operationId | rule |
 * |---|---|
 * | emails/send | body of docs/reference/resources.md#emails (rules in `send.ts`); `Idempotency-Key`; open to `sending_access` keys → `{id}`; starts `queued` (or `scheduled` + `email.scheduled`) |
 * | emails/send-legacy | `POST /email`, the 0.x SDKs' path: the `emails/send` handler (docs/reference/transport.md#the-0x-sdks-path-email) |
 * | emails/send-batch | array of 1..100 send bodies without `attachments`; `x-batch-validation: strict` (all or nothing) or `permissive` (`errors: [{index, message}]`); `Idempotency-Key` → `{data: [{id}]}` in input order |
 * | emails/list | the team's sent emails, newest first, `limit` default 20; items of docs/reference/interface-spec.md#sent-email (unset cc/bcc/reply_to `null`) |
 * | emails/get | `object: "email"` + html, text, tags, topic_id (unset lists `[]`); another team's → 404 `Email not found` |
 * | emails/update | `{scheduled_at}` on a `scheduled` email → `{object: "email", id}`; otherwise 422 `validation_error` |
 * | emails/cancel | `scheduled` → `canceled` (final) → `{object: "email", id}`; otherwise 422 |
 * | emails/share | `{expires_in}` ≤ 48 h (default 48 h) → `{object: "email", id, url}` |
 * | emails/list-attachments, emails/get-attachment | `{id, filename, content_type, content_id, content_disposition, download_url, expires_at, size}`; `download_url` = the admin API's download (or the `path` given) |
 * | emails/metrics | counts and rates over `start_date`..`end_date` (default the last 6 days), breakdown by `dimensions` (see `metrics.ts`) |
 * Lifecycle jobs `emails.send`, `emails.deliver`, `emails.complain` (and `emails.send-many`, `emails.deliver-many` for a broadcast's batch): see `jobs.ts`.
 */
import type { OperationHandlers } from '../../http/document-types.js';
import type { ResourceModule } from '../../module.js';
import { emailOperations, quotaReplayHeaders } from './handlers.js';
import { metrics } from './metrics.js';
import { emailComplainJob, emailDeliverJob, emailDeliverManyJob, emailSendJob, emailSendManyJob } from './jobs.js';
import { recordImportedSends, tables } from './store.js';
import { seedEmail } from './seed.js';

export const emailsModule: ResourceModule = {
  name: 'emails',
  tables,
  // 0.x kept each email's history in a table of its own (1.0: the email's `events`).
  droppedAtBaseline: ['email_events'],
  operations: { ...emailOperations, 'emails/metrics': metrics } satisfies OperationHandlers,
  jobs: [emailSendJob, emailDeliverJob, emailComplainJob, emailSendManyJob, emailDeliverManyJob],
  // An idempotent replay sends nothing; its quota headers are those of now (src/http/idempotency.ts).
  replayHeaders: { 'emails/send': quotaReplayHeaders, 'emails/send-legacy': quotaReplayHeaders, 'emails/send-batch': quotaReplayHeaders },
  /**
   * `fixtures.emails`: `[{id, team_id, from, to, subject, html?, text?, cc?, bcc?, reply_to?, tags?,
   * created_at (ISO), events: [{type, at (ISO)}]}]` (`seedEmail`).
   */
  seed(ctx, fixtures) {
    for (const e of fixtures.emails ?? []) seedEmail(ctx, e);
  },
  // A snapshot's emails go in as rows, not through `insertEmail`: they are recorded in the usage ledger from them.
  imported: recordImportedSends,
};
