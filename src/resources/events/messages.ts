/**
 * The error messages of the events resource, each with where its text comes
 * from (`message`, src/http/errors.ts: a fact of docs/reference/, a recording, an SDK,
 * or our own wording where the records are silent). Shared templates
 * (`errors.notFound`, `errors.missingField`, …) stay in src/http/errors.ts.
 */
import { errors, message } from '../../http/errors.js';

export const eventMessages = {
  /** 422: the team has an event of that `name` already. */
  nameTaken: message('emulator choice', (name: string) => errors.validation(`An event named \`${name}\` already exists.`, 422)),
  /** 422: a payload value that does not fit the event's schema type (`a`/`an`/`a valid` + the type). */
  payloadType: message('emulator choice', (key: string, type: string) => {
    const article = type === 'date' ? 'a valid' : /^[aeiou]/.test(type) ? 'an' : 'a';
    return errors.validation(`The \`payload.${key}\` field must be ${article} ${type}.`, 422);
  }),
};
