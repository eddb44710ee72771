/**
 * The checks of an email, sent or received (what a mail client will make of it, asked for on demand; spec
 * `spec/paths/admin-checks.yaml`; no auth):
 * | operationId | path | answers |
 * |---|---|---|
 * | admin/email-html-check | `GET /_emulator/emails/{email_id}/html-check` | the HTML check (src/admin/html-check.ts): findings per feature with the clients lacking it, the score per client family, the size against Gmail's clipping, List-Unsubscribe for a broadcast |
 * | admin/email-link-check | `GET /_emulator/emails/{email_id}/link-check` | each link and image requested now (src/admin/link-check.ts), `timeout_ms` per request |
 * | admin/received-html-check | `GET /_emulator/inbound/emails/{email_id}/html-check` | the same for a received email |
 * | admin/received-link-check | `GET /_emulator/inbound/emails/{email_id}/link-check` | the same for a received email |
 * `email_id` `latest` works for sent emails, with the list's filters. An
 * unknown email is 404 `Email not found`.
 *
 * The HTML check of an email is kept once made (its HTML and headers never
 * change; caniemail takes up to a second on 150 KB of HTML), at most
 * `CHECK_CACHE_SIZE` per emulator, the oldest dropped first.
 */
import type { Emulator } from '../context.js';
import { errors } from '../http/errors.js';
import type { ResourceModule } from '../module.js';
import type { Answer, OperationHandlers, Req } from '../http/document-types.js';
import { headersOf, loadEmail, type EmailRow } from '../resources/emails/service.js';
import { findEmail, receivedRaw, type ReceivedEmailRow } from '../resources/receiving/service.js';
import { fromJson } from '../http/format.js';
import { extractLinks, listEmails, type EmailFilter, EMAIL_FILTER_KEYS, waitForMatch } from './emails.js';
import { rawMessage } from './raw.js';
import { htmlCheck, type HtmlCheck } from './html-check.js';
import { imageUrls, linkCheck, LINK_CHECK_TIMEOUT_MS } from './link-check.js';

/** HTML checks kept per emulator. */
export const CHECK_CACHE_SIZE = 500;
const cache = new WeakMap<Emulator, Map<string, HtmlCheck>>();

function cached(ctx: Emulator, key: string): HtmlCheck | undefined {
  return cache.get(ctx)?.get(key);
}
function keep(ctx: Emulator, key: string, value: HtmlCheck): void {
  let m = cache.get(ctx);
  if (!m) cache.set(ctx, (m = new Map()));
  m.set(key, value);
  if (m.size > CHECK_CACHE_SIZE) m.delete(m.keys().next().value!);
}

/** The sent email of the path (`latest`: the newest matching the query's filters, waiting `wait` ms), or 404. */
async function sentEmail(ctx: Emulator, req: Req<'admin/email-html-check'> | Req<'admin/email-link-check'>): Promise<EmailRow> {
  const id = req.params.email_id;
  if (id !== 'latest') {
    const row = loadEmail(ctx, id);
    if (!row) throw errors.notFound('Email');
    return row;
  }
  const q = req.query as Record<string, unknown>;
  const filter: EmailFilter = {};
  for (const k of EMAIL_FILTER_KEYS) if (q[k] !== undefined) filter[k] = String(q[k]);
  const wait = Number(q.wait ?? 0);
  const found = wait > 0 ? await waitForMatch(ctx, filter, wait) : listEmails(ctx, filter)[0] ?? null;
  if (!found) throw errors.notFound('Email');
  return loadEmail(ctx, found.id)!;
}

function receivedEmail(ctx: Emulator, id: string): ReceivedEmailRow {
  const row = findEmail(ctx, id);
  if (!row) throw errors.notFound('Email');
  return row;
}

/** The HTML check of a sent email (kept once made). */
export async function sentHtmlCheck(ctx: Emulator, row: EmailRow): Promise<HtmlCheck> {
  const key = `email:${row.id}:${row.html?.length ?? -1}`;
  const hit = cached(ctx, key);
  if (hit) return hit;
  const raw = await rawMessage(ctx, row);
  const check = await htmlCheck({ id: row.id, html: row.html, headers: headersOf(row), message_bytes: raw.length, broadcast: row.broadcast_id !== null });
  keep(ctx, key, check);
  return check;
}

/** The HTML check of a received email (kept once made). */
export async function receivedHtmlCheck(ctx: Emulator, row: ReceivedEmailRow): Promise<HtmlCheck> {
  const key = `received:${row.id}:${row.html?.length ?? -1}`;
  const hit = cached(ctx, key);
  if (hit) return hit;
  const headers = fromJson<Record<string, string>>(row.headers) ?? {};
  const check = await htmlCheck({ id: row.id, html: row.html, headers, message_bytes: (await receivedRaw(ctx, row)).length, broadcast: false });
  keep(ctx, key, check);
  return check;
}

const timeoutOf = (q: Record<string, unknown>) => (q.timeout_ms !== undefined ? Number(q.timeout_ms) : LINK_CHECK_TIMEOUT_MS);

async function emailHtml(ctx: Emulator, req: Req<'admin/email-html-check'>): Promise<Answer<'admin/email-html-check'>> {
  return sentHtmlCheck(ctx, await sentEmail(ctx, req));
}

async function emailLinks(ctx: Emulator, req: Req<'admin/email-link-check'>): Promise<Answer<'admin/email-link-check'>> {
  const row = await sentEmail(ctx, req);
  return linkCheck(row.id, extractLinks(row.html, row.text), imageUrls(row.html), timeoutOf(req.query));
}

async function receivedHtml(ctx: Emulator, req: Req<'admin/received-html-check'>): Promise<Answer<'admin/received-html-check'>> {
  return receivedHtmlCheck(ctx, receivedEmail(ctx, req.params.email_id));
}

async function receivedLinks(ctx: Emulator, req: Req<'admin/received-link-check'>): Promise<Answer<'admin/received-link-check'>> {
  const row = receivedEmail(ctx, req.params.email_id);
  return linkCheck(row.id, extractLinks(row.html, row.text), imageUrls(row.html), timeoutOf(req.query));
}

export const adminChecksModule: ResourceModule = {
  name: 'admin-checks',
  operations: {
    'admin/email-html-check': emailHtml,
    'admin/email-link-check': emailLinks,
    'admin/received-html-check': receivedHtml,
    'admin/received-link-check': receivedLinks,
  } satisfies OperationHandlers,
};
