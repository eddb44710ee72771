/**
 * The wire shapes of the inboxes resource (resend@6.38 `dist/index.d.mts`
 * types, named on each function) and the `inbox.*` webhook `data`
 * (`WebhookEventPayload`: `InboxEventData`, `InboxThreadEventData`, …).
 * Timestamps are ISO 8601 with `Z` (docs/reference/inboxes.md#objects; docs/reference/inboxes.md#other-answers).
 */
import type { Emulator } from '../../context.js';
import { emitEvent, type EventType } from '../../deliveries/emit.js';
import { isoTime } from '../../http/format.js';
import type { SchemaOf } from '../../http/document-types.js';
import { attachmentMetaOfEmails, emailsByIds, list } from '../emails/service.js';
import { threadEmails, type ThreadEmail } from './thread-emails.js';
import {
  findThread,
  findAgent,
  inboxCounts,
  listDrafts,
  listInboxes,
  listLabels,
  listThreads,
  threadHasDraft,
  threadLabels,
  threadMessages,
  type DraftRow,
  type InboxRow,
  type LabelRow,
  type MessageRow,
  type StoredAttachment,
  type ThreadRow,
} from './store.js';
import type { InboxThreadFilter, InboxThreadView } from '../../public-types.js';

/** Who made a change (SDK `InboxEventSource`; docs/reference/inboxes.md#webhook-events mapping). */
export type InboxEventSource = 'api' | 'dashboard' | 'agent' | 'system';

const iso = (ms: number): string => isoTime(ms)!;

/** SDK `Inbox` (list item). */
export function toInboxItem(ctx: Emulator, r: InboxRow) {
  const c = inboxCounts(ctx, r.id);
  return {
    id: r.id,
    name: r.name,
    email_address: r.email_address,
    from_name: r.from_name,
    unread: c.unread,
    last_received: c.lastReceived === null ? null : iso(c.lastReceived),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** SDK `GetInboxResponseSuccess` (also `data.inbox` of `inbox.created` / `inbox.updated`). */
export function toInboxDetail(ctx: Emulator, r: InboxRow) {
  const c = inboxCounts(ctx, r.id);
  return {
    object: 'inbox' as const,
    id: r.id,
    name: r.name,
    email_address: r.email_address,
    domain_id: r.domain_id,
    receiving_address: r.receiving_address,
    from_name: r.from_name,
    unread: c.unread,
    drafts: c.drafts,
    last_received: c.lastReceived === null ? null : iso(c.lastReceived),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** SDK `InboxLabel`. */
export function toLabel(r: LabelRow) {
  return { id: r.id, name: r.name, color: r.color, created_at: iso(r.created_at) };
}

/** SDK `InboxThreadLabel`. */
export function toThreadLabel(r: LabelRow) {
  return { id: r.id, name: r.name, color: r.color };
}

/** SDK `InboxThreadLabelList`: the thread's labels. */
export function threadLabelList(ctx: Emulator, threadId: string) {
  return { object: 'list' as const, data: threadLabels(ctx, threadId).map(toThreadLabel) };
}

/** SDK `InboxThreadSummary`. `read`: every email read. `messages`: the thread's rows oldest first, when the caller has read them. */
export function toThreadSummary(ctx: Emulator, t: ThreadRow, messages: MessageRow[] = threadMessages(ctx, t.id)) {
  return {
    object: 'inbox_thread' as const,
    id: t.id,
    subject: t.subject,
    folder: t.folder,
    labels: threadLabels(ctx, t.id).map(toThreadLabel),
    read: messages.every((m) => m.read === 1),
  };
}

/**
 * SDK `InboxThread` (list item): `from/to/cc/bcc` and `received_at` of the
 * most recent email (docs/reference/inboxes.md#threading). `messages`: the thread's rows
 * oldest first, when the caller has read them.
 */
export function toThreadItem(ctx: Emulator, t: ThreadRow, messages: MessageRow[] = threadMessages(ctx, t.id)) {
  const emails = threadEmails(ctx, messages, false);
  const last = emails[emails.length - 1];
  return {
    id: t.id,
    subject: t.subject,
    from: last?.from ?? null,
    to: last?.to ?? [],
    cc: last?.cc ?? [],
    bcc: last?.bcc ?? [],
    labels: threadLabels(ctx, t.id).map(toThreadLabel),
    email_count: emails.length,
    has_attachment: emails.some((m) => m.attachments.length > 0),
    has_draft: threadHasDraft(ctx, t.id),
    read: messages.every((m) => m.read === 1),
    received_at: iso(last?.received_at ?? t.created_at),
    folder: t.folder,
  };
}

/** SDK `InboxMessage` of a thread email (`threadEmails`; read with bodies for `html`/`text`). */
export function toMessage(m: ThreadEmail) {
  return {
    id: m.id,
    direction: m.direction,
    from: m.from,
    to: m.to,
    cc: m.cc,
    bcc: m.bcc,
    reply_to: m.reply_to,
    subject: m.subject,
    message_id: m.message_id,
    html: m.html,
    text: m.text,
    attachments: m.attachments.map((a) => ({ id: a.id, filename: a.filename, size: a.size })),
    read: m.read,
    received_at: iso(m.received_at),
  };
}

/** SDK `InboxEventEmail` = `Omit<InboxMessage, 'html' | 'text'>`. */
export function toEventEmail(m: ThreadEmail) {
  const { html: _html, text: _text, ...rest } = toMessage(m);
  return rest;
}

/** SDK `InboxDraftAttachment` of a draft's file (`size` in bytes, 0 for a `path` one). */
function toDraftAttachment(a: { id: string; filename: string | null; content_type: string; size: number | null }) {
  return { id: a.id, filename: a.filename ?? a.id, content_type: a.content_type, size: a.size ?? 0 };
}

/** The draft's stored attachments (an unsent draft's; a sent draft's files are its email's). */
export function attachmentsOfDraft(d: Pick<DraftRow, 'attachments'>): StoredAttachment[] {
  return JSON.parse(d.attachments) as StoredAttachment[];
}

/**
 * SDK `InboxDraft`. An unsent draft is its own row; a sent one (`email_id`
 * set) keeps its fields but its `html`, `text` and `attachments` are read
 * from the email it became (one fact, one row: never a copy).
 */
export function toDraft(ctx: Emulator, d: DraftRow) {
  let html = d.html;
  let text = d.text;
  let attachments = attachmentsOfDraft(d).map(toDraftAttachment);
  if (d.email_id !== null) {
    const email = emailsByIds(ctx, [d.email_id], true)[0];
    html = email?.html ?? null;
    text = email?.text ?? null;
    attachments = attachmentMetaOfEmails(ctx, [d.email_id]).map((a) => toDraftAttachment({ ...a, size: a.path !== null ? 0 : a.size }));
  }
  return {
    object: 'inbox_draft' as const,
    id: d.id,
    type: d.type,
    to: d.to_addrs === null ? null : list(d.to_addrs),
    cc: list(d.cc),
    bcc: list(d.bcc),
    subject: d.subject,
    html,
    text,
    thread_id: d.thread_id,
    reply_to_email_id: d.reply_to_email_id,
    email_id: d.email_id,
    created_at: iso(d.created_at),
    updated_at: iso(d.updated_at),
    attachments,
  };
}

/** SDK `InboxEventDraft` = `Omit<InboxDraft, 'html' | 'text'>`. */
export function toEventDraft(ctx: Emulator, d: DraftRow) {
  const { html: _html, text: _text, ...rest } = toDraft(ctx, d);
  return rest;
}

/** A short preview of a draft's body (SDK `InboxDraftListItem.snippet`): its text, or its html without tags, first 100 characters. */
function snippetOf(d: DraftRow): string | null {
  const body = d.text ?? (d.html ? d.html.replace(/<[^>]*>/g, ' ') : null);
  if (body === null) return null;
  const s = body.replace(/\s+/g, ' ').trim();
  return s ? s.slice(0, 100) : null;
}

/** SDK `InboxDraftListItem`. */
export function toDraftItem(d: DraftRow) {
  return {
    id: d.id,
    type: d.type,
    to: d.to_addrs === null ? null : list(d.to_addrs),
    cc: list(d.cc),
    bcc: list(d.bcc),
    subject: d.subject,
    snippet: snippetOf(d),
    thread_id: d.thread_id,
    reply_to_email_id: d.reply_to_email_id,
    updated_at: iso(d.updated_at),
    attachments: attachmentsOfDraft(d).map(toDraftAttachment),
  };
}

/** Raises an `inbox.*` event with `{source, inbox_id, ...data}` (built only when some webhook listens). */
export function emitInboxEvent(ctx: Emulator, inbox: InboxRow, type: EventType, source: InboxEventSource, data: () => Record<string, unknown> = () => ({})): void {
  emitEvent(ctx, inbox.team_id, type, () => ({ source, inbox_id: inbox.id, ...data() }));
}

/** `thread_id` and `thread` (SDK `InboxThreadEventData`) of a thread, as it is now. */
export function threadEventData(ctx: Emulator, inboxId: string, threadId: string): Record<string, unknown> {
  const t = findThread(ctx, inboxId, threadId);
  return t ? { thread_id: t.id, thread: toThreadSummary(ctx, t) } : { thread_id: threadId };
}

/**
 * Every thread of every inbox (of `filter`), most recently active first per
 * inbox, with its emails oldest first: `{inbox_id, inbox_address, team_id,
 * ...InboxThreadSummary, assignee_email, emails: InboxMessage[]}`. The
 * `emu.inboxThreads()` helper.
 */
export function inboxThreadViews(ctx: Emulator, filter: InboxThreadFilter = {}): InboxThreadView[] {
  const want = filter.inbox?.toLowerCase();
  return listInboxes(ctx, filter.team_id)
    .filter((i) => want === undefined || i.id === filter.inbox || i.email_address.toLowerCase() === want)
    .flatMap((inbox) =>
      listThreads(ctx, inbox.id).map((t) => {
        const messages = threadMessages(ctx, t.id);
        return {
          inbox_id: inbox.id,
          inbox_address: inbox.email_address,
          team_id: inbox.team_id,
          ...toThreadSummary(ctx, t, messages),
          assignee_email: t.assignee_email,
          emails: threadEmails(ctx, messages, true).map(toMessage),
        };
      }),
    );
}

// The shapes are public (`emu.inboxThreads()`): declared in src/public-types.ts.
export type { InboxThreadFilter, InboxThreadView };

/**
 * One team's inboxes for the dashboard (`GET /_emulator/teams/{id}/inboxes`):
 * each inbox (`GetInboxResponseSuccess`) with its labels, agent settings,
 * threads (`InboxThread` + `assignee_email`, emails oldest first) and
 * `draft_list` (`InboxDraft`, sent ones included), oldest inbox first.
 */
export function inboxesDashboard(ctx: Emulator, teamId: string) {
  return listInboxes(ctx, teamId).map((inbox) => {
    const { instructions, tone, actions } = agentSettings(ctx, inbox);
    return {
      ...toInboxDetail(ctx, inbox),
      labels: listLabels(ctx, inbox.id).map(toLabel),
      agent: { instructions, tone, actions },
      threads: listThreads(ctx, inbox.id).map((t) => {
        const messages = threadMessages(ctx, t.id);
        return { ...toThreadItem(ctx, t, messages), assignee_email: t.assignee_email, emails: threadEmails(ctx, messages, true).map(toMessage) };
      }),
      draft_list: listDrafts(ctx, inbox.id).map((d) => toDraft(ctx, d)),
    };
  });
}

/** SDK `InboxAgentSettings` (spec `InboxAgentSettings`). */
export type AgentSettings = SchemaOf<'InboxAgentSettings'>;

/** The agent settings (SDK `InboxAgentSettings`); never configured: `null`, `null`, `[]` (docs/reference/inboxes.md#agent-settings). */
export function agentSettings(ctx: Emulator, inbox: InboxRow): AgentSettings {
  const a = findAgent(ctx, inbox.id);
  return {
    object: 'inbox_agent',
    instructions: a?.instructions ?? null,
    tone: (a?.tone ?? null) as AgentSettings['tone'],
    actions: a ? (JSON.parse(a.actions) as AgentSettings['actions']) : [],
  };
}
