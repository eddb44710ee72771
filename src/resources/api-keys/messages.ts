/**
 * The error messages of the api-keys resource, each with where its text comes
 * from (`message`, src/http/errors.ts: a fact of docs/reference/, a recording, an SDK,
 * or our own wording where the records are silent). Shared templates
 * (`errors.notFound`, `errors.missingField`, …) stay in src/http/errors.ts.
 */
import { errors, message } from '../../http/errors.js';

export const apiKeyMessages = {
  /** 422: `domain_id` given with a `full_access` key. */
  domainOnlyForSending: message('emulator choice', () => errors.validation('The `domain_id` field can only be used with `sending_access` permission.', 422)),
};
