/**
 * The error messages of the usage resource, each with where its text comes
 * from (`message`, src/http/errors.ts: a fact of docs/reference/, a recording, an SDK,
 * or our own wording where the records are silent). Shared templates
 * (`errors.notFound`, `errors.missingField`, …) stay in src/http/errors.ts.
 */
import { errors, message } from '../../http/errors.js';

export const usageMessages = {
  /**
   * 403 `validation_error`: a broadcast while the team has more contacts than
   * its plan allows (docs/reference/errors.md#error-names-and-statuses states the
   * case; the text is the rate-limit page's).
   */
  contactsQuotaReached: message('D:api-reference/rate-limit', () =>
    errors.validation('You have reached your contacts quota. Please upgrade your plan to send more emails.', 403)),
};
