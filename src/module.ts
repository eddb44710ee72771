/**
 * The module contract, on the ground floor: what a resource room
 * (`src/resources/<name>/index.ts`, the admin rooms, the deliveries room)
 * exports and what its operation handlers get and return. Operations are
 * keyed by the operationId of `spec/openapi.yaml` (the Firebase Auth
 * emulator's idea).
 *
 * This file imports only types from the floors below it (the context, the
 * store's types, the clock's job definitions); every room imports it,
 * it imports no room.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Auth, Emulator, SeededModule } from './context.js';
import type { AnyJobDefinition } from './clock/jobs.js';

/** The caller, from the API key (defined in context.ts, beside the key store the pipeline asks). */
export type { Auth } from './context.js';

/**
 * The node request as the app leaves it: `body` (parsed JSON, a raw Buffer,
 * multipart fields; undefined when none was read), `file` (a multipart
 * upload on disk, multer's shape) and `baseUrl`, the path the app is
 * mounted at (express's own: `/resend` under `parent.use('/resend', app)`,
 * `''` when not mounted).
 */
export type RawRequest = IncomingMessage & { body?: unknown; file?: Express.Multer.File; baseUrl?: string };

/**
 * A validated request. `params`/`query` are coerced to their schema types.
 * `O` is its operationId's type: `Req<'emails/get'>` (src/http/document-types.ts)
 * has `operationId: 'emails/get'`, so a handler written for one operation
 * cannot be wired to another, even one whose request and reply look alike.
 * `A` is what `auth` can be: `Req<op>` gives `Auth` for an operation whose
 * document requires a key and `null` for one that declares `security: []`.
 */
export interface OpRequest<B = any, Q = Record<string, any>, P = Record<string, string>, O extends string = string, A extends Auth | null = Auth | null> {
  /** The operation's `operationId` in the document (`emails/get`). */
  operationId: O;
  params: P;
  query: Q;
  body: B;
  /**
   * The caller: set by the pipeline's `authenticateCaller` (its first step,
   * which refuses a call without a valid key) on every operation whose
   * document requires a key; `null` on operations with `security: []` (the
   * admin API).
   */
  auth: A;
  headers: IncomingHttpHeaders;
  /** Uploaded file of a multipart operation (multer, on disk). */
  file?: Express.Multer.File;
  /** The underlying node request (for the rare handler that needs it). */
  raw: RawRequest;
  /** The node response, for a handler that writes it itself and returns `HANDLED` (a stream). */
  response: ServerResponse;
}

/**
 * A reply with an explicit status or headers; a plain value is sent with the
 * operation's success status. `S` and `B` keep the status and the body's
 * type, so a handler's reply is checked against the document's response of
 * that status (`Answer` in src/http/document-types.ts).
 */
export class Reply<S extends number = number, B = unknown> {
  constructor(
    readonly status: S,
    readonly body: B,
    readonly headers: Record<string, string> = {},
    /** Content type for a non-JSON body (e.g. the inbox page). */
    readonly contentType?: string,
  ) {}
}

/**
 * A JSON body already serialized (`text` is valid JSON): the pipeline
 * writes it as it is instead of `JSON.stringify`-ing a value. For hot
 * lists that assemble cached item texts (GET /emails).
 * `value()` parses it (response validation in tests, request logs);
 * `JSON.stringify` of a `JsonText` gives the same JSON.
 */
export class JsonText<T = unknown> {
  /** `T`: the type of the value `text` serializes (the maker's word: `text` is not checked against it). */
  constructor(readonly text: string) {}
  /** The parsed value. */
  value(): T {
    return JSON.parse(this.text) as T;
  }
  toJSON(): T {
    return this.value();
  }
}

/**
 * Returned by a handler that wrote the response itself through
 * `req.response` (the inbox page's server-sent events stream): the app then
 * sends nothing and skips response validation. Use only for streams.
 */
export const HANDLED: unique symbol = Symbol('resend-emulator.handled');

/**
 * Handles one operation; returns the JSON body, a `Reply` or `HANDLED`.
 * Throws `ApiError`. The pipeline's view of any handler: each module's map is
 * checked per operation against `OperationHandlers`
 * (src/http/document-types.ts: the request and the reply the document
 * declares for that operationId).
 */
// The request and the reply are typed per operation by `OperationHandlers` where the map is written, so the pipeline takes any typing.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OperationHandler = (ctx: Emulator, req: OpRequest<any, any, any, any, any>) => unknown | Promise<unknown>;

/** What an `onResponse` hook learns about an answered API request. */
export interface ResponseInfo {
  auth: Auth | null;
  operationId: string;
  method: string;
  path: string;
  status: number;
  requestBody: unknown;
  /** The JSON body answered: a value, or a `JsonText` (already serialized). */
  responseBody: unknown;
  userAgent: string | null;
}

/**
 * A room's operation handlers by operationId. Empty here: the request
 * pipeline's document types fill it in (src/http/document-types.ts merges
 * `OperationHandlers` into it), so `ResourceModule.operations` is checked
 * operation by operation (each handler against its operationId's request and
 * reply) while this floor names no type of the HTTP layer.
 */
export interface OperationMap {}

/**
 * One room: its schema, its operations, its jobs and how it seeds fixtures.
 * Listed, in seeding order, in `src/modules.ts`; the running
 * emulator hands the list to reset as `ctx.modules`.
 */
export interface ResourceModule extends SeededModule {
  name: string;
  /** Handlers keyed by operationId, each typed by its operation (`OperationMap`). */
  operations?: OperationMap;
  /**
   * The clock jobs this module runs, each declared with `defineJob` in its
   * `jobs.ts` (types `<resource>.<what>`, listed with their payloads in
   * src/clock/job-types.ts).
   */
  jobs?: readonly AnyJobDefinition[];
  /** Called after every answered API operation (e.g. to record request logs). Must not throw. */
  onResponse?: (ctx: Emulator, info: ResponseInfo) => void;
  /**
   * Headers of now for an idempotent replay of one of its operations
   * (operationId → headers of the caller `auth`): a replay answers the
   * recorded status and body without calling the handler
   * (src/http/idempotency.ts), so headers that describe the present, not the
   * first call, come from here (emails: the quota headers of `--plan`).
   */
  replayHeaders?: Record<string, (ctx: Emulator, auth: Auth) => Record<string, string>>;
}
