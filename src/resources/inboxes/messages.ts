/**
 * The error messages of the inboxes resource, each with where its text comes
 * from (`message`, src/http/errors.ts: a fact of docs/reference/, a recording, an SDK,
 * or our own wording where the records are silent). Shared templates
 * (`errors.notFound`, `errors.missingField`, …) stay in src/http/errors.ts.
 *
 * The texts the service documents for the thread list and search, and those
 * of the SDK's unit-test mocks, are listed in docs/reference/inboxes.md#inbox-errors;
 * every other text here is ours (the rules they enforce are cited on each).
 */
import { ApiError, errors, message } from '../../http/errors.js';

/** The record of the service's own inbox texts (documentation and SDK mocks). */
const DOCUMENTED = 'docs/reference/inboxes.md#inbox-errors';

export const inboxMessages = {
  // Not found (404 `not_found`).

  /** 404 `Inbox not found.` (documented, and in the SDK's mocks). */
  inboxNotFound: message(DOCUMENTED, () => new ApiError(404, 'not_found', 'Inbox not found.')),
  /** 404 `Thread not found.`: not recorded, ours (docs/reference/inboxes.md#inbox-errors). */
  threadNotFound: message('emulator choice', () => new ApiError(404, 'not_found', 'Thread not found.')),
  /** 404 `Email not found.`: an email that is not the thread's; not recorded, ours (docs/reference/inboxes.md#inbox-errors). */
  emailNotFound: message('emulator choice', () => new ApiError(404, 'not_found', 'Email not found.')),
  /** 404 `Draft not found.`: not recorded, ours (docs/reference/inboxes.md#inbox-errors). */
  draftNotFound: message('emulator choice', () => new ApiError(404, 'not_found', 'Draft not found.')),
  /** 404 `Label not found.`: a label in the path; not recorded, ours (docs/reference/inboxes.md#inbox-errors). */
  labelNotFound: message('emulator choice', () => new ApiError(404, 'not_found', 'Label not found.')),
  /** 404 ``Label "<id>" not found.``: a label named in a `labels` filter or list (documented for the thread list and search). */
  namedLabelNotFound: message(DOCUMENTED, (id: string) => new ApiError(404, 'not_found', `Label "${id}" not found.`)),

  // Inboxes (docs/reference/inboxes.md#inbox-endpoints; docs/reference/inboxes.md#creating-an-inbox).

  /** 422: `from_name` with an address or a line break in it. */
  fromNameNotPlain: message('emulator choice', () => errors.validation('The `from_name` field must be a plain name, such as `Acme Support`, without an email address.', 422)),
  /** 422: `email_address` that is not a bare address. */
  invalidInboxAddress: message('emulator choice', () => errors.validation('Invalid `email_address` field. The email address needs to follow the `email@example.com` format.', 422)),
  /** 422: `email_address` on a domain the team does not have. */
  inboxDomainUnknown: message('emulator choice', (domain: string) => errors.validation(`The \`email_address\` domain \`${domain}\` is not a domain of this team. Add and verify it first.`, 422)),
  /** 422: `email_address` on a domain not verified. */
  inboxDomainNotVerified: message('emulator choice', (domain: string) => errors.validation(`The \`email_address\` domain \`${domain}\` is not verified. Please, verify your domain.`, 422)),
  /** 422: `email_address` on a domain that does not receive, without `forwarding: true`. */
  inboxDomainNotReceiving: message('emulator choice', (domain: string) =>
    errors.validation(`The \`email_address\` domain \`${domain}\` does not receive emails. Enable receiving on it, or create the inbox with \`forwarding: true\`.`, 422)),
  /** 422: `email_address` that is already an inbox of the team. */
  inboxExists: message('emulator choice', (address: string) => errors.validation(`The \`email_address\` \`${address}\` is already an inbox.`, 422)),
  /** 422 ``Missing `name` or `from_name` field.``: an update with neither (the SDK's type requires one). */
  inboxUpdateEmpty: message('emulator choice', () => errors.missingField('name` or `from_name')),

  // Thread list and search (documented texts).

  /** 422: more than 50 label ids in `labels`. */
  tooManyLabelFilters: message(DOCUMENTED, (n: number) => errors.validation(`The \`labels\` parameter must contain at most 50 label IDs, but received ${n}.`, 422)),
  /** 422: a `labels` value that is not a UUID. */
  labelFilterNotUuid: message(DOCUMENTED, (id: string) => errors.validation(`The \`labels\` value "${id}" must be a valid UUID.`, 422)),
  /** 422: a `folders` value that is not a folder. */
  unknownFolder: message(DOCUMENTED, (folder: string) => errors.validation(`The \`folders\` value "${folder}" must be one of: inbox, archive, spam, sent, trash.`, 422)),
  /** 404: an `after`/`before` cursor shaped as an id that names no thread of the inbox. */
  cursorNotFound: message(DOCUMENTED, () =>
    new ApiError(404, 'not_found', 'The pagination cursor references an object that does not exist. See https://resend.com/docs/api-reference/pagination for more information.')),
  /** 422: an `after`/`before` cursor that is not a thread id (a date, say); names the search's date bound instead. */
  cursorNotThread: message(DOCUMENTED, (which: 'after' | 'before', bound: 'start_date' | 'end_date') =>
    errors.validation(`The \`${which}\` parameter must be a thread ID. To filter by date, use \`GET /inboxes/:id/threads/search\` with \`${bound}\`.`, 422)),
  /** 422: a `start_date`/`end_date` that is not an ISO 8601 date. */
  invalidDate: message(DOCUMENTED, (field: 'start_date' | 'end_date') => errors.validation(`The \`${field}\` must be a valid ISO 8601 date.`, 422)),
  /** 422: `query` over 256 characters (`length`). */
  queryTooLong: message(DOCUMENTED, (length: number) => errors.validation(`The \`query\` parameter must be at most 256 characters, but received ${length}.`, 422)),
  /** 422: an address filter (`from`, `to`, `cc`, `bcc`) with more than 20 values. */
  tooManyValues: message(DOCUMENTED, (field: string, n: number) => errors.validation(`The \`${field}\` parameter must contain at most 20 values, but received ${n}.`, 422)),
  /** 422: `query` with more than 32 words. */
  tooManyWords: message(DOCUMENTED, (n: number) => errors.validation(`The \`query\` parameter must contain at most 32 words, but received ${n}.`, 422)),
  /** 422: `start_date` after `end_date`. */
  datesReversed: message(DOCUMENTED, () => errors.validation('The `start_date` must be on or before the `end_date`.', 422)),
  /** 422 ``Missing `read` or `folder` field.``: a thread update with neither (docs/reference/inboxes.md#thread-endpoints). */
  threadUpdateEmpty: message('emulator choice', () => errors.missingField('read` or `folder')),

  // Labels (docs/reference/inboxes.md#label-rules).

  /** 422: a label name the inbox already has (case-insensitively). */
  labelNameTaken: message('emulator choice', (name: string) => errors.validation(`A label named \`${name}\` already exists in this inbox.`, 422)),
  /** 422: an inbox with `max` labels already. */
  tooManyLabels: message('emulator choice', (max: number) => errors.validation(`An inbox can have at most ${max} labels.`, 422)),

  // Drafts (docs/reference/inboxes.md#draft-rules; docs/reference/inboxes.md#sent-drafts).

  /** 422: a draft with no non-empty field (in the SDK's mocks). */
  draftEmpty: message(DOCUMENTED, () => errors.validation('A draft must contain at least one non-empty field.', 422)),
  /** 422: a draft update with no field. */
  draftUpdateEmpty: message('emulator choice', () => errors.validation('Give at least one field to change: `to`, `cc`, `bcc`, `subject`, `text`, `html` or `attachments`.', 422)),
  /** 422: more than 50 recipients on a draft (`n`). */
  draftTooManyRecipients: message('emulator choice', (n: number) => errors.validation(`A draft can have at most 50 recipients, but this one has ${n}.`, 422)),
  /** 422: a draft recipient that is not an address (the wording of the sending's address error). */
  draftInvalidRecipient: message('emulator choice', (address: string) =>
    errors.validation(`Invalid recipient \`${address}\`. The email address needs to follow the \`email@example.com\` or \`Name <email@example.com>\` format.`, 422)),
  /** 422: draft files over 25 MB in all. */
  draftFilesTooLarge: message('emulator choice', () => errors.validation('The files on a draft can total at most 25 MB.', 422)),
  /** 422: only one of `thread_id` and `reply_to_email_id`. */
  draftReplyFieldsApart: message('emulator choice', () => errors.validation('The `thread_id` and `reply_to_email_id` fields must be given together, or neither.', 422)),
  /** 409 `validation_error`: updating or sending a sent draft. */
  draftAlreadySent: message('emulator choice', () => new ApiError(409, 'validation_error', 'This draft has already been sent.')),
  /** 422: sending a draft with no `to`. */
  draftNoRecipient: message('emulator choice', () => errors.validation('The draft has no recipient: set `to` before sending it.', 422)),

  // Reply, forward and sending from an inbox (docs/reference/inboxes.md#reply-and-forward).

  /** 422 ``Missing `html` or `text` field.``: a reply with neither (in the SDK's mocks). */
  replyBodyMissing: message(DOCUMENTED, () => errors.missingField('html` or `text')),
  /** 422: more than 50 recipients on a reply or forward (`n`, after `reply_all`). */
  tooManyRecipients: message('emulator choice', (n: number) => errors.validation(`An email can have at most 50 recipients, but this one has ${n}.`, 422)),
  /** 422: a custom header with an empty name. */
  headerNameEmpty: message('emulator choice', () => errors.validation('The `headers` field cannot have an empty header name.', 422)),
  /** 422: a custom header with CR, LF or NUL in its name or value (`name` with them blanked). */
  headerLineBreak: message('emulator choice', (name: string) => errors.validation(`The \`headers\` field's \`${name}\` header cannot contain line breaks or null characters.`, 422)),
  /** 422: `In-Reply-To`, `References` or `Reply-To` in `headers`. */
  headerReserved: message('emulator choice', (name: string) => errors.validation(`The \`${name}\` header is set by Resend and cannot be set in \`headers\`.`, 422)),
  /** 422 `invalid_attachment`: a file whose `content` decodes to nothing. */
  attachmentEmpty: message('emulator choice', (filename: string) => new ApiError(422, 'invalid_attachment', `The attachment \`${filename}\` is empty.`)),
  /** 422 `invalid_attachment`: a `path` that is not http(s) or points to the local machine. */
  attachmentPathRefused: message('emulator choice', () =>
    new ApiError(422, 'invalid_attachment', 'An attachment `path` must be an `http` or `https` URL that does not point to `localhost`, `127.0.0.1` or `0.0.0.0`.')),
  /** 422: more than `max` files (`n`). */
  tooManyAttachments: message('emulator choice', (max: number, n: number) => errors.validation(`The \`attachments\` field can have at most ${max} files, but received ${n}.`, 422)),
  /** 422: more than 25 MB of decoded `content`. */
  attachmentsTooLarge: message('emulator choice', () => errors.validation('The `attachments` field can have at most 25 MB of `content`.', 422)),
  /** 422 `invalid_attachment`: forwarding an email one of whose files was sent from a URL. */
  forwardPathAttachment: message('emulator choice', () =>
    new ApiError(422, 'invalid_attachment', 'An attachment of the original email was sent from a URL (`path`) and cannot be forwarded.')),
  /** 422: an email from an inbox with no recipient. */
  noRecipient: message('emulator choice', () => errors.validation('The email has no recipient: give `to`.', 422)),

  // Agent (docs/reference/inboxes.md#agent-settings; docs/reference/inboxes.md#agent).

  /** 422 ``Missing `instructions`, `tone` or `actions` field.``: a settings update with none (the SDK's type requires one). */
  agentUpdateEmpty: message('emulator choice', () => errors.missingField('instructions`, `tone` or `actions')),
  /** 422: the admin agent hook performing an action the settings do not enable. */
  actionNotEnabled: message('emulator choice', (action: string) => errors.validation(`The \`${action}\` action is not enabled in this inbox's agent settings (\`actions\`).`, 422)),
};
