/**
 * Fault rules: their shapes and how an input becomes a rule (docs/faults.md;
 * spec `spec/paths/admin-faults.yaml`, schemas `FaultInput` and
 * `FaultRule`). Pure: no store, no clock; `store.ts` keeps the rules and
 * fires them.
 *
 * A rule's kind comes from its fields:
 * | kind | fields | effect |
 * |---|---|---|
 * | `api` | `operation?`, `team_id?`, `status?`, `name?`, `message?`, `latency_ms?` | a matching public API request waits `latency_ms` (wall time), then answers `status` in the service's error shape before its operation runs; with `latency_ms` alone, the normal answer follows the wait |
 * | `smtp` | `smtp` (stage), `team_id?`, `status?`, `message?`, `latency_ms?` | that stage of an SMTP session waits `latency_ms`, then answers `status message` (with `latency_ms` alone, the normal reply follows the wait) |
 * | `outcome` | `outcome`, `team_id?`, `to?`, `reason?` | a matching sent email ends `delivery_delayed`, `failed` or `bounced` on the clock |
 * Every kind takes `probability` (0..1, default 1), `seed` (default 0) and
 * `times` (default unlimited).
 *
 * Defaults of an `api` rule: `status` from `name` (`STATUS_FOR_NAME`), else
 * 500 (none when `latency_ms` alone is given); `name` the service's name for
 * the status (`NAME_FOR_STATUS`; a status without one needs `name`);
 * `message` the service's text for the name (`SERVICE_MESSAGES`; for 429
 * `rate_limit_exceeded` the rate limiter's text with `--rate-limit`, or the
 * documented default of 10 a second).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { ApiError, errors, NAME_FOR_STATUS, SERVICE_MESSAGES, STATUS_FOR_NAME, type ErrorName } from '../http/errors.js';
import { rateLimitHeaders } from '../http/rate-limit-headers.js';
import { toApiError } from '../http/validate.js';
import type { Operation } from '../http/spec.js';
import type { EmailOutcome, FaultInput, FaultRule, SmtpStage } from '../public-types.js';

// The rule shapes are public (`emu.faults`, `startServer({ faults })`): declared in src/public-types.ts.
export type { EmailOutcome, FaultInput, FaultRule, SmtpStage };

/** The SMTP codes an SMTP rule may answer with, and the text each gets by default (RFC 5321 §4.2.2 wording). */
export const SMTP_CODES: Readonly<Record<number, string>> = {
  421: 'Service not available, closing transmission channel',
  450: 'Requested mail action not taken: mailbox unavailable',
  451: 'Requested action aborted: local error in processing',
  452: 'Requested action not taken: insufficient system storage',
  535: 'Authentication credentials invalid',
  550: 'Requested action not taken: mailbox unavailable',
  552: 'Requested mail action aborted: exceeded storage allocation',
  554: 'Transaction failed',
};

/** The code an SMTP rule answers without `status`: 421 at connect, 535 at auth, 451 (try later) from `mail` on. */
export const SMTP_DEFAULT_CODE: Readonly<Record<SmtpStage, number>> = { connect: 421, auth: 535, mail: 451, rcpt: 451, data: 451 };

/** `failed.reason` of an outcome `failed` rule without `reason` (docs/reference/webhooks.md#envelope-and-data: the documented example). */
export const DEFAULT_FAILED_REASON = 'reached_daily_quota';

/** The rate the message of an injected 429 names when `--rate-limit` is off (D:api-reference/rate-limit: 10 a second). */
export const DOCUMENTED_RATE_LIMIT = 10;

/** The public operations of the document, found by operationId or by `METHOD /path`. */
export class OperationIndex {
  private byId = new Map<string, Operation>();
  private byRoute = new Map<string, Operation>();
  private admin = new Set<string>();

  constructor(operations: readonly Operation[]) {
    for (const op of operations) {
      if (op.path.startsWith('/_emulator')) {
        this.admin.add(op.operationId);
        this.admin.add(OperationIndex.routeKey(op.method, op.path));
        continue;
      }
      this.byId.set(op.operationId, op);
      this.byRoute.set(OperationIndex.routeKey(op.method, op.path), op);
    }
  }

  /** `POST /emails/{id}` → `POST /emails/{}` (parameter names and a trailing slash do not matter). */
  static routeKey(method: string, path: string): string {
    return `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}').replace(/(.)\/+$/, '$1')}`;
  }

  /**
   * The operation `text` names: an operationId, or `METHOD /path` as in
   * docs/endpoints.md's table. Throws 422 `validation_error` naming it when it
   * names none, or names an operation of the admin API (never faulted).
   */
  resolve(text: string): Operation {
    const t = text.trim();
    const m = /^([A-Za-z]+)\s+(\/\S*)$/.exec(t);
    const key = m ? OperationIndex.routeKey(m[1], m[2]) : t;
    const op = m ? this.byRoute.get(key) : this.byId.get(t);
    if (op) return op;
    if (this.admin.has(key)) {
      throw errors.validation(`The \`operation\` \`${t}\` is part of the admin API (\`/_emulator\`), which faults never touch.`, 422);
    }
    throw errors.validation(
      `Unknown \`operation\` \`${t}\`: give an operationId such as \`emails/send\`, or \`METHOD /path\` such as \`POST /emails\`, as in docs/endpoints.md's endpoint table.`,
      422,
    );
  }
}

/** Which fields a kind of rule takes besides `probability`, `seed`, `times` and `team_id`. */
const FIELDS: Record<FaultRule['kind'], readonly (keyof FaultInput)[]> = {
  api: ['operation', 'status', 'name', 'message', 'latency_ms'],
  smtp: ['smtp', 'status', 'message', 'latency_ms'],
  outcome: ['outcome', 'to', 'reason'],
};
const COMMON: readonly (keyof FaultInput)[] = ['team_id', 'probability', 'seed', 'times'];

/**
 * Checks `input` against the `FaultInput` schema (`validate`, from
 * spec/openapi.yaml) and the rules across fields, and fills in the
 * defaults. Returns the rule without `id` and `fired`. `rateLimit`:
 * `config.rateLimit` (for a 429's message). Throws `ApiError`: the schema's
 * errors (400 `validation_error`, 422 `invalid_parameter` for a bad
 * `team_id`), or 422 `validation_error` for a field that does not go with
 * the rule's kind, an unknown `operation`, an SMTP rule with an HTTP
 * status, a status without a name of the service.
 */
export function normalizeRule(input: unknown, validate: ValidateFunction, ops: OperationIndex, rateLimit: number): Omit<FaultRule, 'id' | 'fired'> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw errors.validation('A fault rule must be a JSON object.', 422);
  if (!validate(input)) throw toApiError(validate.errors, 'body');
  const r = input as FaultInput;
  if (r.smtp !== undefined && r.outcome !== undefined) throw errors.validation('Give either `smtp` (an SMTP rule) or `outcome` (an email outcome rule), not both.', 422);
  const kind: FaultRule['kind'] = r.smtp !== undefined ? 'smtp' : r.outcome !== undefined ? 'outcome' : 'api';
  const allowed = new Set<keyof FaultInput>([...FIELDS[kind], ...COMMON]);
  for (const key of Object.keys(r) as (keyof FaultInput)[]) {
    if (r[key] === undefined || allowed.has(key)) continue;
    const what = kind === 'api' ? 'an API rule (no `smtp` or `outcome`)' : kind === 'smtp' ? 'an SMTP rule (`smtp`)' : 'an email outcome rule (`outcome`)';
    throw errors.validation(`The \`${key}\` field does not apply to ${what}; it takes ${[...FIELDS[kind], ...COMMON].map((f) => `\`${f}\``).join(', ')}.`, 422);
  }
  const base = {
    object: 'fault' as const,
    kind,
    operation: null as string | null,
    operation_id: null as string | null,
    team_id: r.team_id ?? null,
    status: null as number | null,
    name: null as string | null,
    message: null as string | null,
    latency_ms: r.latency_ms ?? 0,
    probability: r.probability ?? 1,
    seed: r.seed ?? 0,
    times: r.times ?? null,
    smtp: r.smtp ?? null,
    outcome: r.outcome ?? null,
    to: null as string | null,
    reason: null as string | null,
  };
  if (kind === 'outcome') {
    if (r.reason !== undefined && r.outcome !== 'failed') throw errors.validation('The `reason` field applies to `outcome: "failed"` only.', 422);
    return { ...base, to: r.to ?? null, reason: r.outcome === 'failed' ? (r.reason ?? DEFAULT_FAILED_REASON) : null };
  }
  if (kind === 'smtp') {
    const stage = r.smtp!;
    if (r.team_id !== undefined && (stage === 'connect' || stage === 'auth')) {
      throw errors.validation(`The \`team_id\` field cannot be matched at the \`${stage}\` stage: the team is known from \`mail\` on.`, 422);
    }
    // `latency_ms` alone delays the stage and then lets it through, as for an API rule.
    if (r.latency_ms !== undefined && r.status === undefined && r.message === undefined) return base;
    const code = r.status ?? SMTP_DEFAULT_CODE[stage];
    if (!(code in SMTP_CODES)) {
      throw errors.validation(`The \`status\` of an SMTP rule must be one of ${Object.keys(SMTP_CODES).join(', ')}.`, 422);
    }
    return { ...base, status: code, message: r.message ?? SMTP_CODES[code] };
  }
  // An API rule.
  let operation: Operation | null = null;
  if (r.operation !== undefined) operation = ops.resolve(r.operation);
  const name = r.name as ErrorName | undefined;
  const latencyOnly = r.latency_ms !== undefined && r.status === undefined && name === undefined && r.message === undefined;
  const status = latencyOnly ? null : (r.status ?? (name ? STATUS_FOR_NAME[name] : 500));
  let errName: ErrorName | null = null;
  let message: string | null = null;
  if (status !== null) {
    errName = name ?? NAME_FOR_STATUS[status] ?? null;
    if (!errName) {
      throw errors.validation(
        `The service has no error name for status ${status}; give \`name\` too (one of the service's names, e.g. \`application_error\`). Statuses with a name of their own: ${Object.keys(NAME_FOR_STATUS).join(', ')}.`,
        422,
      );
    }
    message = r.message ?? (errName === 'rate_limit_exceeded' ? errors.rateLimitExceeded(rateLimit > 0 ? rateLimit : DOCUMENTED_RATE_LIMIT, '1').message : SERVICE_MESSAGES[errName]);
  }
  return {
    ...base,
    operation: r.operation ?? null,
    operation_id: operation?.operationId ?? null,
    status,
    name: errName,
    message,
  };
}

/**
 * The error an API rule answers with: `{statusCode, message, name}` of the
 * rule, and for 429 the headers the rate limiter sends (docs/reference/formats.md#rate-limits:
 * `ratelimit-limit`, `ratelimit-policy`, `ratelimit-remaining` 0,
 * `ratelimit-reset` and `retry-after` 1 s; `limit` from `--rate-limit`,
 * else the documented 10).
 */
export function ruleError(rule: FaultRule, rateLimit: number): ApiError {
  const headers: Record<string, string> = {};
  if (rule.status === 429) {
    const limit = rateLimit > 0 ? rateLimit : DOCUMENTED_RATE_LIMIT;
    Object.assign(headers, rateLimitHeaders(limit, 0, 1), { 'retry-after': '1' });
  }
  return new ApiError(rule.status!, rule.name as ErrorName, rule.message!, headers);
}

/** What an API request meets: a wall-clock delay (ms), then an error to answer or null (the normal answer). */
export interface ApiFault {
  delayMs: number;
  error: ApiError | null;
}

/** What an SMTP stage meets: a wall-clock delay (ms), then a reply to answer or null (the normal one). */
export interface SmtpFault {
  delayMs: number;
  reply: { code: number; message: string } | null;
}

/** How a sent email ends by an outcome rule; `addresses`: the recipients it concerns (bare, lower-case). */
export interface OutcomeFault {
  ruleId: string;
  outcome: EmailOutcome;
  /** `failed.reason` for `failed`, else null. */
  reason: string | null;
  addresses: string[];
}

/**
 * The fault rules as the rest of the emulator sees them (`ctx.faults`; the
 * implementation is `FaultStore` in ./store.ts). Declared here, beside the
 * rule types, so `context.ts` can name it without importing the store.
 */
export interface Faults {
  /** Adds a rule (`POST /_emulator/faults` body). Throws `ApiError` 422 for a bad rule. */
  add(input: unknown): FaultRule;
  /** Every rule, oldest first, with `fired`. */
  list(): FaultRule[];
  /** Removes one rule; false when there is none with `id`. */
  remove(id: string): boolean;
  /** Removes every rule; returns how many there were. */
  clear(): number;
  /** Puts the start rules back (reset). */
  restore(): void;
  /** The fault an API request of `operationId` by `teamId` meets, or null. */
  forRequest(operationId: string, teamId: string): ApiFault | null;
  /** The fault an SMTP stage meets (`teamId` null before MAIL FROM), or null. */
  forSmtp(stage: SmtpStage, teamId: string | null): SmtpFault | null;
  /** How an email of `teamId` to `recipients` ends by an outcome rule, or null. */
  forEmail(teamId: string, recipients: readonly string[]): OutcomeFault | null;
  /**
   * Waits a rule's `latency_ms` (wall time). Rejects with an `ApiError` 503
   * `service_unavailable` when the emulator closes first (`close()`), so a
   * delayed request never runs on a closed store and no timer outlives it.
   */
  delay(ms: number): Promise<void>;
  /** Ends every pending `delay` (the emulator's close). */
  close(): void;
}
