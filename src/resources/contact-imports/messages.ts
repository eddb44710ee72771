/**
 * The error messages of the contact-imports resource, each with where its text comes
 * from (`message`, src/http/errors.ts: a fact of docs/reference/, a recording, an SDK,
 * or our own wording where the records are silent). Shared templates
 * (`errors.notFound`, `errors.missingField`, …) stay in src/http/errors.ts.
 */
import { ApiError, errors, message, type ErrorName } from '../../http/errors.js';

export const importMessages = {
  /** 422: `column_map.properties` names a property the team has not created. */
  unknownMappedProperty: message('emulator choice', (key: string) => errors.validation(`The contact property \`${key}\` in \`column_map.properties\` does not exist. Create it first with POST /contact-properties.`, 422)),
  /** The import's `error` when `column_map` names a column the CSV lacks. */
  noSuchColumn: message('emulator choice', (name: string | undefined) => new ApiError(422, 'validation_error', `The CSV has no column \`${name}\`.`)),
  /** The import's `error` when the file is not valid CSV (`reason`: Papa Parse's message; `rows`: the data rows read before it). */
  invalidCsv: message('emulator choice', (reason: string, rows: number) => new ApiError(422, 'validation_error', `The file is not valid CSV after ${rows} rows: ${reason}.`)),
  /** 422: a multipart JSON field (`column_map`, `segments`, `topics`) that does not parse. */
  fieldNotJson: message('emulator choice', (field: string, reason: string) => new ApiError(422, 'validation_error', `The \`${field}\` field must be valid JSON: ${reason}.`)),
  /** 422: a multipart JSON field that parses but fails its schema (`name`, `detail`: the schema's error). */
  fieldInvalid: message('emulator choice', (field: string, name: ErrorName, detail: string) => new ApiError(422, name, `The \`${field}\` field is invalid: ${detail}`)),
};
