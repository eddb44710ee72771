/**
 * What the recording proxy (./proxy.ts) lets reach the upstream of mail:
 * only sends whose every recipient (`to`, `cc`, `bcc`) is one of the
 * service's test addresses
 * (docs/reference/test-addresses.md#test-addresses-resenddev); a call that
 * mails recipients the proxy cannot check (a broadcast, an event that starts
 * automations, an inbox reply, forward or draft) is refused. A refused call
 * reaches neither side: the client gets 422 `upstream_send_refused`
 * (docs/parity.md#the-recording-proxy) before anything leaves.
 */

/** The error name of a refused send [choice] (docs/parity.md#the-recording-proxy). */
export const SEND_REFUSED = 'upstream_send_refused';

/** Operations that send to the recipients of their body: each email's `to`, `cc` and `bcc` are checked. */
const CHECKED = new Set(['emails/send', 'emails/send-legacy', 'emails/send-batch']);

/** Operations that mail recipients the body does not name (a segment, an automation's contacts, a thread): never forwarded. */
const REFUSED = new Set(['broadcasts/send', 'events/send', 'inboxes/threads/emails/reply', 'inboxes/threads/emails/forward', 'inboxes/drafts/send']);

/** A test address: `delivered@`, `bounced@`, `complained@resend.dev` with an optional `+label`, or exactly `suppressed@resend.dev`. */
const TEST_ADDRESS = /^(?:(?:delivered|bounced|complained)(?:\+[^@\s]*)?|suppressed)@resend\.dev$/i;

/** The address of a recipient written `Name <addr>` or `addr`. */
function addressOf(recipient: string): string {
  const m = /<([^>]*)>\s*$/.exec(recipient);
  return (m ? m[1] : recipient).trim();
}

/** Whether `recipient` (`addr` or `Name <addr>`) is a test address of the service. */
export function isTestAddress(recipient: string): boolean {
  return TEST_ADDRESS.test(addressOf(recipient));
}

/** The recipients of one email body that are not test addresses. */
function outsiders(email: unknown): string[] {
  if (!email || typeof email !== 'object') return [];
  const out: string[] = [];
  for (const field of ['to', 'cc', 'bcc'] as const) {
    const v = (email as Record<string, unknown>)[field];
    const list = Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
    for (const r of list) if (typeof r !== 'string' || !isTestAddress(r)) out.push(String(r));
  }
  return out;
}

/**
 * Why the call `operationId` with `body` must not reach the upstream, or
 * null when it may: a send with a recipient that is not a test address
 * (named in the text), a call that mails recipients it does not name, or
 * a broadcast created with `send: true`.
 */
export function sendRefusal(operationId: string | undefined, body: unknown): string | null {
  if (!operationId) return null;
  if (REFUSED.has(operationId) || (operationId === 'broadcasts/create' && (body as { send?: unknown } | undefined)?.send === true)) {
    return `The recording proxy does not forward ${operationId}: it mails recipients it cannot check. Only sends to the service's test addresses (delivered@resend.dev, bounced@resend.dev, complained@resend.dev, suppressed@resend.dev) are forwarded.`;
  }
  if (!CHECKED.has(operationId)) return null;
  const emails = operationId === 'emails/send-batch' && Array.isArray(body) ? body : [body];
  const bad = emails.flatMap(outsiders);
  if (!bad.length) return null;
  return `The recording proxy forwards sends only to the service's test addresses (delivered@, bounced@, complained@ or suppressed@resend.dev); refused: ${bad.slice(0, 5).join(', ')}${bad.length > 5 ? ', ...' : ''}.`;
}
