/**
 * Releasing a stored email to a real mail server, so a developer can see it
 * in a real mail client (what Mailpit calls release; never automatic): `POST /_emulator/emails/{id}/release` `{to}`
 * sends the email's raw message, as `GET /_emulator/emails/{id}/raw` builds
 * it (`rawMessage`, src/admin/raw.ts), to the addresses `to` through the
 * SMTP server of `--relay` (nodemailer's SMTP transport: STARTTLS when the
 * server offers it on `smtp://`, TLS from the start on `smtps://`; AUTH with
 * the URL's user and password). The envelope sender is the email's From
 * address; the recipients are only `to` (never the email's own To, Cc or
 * Bcc). Only on request: nothing is relayed on its own. `--relay-allow`
 * limits the recipients to addresses or `*` patterns.
 *
 * Errors (src/admin/messages.ts): no relay → 409 `relay_not_configured`;
 * `to` not an address → 422 `validation_error`; outside the allow-list →
 * 403 `recipient_not_allowed`; the server refuses or cannot be reached →
 * 502 `relay_failed` with its reply (or the network error).
 */
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Emulator } from '../context.js';
import { requirePackage } from '../lazy.js';
import { bareAddress, parseAddress, type EmailRow } from '../resources/emails/service.js';
import { adminMessages } from './messages.js';
import { rawMessage } from './raw.js';

/** Wall-clock ms a release waits for the relay to connect, greet and answer each command. */
const RELAY_TIMEOUT_MS = 15_000;

/**
 * Checks a relay URL (`--relay`, `startServer({ relay })`): `smtp:` or
 * `smtps:` with a host. Returns it; throws a TypeError saying what is wrong.
 */
export function checkRelayUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new TypeError(`relay ${JSON.stringify(url)} is not a URL: use smtp://user:pass@host:port`);
  }
  if ((u.protocol !== 'smtp:' && u.protocol !== 'smtps:') || !u.hostname) {
    throw new TypeError(`relay ${JSON.stringify(url)} must be an smtp:// or smtps:// URL with a host, e.g. smtp://user:pass@host:587`);
  }
  return url;
}

/** The relay as shown to users: `host:port`, never the credentials. */
function relayName(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || (u.protocol === 'smtps:' ? '465' : '25')}`;
}

/** A `*` pattern of `--relay-allow` as a whole-address, case-insensitive regular expression. */
function patternOf(p: string): RegExp {
  const escaped = p.trim().toLowerCase().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** Whether `address` (bare) may be relayed to: every address without an allow-list. */
function relayAllowed(allow: readonly string[] | undefined, address: string): boolean {
  if (!allow || allow.length === 0) return true;
  const bare = address.toLowerCase();
  return allow.some((p) => patternOf(p).test(bare));
}

/** What a release answers: the bare recipients, the relay (`host:port`) and its final reply. */
export interface Released {
  to: string[];
  relay: string;
  response: string;
}

/**
 * Sends `row`'s raw message to `to` through the relay. Throws the
 * `adminMessages` errors above; resolves once the server accepted it.
 */
export async function releaseEmail(ctx: Emulator, row: EmailRow, to: readonly string[]): Promise<Released> {
  const relay = ctx.config.relay;
  if (!relay) throw adminMessages.relayNotConfigured();
  const recipients = to.map((t) => {
    const parsed = parseAddress(t);
    if (!parsed) throw adminMessages.releaseNotAnAddress(t);
    return parsed.address;
  });
  for (const r of recipients) {
    if (!relayAllowed(ctx.config.relayAllow, r)) throw adminMessages.recipientNotAllowed(r, ctx.config.relayAllow ?? []);
  }
  const raw = await rawMessage(ctx, row);
  const nodemailer = requirePackage<typeof import('nodemailer')>('nodemailer');
  const options: SMTPTransport.Options = {
    url: relay,
    connectionTimeout: RELAY_TIMEOUT_MS,
    greetingTimeout: RELAY_TIMEOUT_MS,
    socketTimeout: RELAY_TIMEOUT_MS,
  };
  const transport = nodemailer.createTransport(options);
  try {
    const info = await transport.sendMail({ envelope: { from: bareAddress(row.from_addr), to: recipients }, raw });
    return { to: recipients, relay: relayName(relay), response: info.response };
  } catch (err) {
    const e = err as { response?: string; message?: string };
    throw adminMessages.relayFailed(relayName(relay), e.response ?? e.message ?? String(err));
  } finally {
    transport.close();
  }
}
