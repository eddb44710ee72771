/**
 * The unsubscribe link that `{{{RESEND_UNSUBSCRIBE_URL}}}` becomes in a
 * broadcast (render.ts `unsubscribeUrl`): `/_emulator/unsubscribe/{token}`,
 * token = base64url of `{"b": broadcast id, "c": contact id}`.
 * | operationId | rule |
 * |---|---|
 * | admin/unsubscribe | `GET` (a person following the link) or `POST` (RFC 8058 one-click): sets the contact's `unsubscribed` to true (raising `contact.updated` once) and answers a small HTML page; a token that does not decode, or names a broadcast or contact that no longer exists → 404 `not_found` |
 */
import type { Emulator } from '../../context.js';
import { errors } from '../../http/errors.js';
import { Reply } from '../../module.js';
import type { Answer, Req } from '../../http/document-types.js';
import { findContact, updateContact } from '../contacts/service.js';
import { broadcastById } from './store.js';

/** Decodes a token; null when it is not one of ours. */
function decode(token: string): { b: string; c: string } | null {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    return typeof v?.b === 'string' && typeof v?.c === 'string' ? v : null;
  } catch {
    return null;
  }
}

const escape = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Unsubscribes the contact the token names. Throws 404 for an unknown token. */
export function unsubscribe(ctx: Emulator, req: Req<'admin/unsubscribe'> | Req<'admin/unsubscribe-one-click'>): Answer<'admin/unsubscribe'> {
  const t = decode(req.params.token);
  const broadcast = t && broadcastById(ctx, t.b);
  const contact = t && broadcast ? findContact(ctx, broadcast.team_id, t.c) : undefined;
  if (!t || !broadcast || !contact) throw errors.notFound('Unsubscribe link');
  if (!contact.unsubscribed) ctx.db.transaction(() => updateContact(ctx, broadcast.team_id, contact.id, { unsubscribed: true }))();
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>Unsubscribed</title></head>`
    + `<body style="font-family:system-ui;max-width:32rem;margin:4rem auto"><h1>You are unsubscribed</h1>`
    + `<p><b>${escape(contact.email)}</b> will no longer receive broadcasts${broadcast.name ? ` such as “${escape(broadcast.name)}”` : ''}.</p>`
    + `<p style="color:#666">resend-emulator</p></body></html>`;
  return new Reply(200, html, { 'cache-control': 'no-store' }, 'text/html; charset=utf-8');
}
