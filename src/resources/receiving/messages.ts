/**
 * The error messages of the receiving resource, each with where its text comes
 * from (`message`, src/http/errors.ts: a fact of docs/reference/, a recording, an SDK,
 * or our own wording where the records are silent). Shared templates
 * (`errors.notFound`, `errors.missingField`, …) stay in src/http/errors.ts.
 *
 * Every text here answers the emulator's own way in, `POST /_emulator/inbound`
 * (docs/receiving.md#receiving-email), which the service does not have: all are ours.
 */
import { errors, message } from '../../http/errors.js';

export const receivingMessages = {
  /** 422: an address field (`from`, `to`, `cc`, `bcc`, `reply_to`) with an entry that holds no valid address. */
  invalidAddressEntry: message('emulator choice', (field: string, entry: string) =>
    errors.validation(`Invalid \`${field}\` field. \`${entry}\` is not a valid email address or \`Name <email@example.com>\`.`, 422)),
  /** 422: a JSON message whose `from` names no sender or several. */
  notOneSender: message('emulator choice', () => errors.validation('Invalid `from` field. Give exactly one sender.', 422)),
  /** 422: a raw message without a `From` address. */
  noFromAddress: message('emulator choice', () => errors.validation('The message has no `From` address.', 422)),
  /** 422: a message with no recipient in its envelope or headers. */
  noRecipients: message('emulator choice', () => errors.validation('The message has no recipients: give `to` (or To/Cc headers, or `rcpt_to`).', 422)),
  /** 422: no recipient's domain receives mail for any team; `domains` are the recipients' domains, in order. */
  notReceiving: message('emulator choice', (domains: string[]) =>
    errors.validation(
      `The ${domains.map((d) => `\`${d}\``).join(', ')} domain${domains.length > 1 ? 's are' : ' is'} not set up for receiving. Enable the \`receiving\` capability on a domain of a team to receive emails at it.`,
      422,
    )),
};
