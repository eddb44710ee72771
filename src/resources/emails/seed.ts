/**
 * Emails of the fixtures file: stored as sent, with the history they give,
 * no webhooks raised and no jobs scheduled (the emails module's seed, and
 * the sent thread emails of a seeded inbox).
 */
import type { Emulator } from '../../context.js';
import { domainIdByName } from '../domains/service.js';
import { parseAddress } from './addresses.js';
import { insertEmail, messageId, type EmailRow } from './store.js';
import { htmlToText } from './text.js';
import type { SchemaOf } from '../../http/document-types.js';

/** One email of the fixtures file (docs/fixtures.md). Times are ISO 8601. */
export interface FixtureEmail {
  id: string;
  team_id: string;
  from: string;
  to: string | string[];
  subject: string;
  html?: string | null;
  text?: string | null;
  cc?: string | string[] | null;
  bcc?: string | string[] | null;
  reply_to?: string | string[] | null;
  tags?: { name: string; value: string }[];
  message_id?: string | null;
  headers?: Record<string, string> | null;
  created_at?: string;
  /** Default: one `delivered` at `created_at`; `last_event` is the last one's type. */
  events?: { type: SchemaOf<'LastEvent'>; at?: string }[];
}

/**
 * Stores one fixtures email (`text` made from `html` when absent, as a send
 * does; Message-ID `messageId()` unless given). Returns the row. Throws the
 * SQLite error of a duplicate id.
 */
export function seedEmail(ctx: Emulator, e: FixtureEmail): EmailRow {
  const arr = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(Array.isArray(v) ? v : [v]));
  const created = e.created_at ? Date.parse(e.created_at) : ctx.clock.nowMs();
  const events = e.events ?? [{ type: 'delivered', at: e.created_at }];
  const domain = parseAddress(e.from)?.domain ?? 'example.com';
  return insertEmail(ctx, {
    id: e.id, team_id: e.team_id, message_id: e.message_id ?? messageId(String(e.id), created, domain), from_addr: e.from,
    to_addrs: JSON.stringify(Array.isArray(e.to) ? e.to : [e.to]), cc: arr(e.cc), bcc: arr(e.bcc), reply_to: arr(e.reply_to),
    subject: e.subject, html: e.html ?? null, text: e.text ?? (e.html ? htmlToText(e.html) : null),
    headers: e.headers && Object.keys(e.headers).length ? JSON.stringify(e.headers) : null,
    tags: e.tags ? JSON.stringify(e.tags) : null, last_event: events[events.length - 1]?.type ?? 'delivered', scheduled_at: null,
    created_at: created, source: 'api', domain_id: domainIdByName(ctx, e.team_id, domain), broadcast_id: null, template_id: null, topic_id: null, automation_run_id: null, contact_id: null,
    events: JSON.stringify(events.map((ev) => ({ type: ev.type, at: ev.at ? Date.parse(ev.at) : created }))),
  });
}
