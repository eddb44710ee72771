/**
 * The error messages of the contacts resource, each with where its text
 * comes from (`message`, src/http/errors.ts: a fact of docs/reference/, a
 * recording, an SDK, or our own wording where the records are silent).
 * Shared templates (`errors.notFound`: `Contact not found`,
 * docs/reference/errors.md#recorded-messages; `errors.missingField`, …) stay in
 * src/http/errors.ts; a property the team lacks is the contact-properties
 * room's message (`contactPropertyMessages.unknownProperty`).
 */
import { ApiError, errors, message } from '../../http/errors.js';

export const contactMessages = {
  /**
   * 422 `missing_required_field`: a `{contact}` path value that is neither an
   * email nor a UUID (docs/reference/interface-spec.md#errors, item 6). The
   * text is the SDK's own check for the same condition
   * (docs/reference/errors.md#recorded-messages).
   */
  idOrEmailRequired: message('docs/reference/errors.md#recorded-messages', () =>
    new ApiError(422, 'missing_required_field', 'Missing `id` or `email` field.')),
  /** 422: an `email` that is not an email address (a create, an update, an imported row). */
  invalidEmail: message('emulator choice', () => errors.validation('Invalid `email` field. It must be a valid email address.', 422)),
  /** 422: an update to an `email` another contact of the team has (creating one answers with the existing contact instead, docs/reference/resources.md#contacts). */
  emailTaken: message('emulator choice', (email: string) => errors.validation(`A contact with the email \`${email}\` already exists.`, 422)),
};
