/**
 * The shapes of the public API (src/index.ts and the test-framework
 * entries): what the helpers of `startServer()` / `createApp()` take and
 * give. Declared here, apart from the code that makes them, and importing
 * only types of express (the app) and of the generated document
 * (src/generated/openapi.ts), so the package's published declarations
 * reach no internal module: a user's compiler, with `skipLibCheck: false`,
 * needs none of the type packages of the store, the uploads or the
 * validator (test/package/pack.test.ts). The rooms that make these shapes
 * re-export them from here.
 */
import type { Express } from 'express';
import type { components } from './generated/openapi.js';

/**
 * The express 5 application of an emulator (`createApp().app`,
 * `startServer().app`): users mount it in their own express server
 * (docs/express-app.md), so its type is express's own.
 */
export type EmulatorApp = Express;

/** What an advance ran: job type and due time (ms), in run order. */
export interface FiredJob {
  id: number;
  type: string;
  due_at: number;
}

/** A stage of an SMTP session at which a rule may answer (`beforeStage` in src/smtp/server.ts). */
export type SmtpStage = 'connect' | 'auth' | 'mail' | 'rcpt' | 'data';

/** How a matching sent email ends (outcome rules). */
export type EmailOutcome = 'delivery_delayed' | 'failed' | 'bounced';

/** A rule as given to `POST /_emulator/faults`, `emu.faults.add()` or a `--faults` file (schema `FaultInput`). */
export interface FaultInput {
  /** An operationId (`emails/send`) or `METHOD /path` (`POST /emails`); omitted: every public operation. */
  operation?: string;
  /** Only this team's requests, SMTP sessions (from `mail` on) or emails. */
  team_id?: string;
  /** HTTP status (400-599) of an API rule, or SMTP code of an SMTP rule. */
  status?: number;
  /** The error's `name` (an API rule). */
  name?: string;
  /** The error's `message`, or the SMTP reply's text. */
  message?: string;
  /** Wall-clock delay before answering, ms (0-300 000). */
  latency_ms?: number;
  /** Chance to fire for each matching request, 0..1 (default 1). */
  probability?: number;
  /** Seed of the rule's generator (default 0). */
  seed?: number;
  /** Fires at most this often (default: no limit). */
  times?: number;
  /** Makes an SMTP rule: the stage it answers. */
  smtp?: SmtpStage;
  /** Makes an outcome rule: how matching emails end. */
  outcome?: EmailOutcome;
  /** Outcome rules: a recipient (to, cc, bcc) must contain this, case-insensitive. */
  to?: string;
  /** Outcome `failed`: the `failed.reason` (default `reached_daily_quota`). */
  reason?: string;
}

/** A rule as listed (schema `FaultRule`): every field, null where unset, and `fired`. */
export interface FaultRule {
  object: 'fault';
  id: string;
  kind: 'api' | 'smtp' | 'outcome';
  /** As given; null: every operation of the public API. */
  operation: string | null;
  /** The operationId `operation` names. */
  operation_id: string | null;
  team_id: string | null;
  /** HTTP status or SMTP code answered; null for a latency-only API rule and for outcome rules. */
  status: number | null;
  name: string | null;
  message: string | null;
  latency_ms: number;
  probability: number;
  seed: number;
  times: number | null;
  smtp: SmtpStage | null;
  outcome: EmailOutcome | null;
  to: string | null;
  reason: string | null;
  /** How often the rule fired so far. */
  fired: number;
}

/** A sent email with everything a test may want to check. Times ISO 8601 (emulated). */
export interface AdminEmail {
  id: string;
  team_id: string;
  message_id: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: string[];
  subject: string;
  html: string | null;
  text: string | null;
  /** Custom headers given at send, name → value. */
  headers: Record<string, string>;
  attachments: { id: string; filename: string | null; content_type: string; content_id: string | null; size: number }[];
  tags: { name: string; value: string }[];
  last_event: string;
  created_at: string;
  scheduled_at: string | null;
  /** Every step, oldest first (`queued`, `scheduled`, `sent`, `delivered`, `opened`, ...). */
  events: { type: string; at: string }[];
  /** http(s) URLs found in the html (`href`s and bare) and the text, in order, without repeats. */
  links: string[];
  /** One-time codes in the subject, text and HTML's text, in order, without repeats (rule: src/admin/codes.ts, docs/sending.md#one-time-codes-codes). */
  codes: string[];
  broadcast_id: string | null;
  template_id: string | null;
}

/** Filters of `listEmails`, all optional, combined with AND. */
export interface EmailFilter {
  /** Substring of any recipient (to, cc or bcc), case-insensitive. */
  to?: string;
  /** Substring of the sender, case-insensitive. */
  from?: string;
  /** Substring of the subject, case-insensitive. */
  subject?: string;
  /** A tag: `name` (any value) or `name:value`. */
  tag?: string;
  team_id?: string;
  last_event?: string;
  /** Search language (`from:` `to:` `subject:` `tag:` `has:attachment` `is:` `before:` `after:`, quotes, `-term`; src/admin/search.ts). */
  q?: string;
}

/** A delivery's status, as the document's `WebhookDelivery` names them (`pending`, `succeeded`, `failed`, `recorded`, `cancelled`). */
export type DeliveryStatus = components['schemas']['WebhookDelivery']['status'];

/** One attempt at a delivery. Times: ISO 8601 (emulated `at`, wall-clock `wall_time`). */
export interface DeliveryAttempt {
  /** `atmpt_…`. */
  id: string;
  /** Emulated time of the attempt. */
  at: string;
  /** Wall-clock time the request started (the signature's time). */
  wall_time: string;
  /** HTTP status answered, or null when none came (timeout, refused, record mode). */
  status_code: number | null;
  /** Why the attempt failed (non-2xx, timeout, network error), or null on success. */
  error: string | null;
  /** Wall-clock duration of the request, ms. */
  duration_ms: number;
  /** The endpoint the attempt went to (the webhook's endpoint at that moment). */
  endpoint: string | null;
  /** The endpoint's response body (first 4 096 characters), or null. */
  response: string | null;
  /** Headers sent (svix-id, svix-timestamp, svix-signature, content-type, user-agent). */
  headers: Record<string, string>;
  /** True for an attempt made by a replay rather than the retry schedule. */
  replay: boolean;
}

/** A recorded delivery: the exact payload sent, its headers and attempts. */
export interface WebhookDelivery {
  /** The `svix-id` (`msg_…`), the same on every attempt. */
  id: string;
  team_id: string;
  webhook_id: string;
  event_type: string;
  /** Parsed payload `{type, created_at, data}`. */
  payload: { type: string; created_at: string; data: Record<string, any> };
  /** The raw body, as signed and sent. */
  body: string;
  /** Headers of the latest attempt, or null before the first. */
  headers: Record<string, string> | null;
  /** `pending` | `succeeded` | `failed` | `recorded` | `cancelled`. */
  status: DeliveryStatus;
  created_at: string;
  /** When the next scheduled attempt is due (emulated), or null. */
  next_attempt_at: string | null;
  /** Attempts oldest first. */
  attempts: DeliveryAttempt[];
}

/** Filters: all optional, combined with AND. */
export interface DeliveryFilter {
  team_id?: string;
  webhook_id?: string;
  event_type?: string;
  status?: string;
}

/** Filter of `emu.inboxThreads()`: the inbox (id or address, case-insensitive) and/or the team. */
export interface InboxThreadFilter {
  inbox?: string;
  team_id?: string;
}

/**
 * One thread as `emu.inboxThreads()` gives it (src/resources/inboxes/shapes.ts
 * `inboxThreadViews`): the thread summary (SDK `InboxThreadSummary`), its
 * inbox and team, its assignee, and its emails oldest first (SDK `InboxMessage`).
 */
export type InboxThreadView = components['schemas']['InboxThreadSummary'] & {
  inbox_id: string;
  inbox_address: string;
  team_id: string;
  assignee_email: string | null;
  emails: components['schemas']['InboxMessage'][];
};
