/**
 * The error messages of the emails resource (POST /emails, the batch, the
 * schedule, sharing and metrics), each with where its text comes from
 * (`message`, src/http/errors.ts: a fact of docs/reference/, a recording, an
 * SDK, or our own wording where the records are silent). The rules are
 * those of docs/reference/resources.md#emails and
 * docs/reference/resources.md#batch-sends; where only the rule is recorded,
 * the text is ours. Shared templates (`errors.notFound`,
 * `errors.missingField`, …) stay in src/http/errors.ts.
 */
import { ApiError, errors, message } from '../../http/errors.js';

export const emailMessages = {
  // Sender rules (POST /emails, batch items, broadcasts, SMTP, inbox sends).

  /**
   * 403: the testing sender `@resend.dev` mailing someone other than the team's
   * owner (`owner`, their address) and `@resend.dev` addresses
   * (docs/reference/errors.md#error-names-and-statuses, the 403 row).
   */
  testingSenderOnly: message('docs/reference/errors.md#error-names-and-statuses', (owner: string) =>
    errors.validation(
      `You can only send testing emails to your own email address (${owner}). To send emails to other recipients, please verify a domain at resend.com/domains, and change the \`from\` address to an email using this domain.`,
      403,
    ).withReason('recipient_not_allowed')),
  /** 403: a `from` domain (`domain`, e.g. `x.com`) that is not a verified domain of the team; the message names it and says to add and verify it (docs/reference/errors.md#error-names-and-statuses, the 403 row). */
  domainNotVerified: message('docs/reference/errors.md#error-names-and-statuses', (domain: string) =>
    errors.validation(`The \`${domain}\` domain is not verified. Please, add and verify your domain.`, 403).withReason('sender_domain_not_verified')),
  /** 403: a key restricted to one domain (`domain`, its name, or its id when the domain is gone) sending from another (docs/reference/design.md#auth). */
  keyRestrictedToDomain: message('emulator choice', (domain: string) =>
    errors.validation(`This API key can only send emails from the \`${domain}\` domain.`, 403).withReason('sender_domain_not_allowed')),

  // Fields of POST /emails.

  /** 422 `missing_required_field`: no `from`, none given and none from the template (the shared template's text, REC:SEG-create-handles-validation-errors). */
  missingFrom: message('REC:SEG-create-handles-validation-errors', () => errors.missingField('from').withReason('sender_missing')),
  /**
   * 422: an address of `field` (`from`, `to`, `cc`, `bcc`, `reply_to`) that is
   * neither `a@b.c` nor `Name <a@b.c>`. The text is the one of resend-node's
   * mock (src/broadcasts/broadcasts.spec.ts, there as `invalid_parameter` and
   * without the final period); the name is the general `validation_error`.
   */
  invalidAddress: message('SDK:resend-node src/broadcasts/broadcasts.spec.ts', (field: 'from' | 'to' | 'cc' | 'bcc' | 'reply_to') =>
    errors.validation(`Invalid \`${field}\` field. The email address needs to follow the \`email@example.com\` or \`Name <email@example.com>\` format.`, 422)
      .withReason(field === 'from' ? 'sender_invalid' : 'address_invalid')),
  /** 400: `from` given as `""` without a template (with one, `""` means "the template's": resend-go sends it so). */
  emptyFrom: message('emulator choice', () => errors.validation('The `from` field must not be empty.', 400)),
  /** 422: a `template` together with `html` or `text` (docs/reference/resources.md#emails: a template excludes them). */
  templateWithContent: message('emulator choice', () =>
    errors.validation('The `template` field cannot be used together with `html` or `text`.', 422)),
  /** 422 `invalid_attachment`: an attachment `content` string that is not Base64 (the name: docs/reference/errors.md#error-names-and-statuses). */
  attachmentNotBase64: message('emulator choice', () =>
    new ApiError(422, 'invalid_attachment', 'Attachment `content` must be a base64-encoded string.')),
  /**
   * 422 `invalid_attachment`: an attachment `content_type` that is not an RFC
   * 9110 media type in printable ASCII; `given` is the value (its first 100
   * characters are quoted in the text).
   */
  attachmentContentType: message('emulator choice', (given: string) =>
    new ApiError(422, 'invalid_attachment', `Attachment \`content_type\` must be a media type such as \`text/plain\` or \`application/pdf; name="a.pdf"\` (ASCII, no line breaks); got ${JSON.stringify(given.slice(0, 100))}.`)),
  /** 422: attachments over 40 MB in all (docs/reference/resources.md#emails). */
  attachmentsTooLarge: message('emulator choice', () => errors.validation('Attachments may total at most 40 MB per email.', 422)),
  /** 422: an email's or a broadcast's `scheduled_at` that is neither ISO 8601 nor natural language (docs/reference/resources.md#emails; `parseScheduledAt`, the parser of both). */
  scheduledAtUnreadable: message('emulator choice', () =>
    errors.validation('Invalid `scheduled_at` field. Use an ISO 8601 date (e.g. `2026-08-05T11:52:01.858Z`) or natural language (e.g. `in 1 min`, `tomorrow at 9am`, `Friday at 3pm ET`).', 422)),
  /** 422: a `scheduled_at` more than 30 days ahead (docs/reference/resources.md#emails). */
  scheduledAtTooFar: message('emulator choice', () => errors.validation('The `scheduled_at` field must be within the next 30 days.', 422)),

  // The batch (docs/reference/resources.md#batch-sends).

  /** 422: `x-batch-validation` other than `strict` or `permissive` (docs/reference/transport.md#batch-validation-header). */
  batchValidationHeader: message('emulator choice', () =>
    errors.validation('Invalid `x-batch-validation` header. Must be one of: strict, permissive.', 422)),
  /** 422: a batch item with `attachments` (docs/reference/resources.md#batch-sends: a batch has none). */
  batchAttachments: message('emulator choice', () => errors.validation('Attachments are not supported in batch emails.', 422)),

  // A sent email.

  /** 422: moving or cancelling (`action`: `updated`, `canceled`) the email `id` whose `lastEvent` is not `scheduled` (docs/reference/resources.md#emails). */
  notScheduled: message('emulator choice', (id: string, lastEvent: string, action: 'updated' | 'canceled') =>
    errors.validation(`Email \`${id}\` is \`${lastEvent}\`; only scheduled emails can be ${action}.`, 422)),
  /** 422: a share `expires_in` that is unreadable, not positive or over 48 hours (docs/reference/resources.md#emails). */
  shareExpiresIn: message('emulator choice', () =>
    errors.validation('Invalid `expires_in` field. Use a duration like `10m`, `2 hours` or `1 day`, at most 48 hours.', 422)),

  // GET /emails/metrics.

  /** 422: a `start_date` or `end_date` (`param`) that is not an ISO 8601 date or date-time. */
  metricsDate: message('emulator choice', (param: string) =>
    errors.validation(`Invalid \`${param}\` parameter. It must be an ISO 8601 date or date-time.`, 422)),
  /** 422: `start_date` after `end_date`. */
  metricsDateOrder: message('emulator choice', () => errors.validation('The `start_date` must be on or before the `end_date`.', 422)),
  /** 422: a `timezone` (`timeZone`, as given) that is not an IANA time zone. */
  metricsTimeZone: message('emulator choice', (timeZone: string) =>
    errors.validation(`Invalid \`timezone\` parameter \`${timeZone}\`. It must be an IANA time zone such as \`America/New_York\`.`, 422)),
  /** 422: the `email` dimension or `email_id` together with the `broadcast` dimension or `broadcast_id`. */
  metricsEmailAndBroadcast: message('emulator choice', () =>
    errors.validation('The `email` dimension and `email_id` cannot be combined with the `broadcast` dimension or `broadcast_id`.', 422)),
};
