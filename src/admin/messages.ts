/**
 * The error messages of the admin API's own operations that no shared
 * template words (`message`, src/http/errors.ts): the release of an email
 * to a real mail server (src/admin/release.ts). Our wording: the service
 * has no such operation.
 */
import { ApiError, message } from '../http/errors.js';

export const adminMessages = {
  /** 409 `relay_not_configured`: a release asked of an emulator started without `--relay`. */
  relayNotConfigured: message(
    'emulator choice',
    () => new ApiError(409, 'relay_not_configured', 'No relay is configured: start the emulator with --relay smtp://user:pass@host:port (or EMULATOR_RELAY, or startServer({ relay })) to send an email to a real inbox.'),
  ),
  /** 422 `validation_error`: a `to` that is not an email address. */
  releaseNotAnAddress: message('emulator choice', (to: string) => new ApiError(422, 'validation_error', `Invalid \`to\` field: ${JSON.stringify(to)} is not an email address.`)),
  /** 403 `recipient_not_allowed`: a `to` outside `--relay-allow`. */
  recipientNotAllowed: message(
    'emulator choice',
    (to: string, allow: readonly string[]) => new ApiError(403, 'recipient_not_allowed', `${to} is not allowed by --relay-allow (${allow.join(', ')}): the relay sends only to those addresses.`),
  ),
  /** 502 `relay_failed`: the relay refused the message or could not be reached; `reason` is its reply or the network error. */
  relayFailed: message('emulator choice', (relay: string, reason: string) => new ApiError(502, 'relay_failed', `The relay ${relay} did not take the message: ${reason}`)),
};
