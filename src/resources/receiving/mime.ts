/**
 * MIME for inbound mail: `buildMime` composes a message from the admin API's
 * JSON fields with nodemailer's `MailComposer` (so every received email,
 * however it came in, has a raw `.eml` and goes through the one parser);
 * `parseMessage` reads a message with `postal-mime` into the fields the API
 * shows.
 */
import { randomBytes } from 'node:crypto';
import type MailComposerClass from 'nodemailer/lib/mail-composer';
import type MimeNode from 'nodemailer/lib/mime-node';
import type Mail from 'nodemailer/lib/mailer';
import { lazy, requirePackage } from '../../lazy.js';
import type { Address, Mailbox } from 'postal-mime';
import { receivingMessages } from './messages.js';
import { contentTypeOf } from '../../http/format.js';
import { isMailboxAddress } from '../../http/addresses.js';
import type { RequestBody } from '../../http/document-types.js';
// The bytes of `content` in the forms POST /emails takes (base64, byte values, a Buffer as JSON), decoded as a send decodes them.
import { attachmentBytes } from '../emails/service.js';

/** postal-mime, loaded on first use (start-up speed). */
const postalMime = lazy(() => requirePackage<typeof import('postal-mime')>('postal-mime'));
/** nodemailer's composer, loaded on first use (start-up speed). */
const MailComposer = lazy(() => requirePackage<typeof MailComposerClass>('nodemailer/lib/mail-composer'));

/** The JSON form of `POST /_emulator/inbound` (spec/paths/admin-inbound.yaml), as the document declares it. */
export type InboundJson = RequestBody<'admin/inbound'>;

/** One parsed attachment; `content` holds the decoded bytes. */
export interface ParsedAttachment {
  filename: string | null;
  contentType: string;
  contentId: string | null;
  disposition: 'inline' | 'attachment' | null;
  content: Buffer;
}

/** A parsed message. Address lists hold bare addresses. */
export interface ParsedMessage {
  /** From as written: `Name <a@b>` or `a@b`. */
  fromHeader: string;
  fromAddress: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  /** With angle brackets, e.g. `<abc@example.com>`; generated when the message has none. */
  messageId: string;
  html: string | null;
  text: string | null;
  /** Lower-case header name → its first value, RFC 2047 words decoded. */
  headers: Record<string, string>;
  attachments: ParsedAttachment[];
}

/** Bare addresses of an address list (groups flattened). */
function flatten(list: Address[] | undefined): Mailbox[] {
  const out: Mailbox[] = [];
  for (const a of list ?? []) {
    if (a.group) out.push(...a.group);
    else if (a.address) out.push(a as Mailbox);
  }
  return out;
}

/**
 * Parses one JSON address field (a string with one or more addresses, or an
 * array of them) into mailboxes. Throws 422 `validation_error` naming the
 * field when an entry holds no valid address (`isMailboxAddress`: display
 * names parsed off, hosts without a dot allowed).
 */
export function parseAddressField(field: string, value: string | string[] | undefined): Mailbox[] {
  if (value === undefined) return [];
  const entries = Array.isArray(value) ? value : [value];
  const out: Mailbox[] = [];
  for (const entry of entries) {
    const parsed = flatten(postalMime().addressParser(entry) as Address[]);
    if (parsed.length === 0 || parsed.some((m) => !isMailboxAddress(m.address))) {
      throw receivingMessages.invalidAddressEntry(field, entry);
    }
    out.push(...parsed);
  }
  return out;
}

/** A new Message-ID `<random@domain>` (docs/reference/formats.md#ids-and-tokens form), for a message that has none. */
function newMessageIdHeader(domain: string): string {
  return `<${randomBytes(12).toString('hex')}@${domain || 'emulator.local'}>`;
}

/**
 * The Message-ID of the JSON form (with angle brackets): `message_id`, else
 * a `Message-ID` of `headers` (any case), else a new one on the domain of
 * `from` (the sender, parsed).
 */
export function messageIdOf(input: InboundJson, from: Mailbox): string {
  const custom = Object.entries(input.headers ?? {}).find(([k]) => k.toLowerCase() === 'message-id')?.[1];
  return oneLine(input.message_id ?? custom ?? newMessageIdHeader(from.address.split('@').pop()!));
}

/** Header names `buildMime` writes from the other fields; custom headers with these names are ignored (Message-ID and Date are taken from them when not given otherwise). */
const STRUCTURAL = new Set(['from', 'to', 'cc', 'bcc', 'reply-to', 'subject', 'mime-version', 'content-type', 'content-transfer-encoding', 'message-id', 'date']);

/** An RFC 5322 field name: printable ASCII but `:` (RFC 5322 §2.2). */
const FIELD_NAME = /^[!-9;-~]+$/;

/** One line: a header value never carries a line break of its own (our choice; the parser would read a folded value back with it). */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

/** The `MailComposer` tree of the JSON form (see `buildMime`). Throws 422 `validation_error` for an invalid address field. */
function composeMime(input: InboundJson, dateMs: number): MimeNode {
  const from = parseAddressField('from', input.from);
  if (from.length !== 1) throw receivingMessages.notOneSender();
  const to = parseAddressField('to', input.to);
  const cc = parseAddressField('cc', input.cc);
  const replyTo = parseAddressField('reply_to', input.reply_to);
  const custom = Object.entries(input.headers ?? {});
  const customDate = custom.find(([k]) => k.toLowerCase() === 'date')?.[1];
  const mailbox = (m: Mailbox) => ({ name: m.name, address: m.address });
  const attachments: Mail.Attachment[] = (input.attachments ?? []).map((a) => ({
    filename: a.filename,
    content: attachmentBytes(a.content),
    contentType: oneLine(a.content_type ?? contentTypeOf(a.filename)),
    contentDisposition: a.content_disposition ?? (a.content_id ? 'inline' : 'attachment'),
    ...(a.content_id ? { cid: oneLine(a.content_id).replace(/^<|>$/g, '') } : {}),
  }));
  const composer = new (MailComposer())({
    from: mailbox(from[0]),
    to: to.map(mailbox),
    ...(cc.length ? { cc: cc.map(mailbox) } : {}),
    ...(replyTo.length ? { replyTo: replyTo.map(mailbox) } : {}),
    subject: oneLine(input.subject),
    // A custom Date header is written as given; else the emulated time.
    date: customDate !== undefined ? oneLine(customDate) : new Date(dateMs),
    messageId: messageIdOf(input, from[0]),
    headers: custom.filter(([k]) => FIELD_NAME.test(k) && !STRUCTURAL.has(k.toLowerCase())).map(([key, value]) => ({ key, value: oneLine(String(value)) })),
    ...(input.text !== undefined ? { text: input.text } : {}),
    ...(input.html !== undefined ? { html: input.html } : {}),
    ...(input.text === undefined && input.html === undefined ? { text: '' } : {}),
    attachments,
  });
  return composer.compile();
}

/**
 * Composes an RFC 5322 message from the JSON form with nodemailer's
 * `MailComposer` (CRLF line ends; text and HTML as `multipart/alternative`;
 * attachments with a `content_id` inline in `multipart/related` with the
 * HTML, the others `multipart/mixed`; nodemailer's transfer encodings:
 * 7bit, quoted-printable or base64 for text, base64 for attachments). Bcc is not
 * written (as in delivered mail); the caller keeps it as envelope
 * recipients. `dateMs` is emulated time, used unless `headers` gives a
 * Date. The Message-ID is `messageIdOf(input)`.
 * Resolves with the bytes and the Message-ID (with angle brackets).
 * Rejects with 422 `validation_error` for an invalid address field (and
 * otherwise only if nodemailer fails to encode).
 */
export async function buildMime(input: InboundJson, dateMs: number): Promise<{ raw: Buffer; messageId: string }> {
  const root = composeMime(input, dateMs);
  return { raw: await root.build(), messageId: root.messageId() };
}

/**
 * The body and attachments of the JSON form exactly as given, to store
 * instead of what a parse of `buildMime`'s output gives back: a MIME parser
 * reads an inline `text/plain` / `text/html` part (an attachment with a
 * `content_id`, or `content_disposition: "inline"`) as more body text, so
 * such attachments would be lost (nothing given may be
 * lost). Same defaults as `buildMime`: content type from the file name,
 * `inline` when a `content_id` is given; the content type is stored without
 * parameters and lower-cased, and `<…>` around a content id dropped, as the
 * parse does. Attachment `content` is base64, a byte array or a Buffer as JSON (shape checked by the spec).
 */
export function givenParts(input: InboundJson): Pick<ParsedMessage, 'html' | 'text' | 'attachments'> {
  return {
    html: input.html ?? null,
    text: input.text ?? (input.html === undefined ? '' : null),
    attachments: (input.attachments ?? []).map((a) => ({
      filename: a.filename,
      contentType: (a.content_type ?? contentTypeOf(a.filename)).split(';')[0].trim().toLowerCase(),
      contentId: a.content_id ? a.content_id.replace(/^<|>$/g, '') : null,
      disposition: a.content_disposition ?? (a.content_id ? 'inline' : 'attachment'),
      content: attachmentBytes(a.content),
    })),
  };
}

/**
 * Parses a raw message. Throws 422 `validation_error` when it has no
 * `From` address. A missing Message-ID is generated; a missing Subject is `""`.
 */
export async function parseMessage(raw: Buffer): Promise<ParsedMessage> {
  const email = await postalMime().default.parse(raw, { attachmentEncoding: 'arraybuffer' });
  const from = flatten(email.from ? [email.from] : [])[0];
  if (!from) throw receivingMessages.noFromAddress();
  const fromHeader = from.name ? `${from.name} <${from.address}>` : from.address;
  const headers: Record<string, string> = {};
  for (const h of email.headers) if (!(h.key in headers)) headers[h.key] = postalMime().decodeWords(h.value);
  return {
    fromHeader,
    fromAddress: from.address,
    to: flatten(email.to).map((m) => m.address),
    cc: flatten(email.cc).map((m) => m.address),
    bcc: flatten(email.bcc).map((m) => m.address),
    replyTo: flatten(email.replyTo).map((m) => m.address),
    subject: email.subject ?? '',
    messageId: email.messageId ?? newMessageIdHeader(from.address.split('@').pop()!),
    html: email.html ?? null,
    text: email.text ?? null,
    headers,
    attachments: email.attachments.map((a) => ({
      filename: a.filename ?? null,
      contentType: a.mimeType,
      contentId: a.contentId ? a.contentId.replace(/^<|>$/g, '') : null,
      disposition: a.disposition === 'inline' ? 'inline' : a.disposition === 'attachment' ? 'attachment' : null,
      content: typeof a.content === 'string' ? Buffer.from(a.content, 'utf8') : a.content instanceof ArrayBuffer ? Buffer.from(a.content) : Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength),
    })),
  };
}
