/**
 * CONTRACT between modules (owned by the emails module; others call it):
 * how any part of the emulator sends an email. Broadcasts and automation
 * `send_email` steps call `sendEmail`; the API's POST /emails and
 * /emails/batch are built on it too.
 */
import type { Emulator } from '../../context.js';

/** The body of POST /emails (API-FACTS §5.1). */
export interface SendEmailInput {
  from?: string;
  to: string | string[];
  subject?: string;
  cc?: string | string[];
  bcc?: string | string[];
  reply_to?: string | string[];
  html?: string;
  text?: string;
  headers?: Record<string, string>;
  tags?: { name: string; value: string }[];
  attachments?: { content?: string; filename?: string; path?: string; content_type?: string; content_id?: string }[];
  /** ISO 8601 or natural language (`in 1 min`). */
  scheduled_at?: string;
  /** A published template (id or alias) with variables, instead of html/text. */
  template?: { id: string; variables?: Record<string, string | number | boolean> };
  topic_id?: string;
}

/** Who sends, and why. */
export interface SendContext {
  teamId: string;
  /** Domain a `sending_access` key is restricted to (403 from any other). */
  restrictDomainId?: string | null;
  source: 'api' | 'batch' | 'broadcast' | 'automation';
  broadcastId?: string | null;
  automationRunId?: string | null;
}

/**
 * Validates and records an email, and schedules its lifecycle on the clock
 * (queued/scheduled → sent → delivered | bounced | ...), raising the email.*
 * webhook events. Synchronous: may run inside the caller's transaction.
 * Returns the new email's id. Throws `ApiError` with the real service's
 * status and name for every rejected input (unverified `from` domain 403
 * `validation_error`, missing template variable 422, ...).
 */
export function sendEmail(ctx: Emulator, input: SendEmailInput, sc: SendContext): { id: string } {
  void ctx; void input; void sc;
  throw new Error('sendEmail: being built by the emails module');
}

/**
 * The emails a broadcast produced, oldest first
 * (for GET /broadcasts/{id}/recipients and clicked links).
 */
export function emailsOfBroadcast(ctx: Emulator, broadcastId: string): { id: string; to: string[]; last_event: string; created_at: number; clicks: { link: string; at: number }[] }[] {
  void ctx; void broadcastId;
  throw new Error('emailsOfBroadcast: being built by the emails module');
}
