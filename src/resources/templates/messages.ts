/**
 * The error messages of the templates resource, each with where its text
 * comes from (`message`, src/http/errors.ts: a fact of docs/reference/, a recording,
 * an SDK, or our own wording where the records are silent). The rules are
 * docs/reference/resources.md#templates's; the texts are ours, the service's being unrecorded.
 * Shared templates (`errors.notFound`, …) stay in src/http/errors.ts.
 */
import { ApiError, errors, message } from '../../http/errors.js';

export const templateMessages = {
  /** 422: a send names a template (`idOrAlias`, as given) that has no published version. */
  notPublished: message('emulator choice', (idOrAlias: string) => errors.validation(`The template \`${idOrAlias}\` has not been published. Publish it before sending.`, 422)),
  /** 422: a string variable value over `max` characters. */
  valueTooLong: message('emulator choice', (key: string, max: number) => errors.validation(`The value of variable \`${key}\` must be at most ${max} characters.`, 422)),
  /** 422: a number variable value outside the safe integers. */
  valueOutOfRange: message('emulator choice', (key: string) => errors.validation(`The value of variable \`${key}\` must be a number between -(2^53-1) and 2^53-1.`, 422)),
  /** 422: a placeholder with no value and no fallback. */
  missingValue: message('emulator choice', (key: string) => errors.validation(`Missing value for template variable \`${key}\`: provide it in \`template.variables\` or give the variable a fallback value.`, 422)),
  /** 422: two variables of one key. */
  duplicateVariable: message('emulator choice', (key: string) => errors.validation(`The variable key \`${key}\` is used more than once.`, 422)),
  /** 422: a `fallback_value` not of its variable's `type`. */
  fallbackType: message('emulator choice', (key: string, type: string) => errors.validation(`The \`fallback_value\` of variable \`${key}\` must be of type ${type}.`, 422)),
  /** 422: another template of the team has the alias. */
  aliasTaken: message('emulator choice', (alias: string) => errors.validation(`A template with the alias \`${alias}\` already exists.`, 422)),
  /** 500: a template names a version the store lacks (a bug, never the caller's fault). */
  versionMissing: message('emulator choice', (versionId: string) => new ApiError(500, 'application_error', `template version ${versionId} is missing`)),
};
