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
  // Emulator-only: the admin API's guard (src/admin/guard.ts).
  | 'forbidden_host'
  | 'forbidden_origin'
  | 'missing_admin_token'
  | 'invalid_admin_token';

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
