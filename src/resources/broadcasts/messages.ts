/**
 * The error messages of the broadcasts resource, each with where its text
 * comes from (`message`, src/http/errors.ts: a fact of docs/reference/, a
 * recording, an SDK, or our own wording where the records are silent). The
 * rules are those of docs/reference/resources.md#broadcasts (which status
 * allows which action, `scheduled_at` only with `send`); the texts are ours,
 * the service's being unrecorded. The sending rules a broadcast obeys answer
 * with the emails room's messages (`checkSender`); shared templates
 * (`errors.notFound`, …) stay in src/http/errors.ts.
 */
import { errors, message } from '../../http/errors.js';

export const broadcastMessages = {
  // What a broadcast's status allows: 403 `validation_error`, as the service
  // answers the cancel of a draft or sent broadcast.

  /** 403: a change other than `name` to a broadcast whose `status` is past `scheduled`. */
  notEditable: message('emulator choice', (status: string) =>
    errors.validation(`This broadcast cannot be edited because its status is \`${status}\`. Once sending has started only its \`name\` can change.`, 403)),
  /** 403: deleting a broadcast that is not `draft` or `scheduled`. */
  notDeletable: message('emulator choice', (status: string) =>
    errors.validation(`This broadcast cannot be deleted because its status is \`${status}\`. Only \`draft\` and \`scheduled\` broadcasts can be deleted.`, 403)),
  /** 403: sending a broadcast that is not `draft` or `scheduled`. */
  notSendable: message('emulator choice', (status: string) =>
    errors.validation(`This broadcast cannot be sent because its status is \`${status}\`. Only \`draft\` and \`scheduled\` broadcasts can be sent.`, 403)),
  /** 403: cancelling a broadcast that is not `queued` or `scheduled`. */
  notCancelable: message('emulator choice', (status: string) =>
    errors.validation(`This broadcast cannot be canceled because its status is \`${status}\`. Only \`queued\` and \`scheduled\` broadcasts can be canceled.`, 403)),

  // Fields.

  /** 422: `scheduled_at` on a create whose `send` is not `true`. */
  scheduledAtWithoutSend: message('emulator choice', () =>
    errors.validation('The `scheduled_at` field can only be used when `send` is true.', 422)),
  /** 422: sending a broadcast with neither `html` nor `text`. */
  noContent: message('emulator choice', () =>
    errors.validation('The broadcast has no content: set `html` or `text` before sending it.', 422)),
  /** 422: the recipients' `bounce_type` filter with a `type` other than `bounced`. */
  bounceTypeWithoutBounced: message('emulator choice', () =>
    errors.validation('The `bounce_type` parameter can only be used when `type` is `bounced`.', 422)),
};
