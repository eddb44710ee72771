/**
 * The error messages of the domains resource, each with where its text comes
 * from (`message`, src/http/errors.ts: a fact of docs/reference/, a recording, an SDK,
 * or our own wording where the records are silent). Shared templates
 * (`errors.notFound`, `errors.missingField`, …) stay in src/http/errors.ts.
 */
import { ApiError, errors, message } from '../../http/errors.js';

export const domainMessages = {
  /** 403 `validation_error`: a domain another team has (docs/reference/errors.md#error-names-and-statuses: ``The `example.com` domain has been registered already.``). */
  registeredAlready: message('docs/reference/errors.md#error-names-and-statuses', (name: string) => errors.validation(`The \`${name}\` domain has been registered already.`, 403)),
  /** 422: a claim of a domain no other team has verified. */
  notVerifiedElsewhere: message('emulator choice', (name: string) => errors.validation(`The \`${name}\` domain is not verified by another team; create it with POST /domains instead.`, 422)),
  /** 422: verifying a claim that is not pending. */
  claimNotVerifiable: message('emulator choice', (status: string) => new ApiError(422, 'validation_error', `The domain claim is \`${status}\` and cannot be verified.`)),
  /** 422: `capabilities` with both `sending` and `receiving` off. */
  noCapability: message('emulator choice', () => errors.validation('At least one capability (`sending` or `receiving`) must be enabled.', 422)),
};
