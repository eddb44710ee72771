/**
 * The one error type of the emulator, rendered in the real service's shape
 * `{"statusCode": N, "message": "...", "name": "..."}` (API-FACTS §2, key
 * order as recorded). Handlers throw `ApiError`; the app's error handler
 * renders it. Anything else thrown is a bug and renders as 500
 * `application_error` (never an HTML page).
 */

/** Error names of the real service (API-FACTS §2.1). */
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
  // Raised only by injected faults (src/faults/): the rest of API-FACTS §2.1 and the SDK's union.
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
  | 'invalid_admin_token';


/**
 * The service's text for each error name (D:api-reference/errors; the SDK's
 * text for `application_error`), used when an injected fault gives no
 * `message` (src/faults/). Statuses with more than one name use the first
 * of `NAME_FOR_STATUS`.
 */
export const SERVICE_MESSAGES: Record<ErrorName, string> = {
  invalid_idempotency_key: 'The key must be between 1-256 chars.',
  validation_error: 'We found an error with one or more fields in the request.',
  missing_api_key: 'Missing API key in the authorization header. Include the following header in the request: Authorization: Bearer YOUR_API_KEY',
  restricted_api_key: 'This API key is restricted to only send emails',
  invalid_api_key: 'API key is invalid',
  suspended_api_key: 'This API key is suspended.',
  invalid_permission: 'This API key does not have the permission to perform this action.',
  email_above_quota: 'This email is above your quota.',
  not_found: 'The requested endpoint does not exist.',
  method_not_allowed: 'Method is not allowed for the requested path.',
  invalid_idempotent_request: 'Same idempotency key used with a different request payload. Change your idempotency key or payload.',
  concurrent_idempotent_requests: 'Same idempotency key used while original request is still in progress.',
  resource_locked: 'The resource is being updated by another request. Try again later.',
  invalid_attachment: 'Attachment must have either a `content` or `path`.',
  invalid_parameter: 'A parameter is invalid.',
  missing_required_field: 'A required field is missing.',
  missing_required_parameter: 'A required parameter is missing.',
  payload_too_large: 'The request body is too large.',
  daily_quota_exceeded: 'You have reached your daily email sending quota.',
  monthly_quota_exceeded: 'You have reached your monthly email sending quota.',
  rate_limit_exceeded: 'Too many requests. See rate limit response headers for more information.',
  application_error: 'Internal server error. We are unable to process your request right now, please try again later.',
  service_unavailable: 'The service is unavailable right now. Please try again later.',
  invalid_from_address: 'Invalid `from` field.',
  invalid_access: 'Access denied.',
  invalid_region: 'Invalid region.',
  security_error: 'A security error occurred.',
  internal_server_error: 'Internal server error. We are unable to process your request right now, please try again later.',
  forbidden_host: 'The admin API does not answer to this Host.',
  forbidden_origin: 'The admin API does not answer requests from another origin.',
  missing_admin_token: 'Missing admin token. Include the following header in the request: Authorization: Bearer ADMIN_TOKEN',
  invalid_admin_token: 'Admin token is invalid',
};

/**
 * The service's name for an HTTP status (API-FACTS §2.1 table; where a
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

/** The status of an error name (API-FACTS §2.1; where there are several, the usual one: 422 for `validation_error`). */
export const STATUS_FOR_NAME: Readonly<Record<ErrorName, number>> = {
  invalid_idempotency_key: 400,
  validation_error: 422,
  missing_api_key: 401,
  restricted_api_key: 401,
  invalid_api_key: 403,
  suspended_api_key: 403,
  invalid_permission: 403,
  email_above_quota: 403,
  not_found: 404,
  method_not_allowed: 405,
  invalid_idempotent_request: 409,
  concurrent_idempotent_requests: 409,
  resource_locked: 409,
  invalid_attachment: 422,
  invalid_parameter: 422,
  missing_required_field: 422,
  missing_required_parameter: 422,
  payload_too_large: 413,
  daily_quota_exceeded: 429,
  monthly_quota_exceeded: 429,
  rate_limit_exceeded: 429,
  application_error: 500,
  service_unavailable: 503,
  invalid_from_address: 422,
  invalid_access: 403,
  invalid_region: 422,
  security_error: 403,
  internal_server_error: 500,
  forbidden_host: 403,
  forbidden_origin: 403,
  missing_admin_token: 401,
  invalid_admin_token: 401,
};

/** An API error; `statusCode` is the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    override readonly name: ErrorName,
    message: string,
    /** Extra response headers (e.g. `retry-after` on 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  /** The response body, keys in the recorded order. */
  toJSON(): { statusCode: number; message: string; name: string } {
    return { statusCode: this.statusCode, message: this.message, name: this.name };
  }
}

/**
 * Error templates (the Prism idea: a small table, not messages scattered
 * through handlers). Each returns an `ApiError` to throw.
 */
export const errors = {
  /** 401, no Authorization header (API-FACTS §2.1). */
  missingApiKey: () => new ApiError(401, 'missing_api_key', 'Missing API key in the authorization header. Include the following header in the request: Authorization: Bearer YOUR_API_KEY'),
  /** 403, unknown token (API-FACTS §2.1). */
  invalidApiKey: () => new ApiError(403, 'invalid_api_key', 'API key is invalid'),
  /** 401, `sending_access` key outside sending (API-FACTS §2.1). */
  restrictedApiKey: () => new ApiError(401, 'restricted_api_key', 'This API key is restricted to only send emails'),
  /** 404 for a resource; `what` as the service words it, e.g. `API key`, `Audience`. */
  notFound: (what: string) => new ApiError(404, 'not_found', `${what} not found`),
  /** 404, no route. */
  routeNotFound: () => new ApiError(404, 'not_found', 'The requested endpoint does not exist.'),
  /** 405, path exists with another method. */
  methodNotAllowed: () => new ApiError(405, 'method_not_allowed', 'Method is not allowed for the requested path.'),
  /** 422, a required body field is absent: ``Missing `name` field.`` (REC:SEG-create-handles-validation-errors). */
  missingField: (field: string) => new ApiError(422, 'missing_required_field', `Missing \`${field}\` field.`),
  /** 422, a required query parameter is absent. */
  missingParameter: (param: string) => new ApiError(422, 'missing_required_parameter', `Missing \`${param}\` parameter.`),
  /** 422, a malformed value such as a non-UUID id (API-FACTS §2.1). */
  invalidParameter: (message: string) => new ApiError(422, 'invalid_parameter', message),
  /** Generic field problem, 400 unless the service uses another status (API-FACTS §2.1). */
  validation: (message: string, status = 400) => new ApiError(status, 'validation_error', message),
  /** 422 pagination error with the documented message (API-FACTS §2.1). */
  paginationLimit: () =>
    new ApiError(422, 'validation_error', 'The pagination limit must be a number between 1 and 100. See https://resend.com/docs/pagination for more information.'),
  /** 422, both `after` and `before` given (interface-spec "Pagination"). */
  bothCursors: () =>
    new ApiError(422, 'validation_error', 'You can only use either the `after` or `before` parameter, not both. See https://resend.com/docs/pagination for more information.'),
  /** 422, an `after`/`before` cursor that names no item of the list (interface-spec "Pagination"). */
  unknownCursor: (which: 'after' | 'before', id: string) =>
    new ApiError(422, 'validation_error', `The \`${which}\` cursor \`${id}\` does not match any item of this list. See https://resend.com/docs/pagination for more information.`),
  /** 413, body over the size limit. */
  payloadTooLarge: (limit: string) => new ApiError(413, 'payload_too_large', `The request body is too large; the maximum is ${limit}.`),
  /** 429 over the per-second limit, with `retry-after` (seconds, a string) as its one header (API-FACTS §2.1, §4). */
  rateLimitExceeded: (limit: number, retryAfter: string) =>
    new ApiError(
      429,
      'rate_limit_exceeded',
      `Too many requests. You can only make ${limit} request${limit === 1 ? '' : 's'} per second. See rate limit response headers for more information.`,
      { 'retry-after': retryAfter },
    ),
} as const;
