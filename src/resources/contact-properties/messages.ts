/**
 * The error messages of the contact-properties resource, each with where its text comes
 * from (`message`, src/http/errors.ts: a fact of docs/reference/, a recording, an SDK,
 * or our own wording where the records are silent). Shared templates
 * (`errors.notFound`, `errors.missingField`, …) stay in src/http/errors.ts.
 */
import { errors, message } from '../../http/errors.js';

export const contactPropertyMessages = {
  /** 422: the team has a property of that `key` already. */
  keyTaken: message('emulator choice', (key: string) => errors.validation(`A contact property with the key \`${key}\` already exists.`, 422)),
  /** 422: a value (`field`, e.g. `properties.plan`) of another type than its property's (`string` or `number`). */
  wrongType: message('emulator choice', (field: string, type: string) => errors.validation(`The \`${field}\` field must be a ${type}, as the contact property is of type \`${type}\`.`, 422)),
  /** 422: a contact names a property the team has not created. */
  unknownProperty: message('emulator choice', (key: string) => errors.validation(`The contact property \`${key}\` does not exist. Create it first with POST /contact-properties.`, 422)),
};
