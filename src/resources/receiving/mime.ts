/**
 * MIME for inbound mail: `buildMime` writes a message from the admin API's
 * JSON fields (so every received email, however it came in, has a raw
 * `.eml` and goes through the one parser); `parseMessage` reads a message
 * with `postal-mime` into the fields the API shows.
 */
import { randomBytes } from 'node:crypto';
import { lazy, requirePackage } from '../../lazy.js';
import type { Address, Mailbox } from 'postal-mime';
import { receivingMessages } from './messages.js';
import { contentTypeOf } from '../../http/format.js';
// The bytes of `content` in the forms POST /emails takes (base64, byte values, a Buffer as JSON), decoded as a send decodes them.
import { attachmentBytes } from '../emails/service.js';

/** postal-mime, loaded on first use (start-up speed). */
const postalMime = lazy(() => requirePackage<typeof import('postal-mime')>('postal-mime'));

/** An attachment of `POST /_emulator/inbound` JSON (`content` base64, a byte array, or a Buffer as JSON). */
export interface InboundJsonAttachment {
  filename: string;
  content: string | number[] | { type: 'Buffer'; data: number[] };
  content_type?: string;
  content_id?: string;
  content_disposition?: 'inline' | 'attachment';
}

/** The JSON form of `POST /_emulator/inbound` (spec/paths/admin-inbound.yaml). */
export interface InboundJson {
  from: string;
  to: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
  reply_to?: string | string[];
  subject: string;
  html?: string;
  text?: string;
  headers?: Record<string, string>;
  message_id?: string;
  attachments?: InboundJsonAttachment[];
}

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

/** `local@domain`, nothing more (display names are parsed off first). */
const ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+$/;

/**
 * Parses one JSON address field (a string with one or more addresses, or an
 * array of them) into mailboxes. Throws 422 `validation_error` naming the
 * field when an entry holds no valid address.
 */
export function parseAddressField(field: string, value: string | string[] | undefined): Mailbox[] {
  if (value === undefined) return [];
  const entries = Array.isArray(value) ? value : [value];
  const out: Mailbox[] = [];
  for (const entry of entries) {
    const parsed = flatten(postalMime().addressParser(entry) as Address[]);
    if (parsed.length === 0 || parsed.some((m) => !ADDRESS.test(m.address))) {
      throw receivingMessages.invalidAddressEntry(field, entry);
    }
    out.push(...parsed);
  }
  return out;
}

const NON_ASCII = /[^\x20-\x7e]/;

/** RFC 2047 encoded word for non-ASCII header text; ASCII is left alone. */
function encodeWord(text: string): string {
  return NON_ASCII.test(text) ? `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=` : text;
}

function formatMailbox(m: Mailbox): string {
  if (!m.name) return m.address;
  const name = NON_ASCII.test(m.name) ? encodeWord(m.name) : `"${m.name.replace(/["\\]/g, '\\$&')}"`;
  return `${name} <${m.address}>`;
}

/** base64 folded at 76 characters (RFC 2045). */
function base64Lines(buf: Buffer): string {
  return (buf.toString('base64').match(/.{1,76}/g) ?? ['']).join('\r\n');
}

function headerSafe(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

function paramFilename(filename: string): string {
  return NON_ASCII.test(filename) || /["\\]/.test(filename)
    ? `filename*=UTF-8''${encodeURIComponent(filename)}`
    : `filename="${filename}"`;
}

/** A new Message-ID `<random@domain>` (docs/reference/formats.md#ids-and-tokens form). */
export function newMessageId(domain: string): string {
  return `<${randomBytes(12).toString('hex')}@${domain || 'emulator.local'}>`;
}

/** Header names `buildMime` writes itself; custom headers with these names are ignored (except Message-ID, Date). */
const STRUCTURAL = new Set(['from', 'to', 'cc', 'bcc', 'reply-to', 'subject', 'mime-version', 'content-type', 'content-transfer-encoding']);

/**
 * Writes an RFC 5322 message from the JSON form (CRLF line ends, UTF-8
 * parts in base64). Bcc is not written (as in delivered mail); the caller
 * keeps it as envelope recipients. `dateMs` is emulated time. Attachment
 * `content` is base64 (its pattern is checked by the spec).
 * Throws 422 `validation_error` for an invalid address field.
 */
export function buildMime(input: InboundJson, dateMs: number): string {
  const from = parseAddressField('from', input.from);
  if (from.length !== 1) throw receivingMessages.notOneSender();
  const to = parseAddressField('to', input.to);
  const cc = parseAddressField('cc', input.cc);
  const replyTo = parseAddressField('reply_to', input.reply_to);
  const custom = Object.entries(input.headers ?? {});
  const customId = custom.find(([k]) => k.toLowerCase() === 'message-id')?.[1];
  const messageId = input.message_id ?? customId ?? newMessageId(from[0].address.split('@').pop()!);
  const customDate = custom.find(([k]) => k.toLowerCase() === 'date')?.[1];

  const lines: string[] = [
    `From: ${formatMailbox(from[0])}`,
    `To: ${to.map(formatMailbox).join(', ')}`,
  ];
  if (cc.length) lines.push(`Cc: ${cc.map(formatMailbox).join(', ')}`);
  if (replyTo.length) lines.push(`Reply-To: ${replyTo.map(formatMailbox).join(', ')}`);
  lines.push(`Subject: ${encodeWord(headerSafe(input.subject))}`);
  lines.push(`Date: ${headerSafe(customDate ?? new Date(dateMs).toUTCString().replace('GMT', '+0000'))}`);
  lines.push(`Message-ID: ${headerSafe(messageId)}`);
  for (const [k, v] of custom) {
    const key = k.toLowerCase();
    if (STRUCTURAL.has(key) || key === 'message-id' || key === 'date' || !/^[!-9;-~]+$/.test(k)) continue;
    lines.push(`${k}: ${encodeWord(headerSafe(String(v)))}`);
  }
  lines.push('MIME-Version: 1.0');

  const textPart = (type: string, body: string) =>
    [`Content-Type: ${type}; charset=utf-8`, 'Content-Transfer-Encoding: base64', '', base64Lines(Buffer.from(body, 'utf8'))].join('\r\n');
  const boundary = (tag: string) => `----=_emulator_${tag}_${randomBytes(8).toString('hex')}`;
  const multipart = (type: string, parts: string[]) => {
    const b = boundary(type.split('/')[1]);
    return [`Content-Type: ${type}; boundary="${b}"`, '', ...parts.flatMap((p) => [`--${b}`, p]), `--${b}--`, ''].join('\r\n');
  };

  let body: string;
  if (input.html !== undefined && input.text !== undefined) body = multipart('multipart/alternative', [textPart('text/plain', input.text), textPart('text/html', input.html)]);
  else if (input.html !== undefined) body = textPart('text/html', input.html);
  else body = textPart('text/plain', input.text ?? '');

  const atts = input.attachments ?? [];
  if (atts.length) {
    const parts = atts.map((a) => {
      const bytes = attachmentBytes(a.content);
      const type = a.content_type ?? contentTypeOf(a.filename);
      const disposition = a.content_disposition ?? (a.content_id ? 'inline' : 'attachment');
      const head = [
        `Content-Type: ${headerSafe(type)}; name="${encodeWord(a.filename).replace(/"/g, '')}"`,
        `Content-Disposition: ${disposition}; ${paramFilename(a.filename)}`,
        'Content-Transfer-Encoding: base64',
      ];
      if (a.content_id) head.push(`Content-ID: <${headerSafe(a.content_id).replace(/^<|>$/g, '')}>`);
      return [...head, '', base64Lines(bytes)].join('\r\n');
    });
    body = multipart('multipart/mixed', [body, ...parts]);
  }
  return `${lines.join('\r\n')}\r\n${body}`;
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
    messageId: email.messageId ?? newMessageId(from.address.split('@').pop()!),
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
