/**
 * The one error type of the emulator, rendered in the real service's shape
 * `{"statusCode": N, "message": "...", "name": "..."}` (docs/reference/errors.md#error-body, key
 * order as recorded). Handlers throw `ApiError`; the app's error handler
 * renders it. Anything else thrown is a bug and renders as 500
 * `application_error` (never an HTML page).
 */

/** Error names of the real service (docs/reference/errors.md#error-names-and-statuses). */
export type ErrorName =
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'restricted_api_key'
  | 'invalid_permission'
  | 'validation_error'
  | 'invalid_parameter'
  | 'missing_required_field'
  | 'missing_required_parameter'
  | 'invalid_attachment'
  | 'invalid_from_address'
  | 'invalid_idempotency_key'
  | 'invalid_idempotent_request'
  | 'concurrent_idempotent_requests'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'rate_limit_exceeded'
  | 'daily_quota_exceeded'
  | 'application_error'
  // Raised only by injected faults (src/faults/): the rest of docs/reference/errors.md#error-names-and-statuses and the SDK's union.
  | 'suspended_api_key'
  | 'email_above_quota'
  | 'resource_locked'
  | 'monthly_quota_exceeded'
  | 'service_unavailable'
  | 'invalid_access'
  | 'invalid_region'
  | 'security_error'
  | 'internal_server_error'
  // Emulator-only: the admin API's guard (src/admin/guard.ts).
  | 'forbidden_host'
  | 'forbidden_origin'
  | 'missing_admin_token'
  | 'invalid_admin_token'
  // Emulator-only: releasing an email to a real mail server (src/admin/release.ts, `--relay`).
  | 'relay_not_configured'
  | 'recipient_not_allowed'
  | 'relay_failed'
  // Emulator-only: the machine's fault, a full store (src/http/store-full.ts).
  | 'insufficient_storage';


/**
 * Every error name the emulator answers with: its usual status (docs/reference/errors.md#error-names-and-statuses;
 * where there are several, the usual one: 422 for `validation_error`)
 * and the service's text for it (D:api-reference/errors; the SDK's text for
 * `application_error`), used when an injected fault gives no `message`
 * (src/faults/). One row a name, so a name cannot miss its status or text.
 */
export const ERROR_NAMES: Readonly<Record<ErrorName, { status: number; message: string }>> = {
  invalid_idempotency_key: { status: 400, message: 'The key must be between 1-256 chars.' },
  validation_error: { status: 422, message: 'We found an error with one or more fields in the request.' },
  missing_api_key: { status: 401, message: 'Missing API key in the authorization header. Include the following header in the request: Authorization: Bearer YOUR_API_KEY' },
  restricted_api_key: { status: 401, message: 'This API key is restricted to only send emails' },
  invalid_api_key: { status: 403, message: 'API key is invalid' },
  suspended_api_key: { status: 403, message: 'This API key is suspended.' },
  invalid_permission: { status: 403, message: 'This API key does not have the permission to perform this action.' },
  email_above_quota: { status: 403, message: 'This email is above your quota.' },
  not_found: { status: 404, message: 'The requested endpoint does not exist.' },
  method_not_allowed: { status: 405, message: 'Method is not allowed for the requested path.' },
  invalid_idempotent_request: { status: 409, message: 'Same idempotency key used with a different request payload. Change your idempotency key or payload.' },
  concurrent_idempotent_requests: { status: 409, message: 'Same idempotency key used while original request is still in progress.' },
  resource_locked: { status: 409, message: 'The resource is being updated by another request. Try again later.' },
  invalid_attachment: { status: 422, message: 'Attachment must have either a `content` or `path`.' },
  invalid_parameter: { status: 422, message: 'A parameter is invalid.' },
  missing_required_field: { status: 422, message: 'A required field is missing.' },
  missing_required_parameter: { status: 422, message: 'A required parameter is missing.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  daily_quota_exceeded: { status: 429, message: 'You have reached your daily email sending quota.' },
  monthly_quota_exceeded: { status: 429, message: 'You have reached your monthly email sending quota.' },
  rate_limit_exceeded: { status: 429, message: 'Too many requests. See rate limit response headers for more information.' },
  application_error: { status: 500, message: 'Internal server error. We are unable to process your request right now, please try again later.' },
  service_unavailable: { status: 503, message: 'The service is unavailable right now. Please try again later.' },
  invalid_from_address: { status: 422, message: 'Invalid `from` field.' },
  invalid_access: { status: 403, message: 'Access denied.' },
  invalid_region: { status: 422, message: 'Invalid region.' },
  security_error: { status: 403, message: 'A security error occurred.' },
  internal_server_error: { status: 500, message: 'Internal server error. We are unable to process your request right now, please try again later.' },
  forbidden_host: { status: 403, message: 'The admin API does not answer to this Host.' },
  forbidden_origin: { status: 403, message: 'The admin API does not answer requests from another origin.' },
  missing_admin_token: { status: 401, message: 'Missing admin token. Include the following header in the request: Authorization: Bearer ADMIN_TOKEN' },
  invalid_admin_token: { status: 401, message: 'Admin token is invalid' },
  relay_not_configured: { status: 409, message: 'No relay is configured (--relay).' },
  recipient_not_allowed: { status: 403, message: 'The recipient is not allowed by --relay-allow.' },
  relay_failed: { status: 502, message: 'The relay did not take the message.' },
  insufficient_storage: { status: 507, message: "The emulator's store is full. Free space on its disk and retry: nothing was written." },
};

/** The service's text for each error name (`ERROR_NAMES`). Statuses with more than one name use the first of `NAME_FOR_STATUS`. */
export const SERVICE_MESSAGES = Object.fromEntries(Object.entries(ERROR_NAMES).map(([name, e]) => [name, e.message])) as Readonly<Record<ErrorName, string>>;

/**
 * The service's name for an HTTP status (docs/reference/errors.md#error-names-and-statuses table; where a
 * status has several names, the general one). Statuses not listed have no
 * name of their own: an injected fault must then give one.
 */
export const NAME_FOR_STATUS: Readonly<Record<number, ErrorName>> = {
  400: 'validation_error',
  401: 'missing_api_key',
  403: 'invalid_api_key',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'concurrent_idempotent_requests',
  413: 'payload_too_large',
  422: 'validation_error',
  429: 'rate_limit_exceeded',
  500: 'application_error',
  503: 'service_unavailable',
};

/** The usual status of an error name (`ERROR_NAMES`). */
export const STATUS_FOR_NAME = Object.fromEntries(Object.entries(ERROR_NAMES).map(([name, e]) => [name, e.status])) as Readonly<Record<ErrorName, number>>;

/**
 * Why a request was refused, as a code for what answers in another protocol
 * than HTTP: the SMTP relay maps each to its reply code
 * (`SMTP_REPLY_CODES`, src/smtp/server.ts), so rewording a message never
 * changes a reply code. Set where the error is made (a messages table's
 * entry, `withReason`); an error without one is a refusal no other protocol
 * tells apart. One entry a reason, with what it means.
 */
export const ERROR_REASONS = {
  /** No `from`: none given and none from the template. */
  sender_missing: 'The email has no sender (`from`).',
  /** A `from` that is neither `a@b.c` nor `Name <a@b.c>`. */
  sender_invalid: 'The sender (`from`) is not an email address.',
  /** A `from` whose domain is not a verified domain of the team. */
  sender_domain_not_verified: "The sender's domain is not a verified domain of the team.",
  /** A key restricted to one domain, sending from another. */
  sender_domain_not_allowed: "The API key may not send from the sender's domain.",
  /** The testing sender (`@resend.dev`) mailing someone other than the team's owner. */
  recipient_not_allowed: 'A recipient this sender may not send to.',
  /** A `to`, `cc`, `bcc` or `reply_to` address that is not an email address. */
  address_invalid: 'An address other than the sender is not an email address.',
} as const;

/** A reason of `ERROR_REASONS`. */
export type ErrorReason = keyof typeof ERROR_REASONS;

/** An API error; `statusCode` is the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    override readonly name: ErrorName,
    message: string,
    /** Extra response headers (e.g. `retry-after` on 429). */
    readonly headers: Record<string, string> = {},
    /** Why, as a code (`ERROR_REASONS`); not rendered in the HTTP answer. */
    readonly reason: ErrorReason | null = null,
  ) {
    super(message);
  }

  /** The same error (status, name, text, headers) with `reason`: how a messages table's entry tags what it makes. */
  withReason(reason: ErrorReason): ApiError {
    return new ApiError(this.statusCode, this.name, this.message, this.headers, reason);
  }

  /** The response body, keys in the recorded order. */
  toJSON(): { statusCode: number; message: string; name: string } {
    return { statusCode: this.statusCode, message: this.message, name: this.name };
  }
}

/**
 * Where an error message's text comes from: a fact of the record
 * (`docs/reference/errors.md#error-names-and-statuses`), a recording (`REC:…`), an SDK's source (`SDK:…`), a
 * page of the service's documentation (`D:…`), or our own wording where the
 * records are silent (`emulator choice`).
 */
export type MessageSource = `docs/reference/${string}` | `REC:${string}` | `SDK:${string}` | `D:${string}` | 'emulator choice';

/** An entry of a resource's messages table: a function that makes the `ApiError`, with the `source` of its text. */
export type Message<A extends unknown[]> = ((...args: A) => ApiError) & { readonly source: MessageSource };

/**
 * An entry of a messages table (`src/resources/<resource>/messages.ts`, one
 * per resource; the shared templates are `errors` below): `make` builds the
 * error (status, name and text), `source` says where the text comes from.
 */
export function message<A extends unknown[]>(source: MessageSource, make: (...args: A) => ApiError): Message<A> {
  return Object.assign(make, { source });
}

/**
 * Error templates (the Prism idea: a small table, not messages scattered
 * through handlers). Each returns an `ApiError` to throw. A resource's own
 * messages are in its `messages.ts`, each with its source (`message`).
 */
export const errors = {
  /** 401, no Authorization header (docs/reference/errors.md#error-names-and-statuses). */
  missingApiKey: () => new ApiError(401, 'missing_api_key', 'Missing API key in the authorization header. Include the following header in the request: Authorization: Bearer YOUR_API_KEY'),
  /** 403, unknown token (docs/reference/errors.md#error-names-and-statuses). */
  invalidApiKey: () => new ApiError(403, 'invalid_api_key', 'API key is invalid'),
  /** 401, `sending_access` key outside sending (docs/reference/errors.md#error-names-and-statuses). */
  restrictedApiKey: () => new ApiError(401, 'restricted_api_key', 'This API key is restricted to only send emails'),
  /** 404 for a resource; `what` as the service words it, e.g. `API key`, `Audience`. */
  notFound: (what: string) => new ApiError(404, 'not_found', `${what} not found`),
  /** 404, no route. */
  routeNotFound: () => new ApiError(404, 'not_found', 'The requested endpoint does not exist.'),
  /** 503, a request to an emulator after its `close()` (emulator choice: the service's name for a service that is not there). */
  emulatorClosed: () => new ApiError(503, 'service_unavailable', 'The emulator is closed.'),
  /** 405, path exists with another method. */
  methodNotAllowed: () => new ApiError(405, 'method_not_allowed', 'Method is not allowed for the requested path.'),
  /** 422, a required body field is absent: ``Missing `name` field.`` (REC:SEG-create-handles-validation-errors). */
  missingField: (field: string) => new ApiError(422, 'missing_required_field', `Missing \`${field}\` field.`),
  /** 422, a required query parameter is absent. */
  missingParameter: (param: string) => new ApiError(422, 'missing_required_parameter', `Missing \`${param}\` parameter.`),
  /** 422, a malformed value such as a non-UUID id (docs/reference/errors.md#error-names-and-statuses). */
  invalidParameter: (message: string) => new ApiError(422, 'invalid_parameter', message),
  /** Generic field problem, 400 unless the service uses another status (docs/reference/errors.md#error-names-and-statuses). */
  validation: (message: string, status = 400) => new ApiError(status, 'validation_error', message),
  /** 422 pagination error with the documented message (docs/reference/errors.md#error-names-and-statuses). */
  paginationLimit: () =>
    new ApiError(422, 'validation_error', 'The pagination limit must be a number between 1 and 100. See https://resend.com/docs/pagination for more information.'),
  /** 422, both `after` and `before` given (docs/reference/interface-spec.md#pagination). */
  bothCursors: () =>
    new ApiError(422, 'validation_error', 'You can only use either the `after` or `before` parameter, not both. See https://resend.com/docs/pagination for more information.'),
  /** 422, an `after`/`before` cursor that names no item of the list (docs/reference/interface-spec.md#pagination). */
  unknownCursor: (which: 'after' | 'before', id: string) =>
    new ApiError(422, 'validation_error', `The \`${which}\` cursor \`${id}\` does not match any item of this list. See https://resend.com/docs/pagination for more information.`),
  /** 413, body over the size limit. */
  payloadTooLarge: (limit: string) => new ApiError(413, 'payload_too_large', `The request body is too large; the maximum is ${limit}.`),
  /** 429 over the per-second limit, with `retry-after` (seconds, a string) as its one header (docs/reference/errors.md#error-names-and-statuses; docs/reference/formats.md#rate-limits). */
  rateLimitExceeded: (limit: number, retryAfter: string) =>
    new ApiError(
      429,
      'rate_limit_exceeded',
      `Too many requests. You can only make ${limit} request${limit === 1 ? '' : 's'} per second. See rate limit response headers for more information.`,
      { 'retry-after': retryAfter },
    ),
} as const;
