/**
 * From an SMTP transaction to the body of `POST /emails` ("SMTP,
 * exactly as the service's SMTP relay"): the message is parsed with
 * `postal-mime` (the parser of src/resources/receiving/mime.ts), the
 * recipients come from the envelope.
 *
 * | `SendEmailInput` field | from |
 * |---|---|
 * | `from` | the `From` header (`Name <a@b>`); the envelope `MAIL FROM` is not used |
 * | `to` | `To` header mailboxes that are envelope recipients; when none is (undisclosed recipients), every envelope recipient not in `Cc` |
 * | `cc` | `Cc` header mailboxes that are envelope recipients |
 * | `bcc` | envelope recipients in neither `To` nor `Cc` (a `Bcc` header is never read: SMTP clients do not send it) |
 * | `reply_to`, `subject`, `html`, `text` | the headers and parts of those names (absent stays absent, so the service's rules apply: a missing `Subject` is 422 `missing_required_field`); the line break ending a part is dropped |
 * | `attachments` | every attachment part, base64; a part with a `Content-ID` that is not `Content-Disposition: attachment` keeps it as `content_id` (without `<>`) |
 * | `headers` | every other header, first value, name as written (`STRUCTURAL_HEADERS` are left out) |
 * Header mailboxes a recipient was not given for (`To: a@x` with `RCPT TO:<b@y>`)
 * are not sent to, as with any SMTP server.
 */
import { lazy, requirePackage } from '../lazy.js';
import type { Address, Mailbox } from 'postal-mime';
import type { SendEmailInput } from '../resources/emails/service.js';

/** postal-mime, loaded on first use (start-up speed). */
const postalMime = lazy(() => requirePackage<typeof import('postal-mime')>('postal-mime'));

/** The SMTP envelope: `MAIL FROM` (null for `<>`) and the `RCPT TO` addresses, in order. */
export interface Envelope {
  mailFrom: string | null;
  rcptTo: string[];
}

/**
 * Headers the message's structure or transport sets, never passed on as
 * custom `headers` (lower-case names). `Message-ID` and `Date` are the
 * service's own (the emulator gives each email its `message_id`).
 */
export const STRUCTURAL_HEADERS = new Set([
  'from', 'to', 'cc', 'bcc', 'reply-to', 'subject', 'date', 'message-id', 'sender', 'return-path', 'received',
  'mime-version', 'content-type', 'content-transfer-encoding', 'content-disposition', 'content-id', 'content-description',
]);

/** Mailboxes of an address list, groups flattened. */
function mailboxes(list: Address[] | Address | undefined): Mailbox[] {
  const out: Mailbox[] = [];
  for (const a of Array.isArray(list) ? list : list ? [list] : []) {
    if (a.group) out.push(...a.group);
    else if (a.address) out.push(a as Mailbox);
  }
  return out;
}

/** `Name <a@b>` (quoted when the name holds `",;<>@()\`), or `a@b` without a name. */
function formatMailbox(m: Mailbox): string {
  if (!m.name) return m.address;
  const name = /[",;<>@()\\]/.test(m.name) ? `"${m.name.replace(/["\\]/g, '')}"` : m.name;
  return `${name} <${m.address}>`;
}

const lower = (a: string) => a.trim().toLowerCase();

/**
 * A text or HTML part as the sender wrote it: postal-mime ends every part
 * with one line break (the one before the MIME boundary), which is dropped.
 */
function bodyText(part: string): string {
  return part.replace(/\r?\n$/, '');
}

/**
 * Maps a raw RFC 5322 message and its envelope to a `POST /emails` body.
 * Never throws for a malformed message: what cannot be read is left out,
 * and `sendEmail` / the spec schema then refuse it with the service's error.
 */
export async function toSendInput(raw: Buffer, envelope: Envelope): Promise<SendEmailInput> {
  const email = await postalMime().default.parse(raw, { attachmentEncoding: 'base64' });
  const rcpt = new Map<string, string>();
  for (const r of envelope.rcptTo) if (!rcpt.has(lower(r))) rcpt.set(lower(r), r);

  const taken = new Set<string>();
  const pick = (list: Mailbox[]) => {
    const out: string[] = [];
    for (const m of list) {
      const key = lower(m.address);
      if (!rcpt.has(key) || taken.has(key)) continue;
      taken.add(key);
      out.push(formatMailbox(m));
    }
    return out;
  };
  let to = pick(mailboxes(email.to));
  const cc = pick(mailboxes(email.cc));
  let bcc = [...rcpt].filter(([key]) => !taken.has(key)).map(([, address]) => address);
  if (to.length === 0) {
    to = bcc;
    bcc = [];
  }

  const input: SendEmailInput = { to };
  const from = mailboxes(email.from)[0];
  if (from) input.from = formatMailbox(from);
  if (cc.length) input.cc = cc;
  if (bcc.length) input.bcc = bcc;
  const replyTo = mailboxes(email.replyTo).map(formatMailbox);
  if (replyTo.length) input.reply_to = replyTo.length === 1 ? replyTo[0] : replyTo;
  if (email.subject !== undefined) input.subject = email.subject;
  if (email.html !== undefined) input.html = bodyText(email.html);
  if (email.text !== undefined) input.text = bodyText(email.text);

  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const h of email.headers) {
    if (STRUCTURAL_HEADERS.has(h.key) || seen.has(h.key)) continue;
    seen.add(h.key);
    headers[h.originalKey || h.key] = postalMime().decodeWords(h.value);
  }
  if (Object.keys(headers).length) input.headers = headers;

  const attachments = email.attachments.map((a) => {
    const att: NonNullable<SendEmailInput['attachments']>[number] = {
      content: typeof a.content === 'string' ? a.content : Buffer.from(a.content as ArrayBuffer).toString('base64'),
      content_type: a.mimeType,
    };
    if (a.filename) att.filename = a.filename;
    const cid = a.contentId?.replace(/^<|>$/g, '');
    if (cid && a.disposition !== 'attachment') att.content_id = cid;
    return att;
  });
  if (attachments.length) input.attachments = attachments;
  return input;
}
