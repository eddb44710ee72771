/**
 * What counts as an email address, in one place below the resources: every
 * room that takes an address (sending, contacts, received mail, the admin
 * API's inbound mail) checks it with one of these three rules. Each rule is
 * the one before it plus more, so whatever a stricter rule accepts a looser
 * one accepts too (a contact is always an address the emails room can send
 * to, and a sendable address is always one mail can arrive from):
 *
 * | rule | accepts | used by |
 * |---|---|---|
 * | `isMailboxAddress` | `local@domain`, neither part empty nor holding whitespace, `@`, `<`, `>`, `"`, `,` or `;` | received mail's address fields (src/resources/receiving/mime.ts), the inbound envelope `rcpt_to` (src/admin/inbound.ts) |
 * | `isSendingAddress` | a mailbox address whose domain has a dot inside it: `email@example.com` | a send's `from`, `to`, `cc`, `bcc`, `reply_to` (src/resources/emails/addresses.ts `parseAddress`) |
 * | `isContactEmail` | a sending address of at most 320 characters, without `(`, `)` or `:`, its domain not ending in `.` | a contact's `email` (src/resources/contacts/service.ts, CSV imports) |
 *
 * Bare addresses only: a display name (`Name <a@b.c>`) is parsed off
 * before (emails' `parseAddress`, postal-mime's `addressParser` for
 * received mail).
 */

/**
 * The characters no address part holds: whitespace, `@` (one separates
 * the parts), and those that bracket (`<>`), quote (`"`) or separate (`,`
 * `;`) addresses in a header's list, so an address holding one is a list
 * or a display name parsed wrong.
 */
const MAILBOX = /^[^\s@<>",;]+@[^\s@<>",;]+$/;

/** A mailbox address whose domain has a dot with a character either side. */
const SENDING = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;

/**
 * Longest contact email: 320 characters, a 64-character local part, `@` and
 * a 255-character domain (RFC 3696 §3).
 */
export const MAX_CONTACT_EMAIL_LENGTH = 320;

/**
 * Whether `address` is a bare `local@domain`, the loosest rule (see the
 * table above). Mail arrives from anywhere, hosts without a dot included
 * (`root@localhost`), so a received message's addresses and the envelope
 * recipients of inbound mail are held to no more (emulator choice: the
 * service's rules for inbound mail are not recorded).
 */
export function isMailboxAddress(address: string): boolean {
  return MAILBOX.test(address);
}

/**
 * Whether `address` is one the emails room sends from or to: a mailbox
 * address whose domain has a dot inside it, the `email@example.com` form the
 * service's refusal names (SDK:resend-node src/broadcasts/broadcasts.spec.ts;
 * emails' `invalidAddress` message).
 */
export function isSendingAddress(address: string): boolean {
  return SENDING.test(address);
}

/**
 * Whether `address` is a contact's email: a sending address of at most
 * `MAX_CONTACT_EMAIL_LENGTH` characters, without the characters of an RFC
 * 5322 comment or group (`(`, `)`, `:`), whose domain does not end in `.`
 * (RFC 5321 §4.1.2: a domain is dot-separated labels). Stricter than
 * sending because a contact is kept and mailed again and again (every
 * broadcast to its segments) and imported in bulk from CSV, where a stray
 * character is more often a mistake (emulator choice: the service's check
 * of a contact's email is not recorded).
 */
export function isContactEmail(address: string): boolean {
  return address.length <= MAX_CONTACT_EMAIL_LENGTH && isSendingAddress(address) && !/[():]/.test(address) && !address.endsWith('.');
}
