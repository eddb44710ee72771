/**
 * Email addresses of a send: parsing `Name <a@b>` and the test addresses of
 * `@resend.dev` (docs/reference/test-addresses.md). What a valid address
 * is comes from src/http/addresses.ts (`isSendingAddress`).
 */
import { isSendingAddress } from '../../http/addresses.js';

/**
 * Parses `a@b.c` or `Display Name <a@b.c>` (also `"Name" <a@b.c>`).
 * Returns the bare address (as written) and its domain (lower-case), or null
 * when it is not a sending address (`isSendingAddress`).
 */
export function parseAddress(input: string): { address: string; domain: string; name: string | null } | null {
  const text = input.trim();
  const m = /^(.*?)\s*<([^<>]+)>$/.exec(text);
  const address = (m ? m[2] : text).trim();
  if (!isSendingAddress(address)) return null;
  const name = m ? m[1].trim().replace(/^"(.*)"$/, '$1') || null : null;
  return { address, domain: address.slice(address.lastIndexOf('@') + 1).toLowerCase(), name };
}

/** The bare, lower-cased address of `Name <a@b>` or `a@b` (the input lower-cased if unparsable). */
export function bareAddress(input: string): string {
  // Without `<` there is no display name: the address is the trimmed input either way (parsed or not). The lifecycle
  // steps ask this of every recipient, several times an email.
  if (!input.includes('<')) return input.trim().toLowerCase();
  return (parseAddress(input)?.address ?? input.trim()).toLowerCase();
}

/** What a test address does (docs/reference/test-addresses.md); `null` for every other address. */
export type TestOutcome = 'delivered' | 'bounced' | 'complained' | 'suppressed';

/**
 * The outcome of a `@resend.dev` test address: `delivered@`, `bounced@`,
 * `complained@` (each also with a `+label`) and `suppressed@` (no label).
 * Any other `@resend.dev` address is delivered; any other domain → null.
 */
export function testOutcome(address: string): TestOutcome | null {
  const bare = bareAddress(address);
  const at = bare.lastIndexOf('@');
  if (bare.slice(at + 1) !== 'resend.dev') return null;
  const local = bare.slice(0, at);
  if (local === 'suppressed') return 'suppressed';
  const base = local.split('+')[0];
  if (base === 'bounced') return 'bounced';
  if (base === 'complained') return 'complained';
  return 'delivered';
}

/** A string or array of strings as an array (`undefined` → `[]`). */
export function asList(v: string | string[] | undefined | null): string[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}
