/**
 * The error messages of the automations resource, each with where its text
 * comes from (`message`, src/http/errors.ts: a fact of docs/reference/, a
 * recording, an SDK, or our own wording where the records are silent). The
 * graph rules are those of docs/reference/resources.md#automations-and-runs
 * (step types, connection types, durations up to 30 days); the texts are
 * ours, the service's being unrecorded. Each names the field at fault by its
 * path in the body (`steps[2].config.duration`, `connections[0].to`).
 * Shared templates (`errors.notFound`, …) stay in src/http/errors.ts.
 */
import { errors, message } from '../../http/errors.js';

export const automationMessages = {
  /** 422: a step duration (`field`, e.g. `steps[1].config.duration`) that is unreadable or not positive; `given` is the value as sent. */
  durationUnreadable: message('emulator choice', (field: string, given: unknown) =>
    errors.validation(`Invalid \`${field}\` field: \`${String(given)}\` is not a duration such as "30 minutes", "1 hour" or "2 days".`, 422)),
  /** 422: a step duration (`field`) over 30 days (docs/reference/resources.md#automations-and-runs). */
  durationTooLong: message('emulator choice', (field: string) =>
    errors.validation(`Invalid \`${field}\` field: the duration must be at most 30 days.`, 422)),
  /** 422: the step at `index` has a `key` another step has. */
  duplicateStepKey: message('emulator choice', (index: number, key: string) =>
    errors.validation(`Invalid \`steps[${index}].key\` field: the key \`${key}\` is used by another step.`, 422)),
  /** 422: the connection at `index` names, at its `end` (`from` or `to`), a `key` no step has. */
  unknownStepKey: message('emulator choice', (index: number, end: 'from' | 'to', key: string) =>
    errors.validation(`Invalid \`connections[${index}].${end}\` field: no step has the key \`${key}\`.`, 422)),
  /** 422: the connection at `index` leads to the trigger step. */
  connectionToTrigger: message('emulator choice', (index: number) =>
    errors.validation(`Invalid \`connections[${index}].to\` field: a connection cannot lead to the trigger step.`, 422)),
  /** 422: the connection at `index` has a `type` its source step (of type `sourceType`) does not allow; `allowed` lists the ones it does. */
  connectionType: message('emulator choice', (index: number, sourceType: string, allowed: readonly string[]) =>
    errors.validation(`Invalid \`connections[${index}].type\` field: a connection from a \`${sourceType}\` step must be of type ${allowed.join(', ')}.`, 422)),
  /** 422: the connections form a cycle; `key` is the step where the walk met itself. */
  cycle: message('emulator choice', (key: string) =>
    errors.validation(`Invalid \`connections\` field: the steps form a cycle through \`${key}\`.`, 422)),
};
