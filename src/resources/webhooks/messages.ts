/**
 * The error messages of the webhooks resource, each with where its text comes
 * from (`message`, src/http/errors.ts: a fact of docs/reference/, a recording, an SDK,
 * or our own wording where the records are silent). Shared templates
 * (`errors.notFound`, `errors.missingField`, …) stay in src/http/errors.ts.
 */
import { errors, message } from '../../http/errors.js';

export const webhookMessages = {
  /** 422 `invalid_parameter`: an `endpoint` that is not an absolute http(s) URL. */
  endpointNotUrl: message('emulator choice', () => errors.invalidParameter('The `endpoint` field must be a valid URL starting with http:// or https://.')),
  /** 422 `invalid_parameter`: an `endpoint` with a user name or password. */
  endpointCredentials: message('emulator choice', () => errors.invalidParameter('The `endpoint` field must not contain credentials.')),
};
