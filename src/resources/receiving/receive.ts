/**
 * Taking in one message (the admin API's `POST /_emulator/inbound`):
 * routing each envelope recipient to the team whose domain receives mail
 * for it, storing one received email per team, raising `email.received`.
 */
import type { Emulator } from '../../context.js';
import { receivingTeamOf } from '../domains/service.js';
import { receivingMessages } from './messages.js';
import { isoTime, newId } from '../../http/format.js';
import { emitEvent } from '../../deliveries/emit.js';
import { buildMime, givenParts, messageIdOf, parseAddressField, parseMessage, type InboundJson, type ParsedMessage } from './mime.js';
import { attachmentsOf, findEmail, insertReceivedAttachment, insertReceivedEmail, setReceivedRaw, type ReceivedEmailRow } from './store.js';

/** One stored copy: the email id, its team, and the team's recipients. */
export interface ReceivedCopy {
  id: string;
  team_id: string;
  received_for: string[];
}

/**
 * The team that receives mail for `domain` (the domains resource's
 * `receivingTeamOf`): case-insensitive exact name, a domain row with `capabilities.receiving = "enabled"` (docs/reference/interface-spec.md#domain:
 * capabilities); a verified one wins over others, then the oldest.
 * Verification is not required (mail follows the MX record, not the
 * dashboard status). `null` when no team receives for it.
 */
export function receivingTeam(ctx: Emulator, domain: string): string | null {
  return receivingTeamOf(ctx, domain);
}

function uniqueCi(list: string[]): string[] {
  const seen = new Set<string>();
  return list.filter((a) => {
    const k = a.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** `email.received` data (docs/reference/webhooks.md#envelope-and-data: no body, no headers; `from` bare). */
function eventData(id: string, createdAt: number, m: ParsedMessage, bcc: string[], receivedFor: string[], attachmentIds: string[]) {
  return {
    email_id: id,
    created_at: isoTime(createdAt),
    from: m.fromAddress,
    to: m.to,
    cc: m.cc,
    bcc,
    received_for: receivedFor,
    message_id: m.messageId,
    subject: m.subject,
    attachments: m.attachments.map((a, i) => ({
      id: attachmentIds[i],
      filename: a.filename,
      content_type: a.contentType,
      content_disposition: a.disposition,
      content_id: a.contentId,
    })),
  };
}

/**
 * Parses `raw` and stores it for every team that receives mail for one of
 * its recipients: `envelope` (RCPT TO) when given, else the To, Cc and Bcc
 * addresses of the message. Each copy gets `received_for` = that team's
 * recipients and `bcc` = the Bcc header plus those recipients not in To/Cc.
 * All copies, their attachments and `email.received` events are written in
 * one transaction, with each copy filed in the team's inboxes it was
 * addressed to (`ctx.inboxes.fileReceived`: threads, `inbox.*` events); then `ctx.bus` emits `'inbound'` with each email id.
 * Throws 422 `validation_error` when there is no recipient or no recipient
 * domain receives mail (the message names the domains), or the message has
 * no From address. `given`: body and attachments to store instead of the
 * parsed ones (the JSON form of the admin inbound, see `givenParts`).
 */
export async function receiveMessage(ctx: Emulator, raw: Buffer, envelope?: string[], given?: Pick<ParsedMessage, 'html' | 'text' | 'attachments'>): Promise<ReceivedCopy[]> {
  const m = { ...(await parseMessage(raw)), ...given };
  const recipients = uniqueCi(envelope ?? [...m.to, ...m.cc, ...m.bcc]);
  if (recipients.length === 0) throw receivingMessages.noRecipients();

  const byTeam = new Map<string, string[]>();
  const unrouted: string[] = [];
  for (const address of recipients) {
    const domain = address.split('@').pop()!.toLowerCase();
    // An inbox's `receiving_address` (created with `forwarding: true`) receives for the inbox's team.
    const team = receivingTeam(ctx, domain) ?? ctx.inboxes.forwardingTeamOf(ctx, address);
    if (!team) {
      if (!unrouted.includes(domain)) unrouted.push(domain);
      continue;
    }
    byTeam.set(team, [...(byTeam.get(team) ?? []), address]);
  }
  if (byTeam.size === 0) {
    throw receivingMessages.notReceiving(unrouted);
  }

  const headerRecipients = new Set([...m.to, ...m.cc].map((a) => a.toLowerCase()));
  const rawB64 = raw.toString('base64');
  const now = ctx.clock.nowMs();
  const copies: ReceivedCopy[] = [];
  ctx.db.transaction(() => {
    for (const [teamId, receivedFor] of byTeam) {
      const id = newId();
      const bcc = uniqueCi([...m.bcc, ...receivedFor.filter((a) => !headerRecipients.has(a.toLowerCase()))]);
      insertReceivedEmail(ctx, {
        id, team_id: teamId, from_header: m.fromHeader, from_address: m.fromAddress, to_addresses: JSON.stringify(m.to), cc_addresses: JSON.stringify(m.cc),
        bcc_addresses: JSON.stringify(bcc), reply_to_addresses: JSON.stringify(m.replyTo), received_for: JSON.stringify(receivedFor), subject: m.subject,
        message_id: m.messageId, html: m.html, text: m.text, headers: JSON.stringify(m.headers), raw: rawB64, created_at: now,
      });
      const attachmentIds = m.attachments.map(() => newId());
      // Last part first, so that `ORDER BY seq DESC` (how paginate() lists) is message order.
      for (let i = m.attachments.length - 1; i >= 0; i--) {
        const a = m.attachments[i];
        insertReceivedAttachment(ctx, {
          id: attachmentIds[i], team_id: teamId, email_id: id, filename: a.filename, content_type: a.contentType, content_id: a.contentId,
          content_disposition: a.disposition, size: a.content.length, content: a.content.toString('base64'), created_at: now,
        });
      }
      emitEvent(ctx, teamId, 'email.received', eventData(id, now, m, bcc, receivedFor, attachmentIds));
      // Mail for an inbox address lands in that inbox as a thread email that is this email (same id, docs/reference/inboxes.md#inbound-identity), never a copy.
      ctx.inboxes.fileReceived(ctx, teamId, receivedFor, { id, subject: m.subject, messageId: m.messageId, headers: m.headers });
      copies.push({ id, team_id: teamId, received_for: receivedFor });
    }
  })();
  for (const c of copies) ctx.bus.emit('inbound', c.id);
  return copies;
}

/**
 * Stores one received email of the fixtures file synchronously (an inbox's
 * seeded thread email, docs/reference/inboxes.md#inbound-identity: inbox mail is a received
 * email): its body and attachments are `input`'s as given (`givenParts`),
 * `received_for` the given addresses, its Message-ID `messageIdOf(input)`.
 * Its raw message is not composed here but on its first read
 * (`receivedRaw`): the default fixtures hold such an email, and composing
 * it would load the MIME composer at every start-up.
 * Raises no event and files it in no inbox (the seed does).
 * Throws 422 `validation_error` for an invalid address field. Times in
 * emulated ms. Returns its Message-ID.
 */
export function storeReceivedEmail(ctx: Emulator, teamId: string, input: InboundJson, opts: { id: string; receivedFor: string[]; atMs: number }): { messageId: string } {
  const parts = givenParts(input);
  const from = parseAddressField('from', input.from);
  if (from.length !== 1) throw receivingMessages.notOneSender();
  const messageId = messageIdOf(input, from[0]);
  const bare = (field: string, v: string | string[] | undefined) => parseAddressField(field, v).map((a) => a.address);
  const fromHeader = from[0].name ? `${from[0].name} <${from[0].address}>` : from[0].address;
  ctx.db.transaction(() => {
    insertReceivedEmail(ctx, {
      id: opts.id, team_id: teamId, from_header: fromHeader, from_address: from[0].address, to_addresses: JSON.stringify(bare('to', input.to)),
      cc_addresses: JSON.stringify(bare('cc', input.cc)), bcc_addresses: JSON.stringify(bare('bcc', input.bcc)), reply_to_addresses: JSON.stringify(bare('reply_to', input.reply_to)),
      received_for: JSON.stringify(opts.receivedFor), subject: input.subject, message_id: messageId, html: parts.html, text: parts.text,
      headers: JSON.stringify(Object.fromEntries(Object.entries(input.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]))), raw: '', created_at: opts.atMs,
    });
      for (let i = parts.attachments.length - 1; i >= 0; i--) {
      const a = parts.attachments[i];
      insertReceivedAttachment(ctx, {
        id: newId(), team_id: teamId, email_id: opts.id, filename: a.filename, content_type: a.contentType, content_id: a.contentId,
        content_disposition: a.disposition, size: a.content.length, content: a.content.toString('base64'), created_at: opts.atMs,
      });
    }
  })();
  return { messageId };
}

/**
 * The raw message of a received email (its bytes). One stored without it
 * (`storeReceivedEmail`) is composed now from its row: From as stored, its
 * To, Cc and Reply-To addresses, subject, bodies, headers, Message-ID and
 * attachments, dated at its `created_at` (`buildMime`), and kept, so every
 * later read gives the same bytes (of two first reads at once, the first
 * kept wins). Rejects with 422 `validation_error` only for an address the
 * row could not hold (never for a stored email).
 */
export async function receivedRaw(ctx: Emulator, row: ReceivedEmailRow): Promise<Buffer> {
  if (row.raw !== '') return Buffer.from(row.raw, 'base64');
  const list = (json: string) => JSON.parse(json) as string[];
  const { raw } = await buildMime({
    from: row.from_header,
    to: list(row.to_addresses),
    cc: list(row.cc_addresses),
    reply_to: list(row.reply_to_addresses),
    subject: row.subject,
    ...(row.html !== null ? { html: row.html } : {}),
    ...(row.text !== null ? { text: row.text } : {}),
    message_id: row.message_id,
    headers: JSON.parse(row.headers) as Record<string, string>,
    attachments: attachmentsOf(ctx, row.id, true).map((a) => ({
      filename: a.filename ?? a.id,
      content: a.content,
      content_type: a.content_type,
      ...(a.content_id ? { content_id: a.content_id } : {}),
      ...(a.content_disposition ? { content_disposition: a.content_disposition } : {}),
    })),
  }, row.created_at);
  const kept = findEmail(ctx, row.id)?.raw;
  if (kept) return Buffer.from(kept, 'base64');
  setReceivedRaw(ctx, row.id, raw.toString('base64'));
  return raw;
}
