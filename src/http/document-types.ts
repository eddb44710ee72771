/**
 * TypeScript types of the document's operations and schemas, read from the
 * types `openapi-typescript` generates from `spec/openapi.yaml` into
 * `src/generated/openapi.ts` (`npm run gen:types`; `npm run build` and
 * `npm test` regenerate it, and `npm test` fails when the committed file is
 * stale). Handlers and services use these instead of copying a shape by hand.
 *
 * ```ts
 * function send(ctx: Emulator, req: Req<'emails/send'>): Answer<'emails/send'> { ... }
 * type Email = SchemaOf<'Email'>;
 * export const operations = { 'emails/send': send } satisfies OperationHandlers;
 * ```
 */
import type { components, operations } from '../generated/openapi.js';
import type { Auth, Emulator } from '../context.js';
import type { HANDLED, JsonText, OpRequest, Reply } from '../module.js';

/** Every operationId of the document, e.g. `'emails/send'`. */
export type OperationId = keyof operations;

/** A named schema of `components.schemas` (all files of `spec/` merged). */
export type SchemaOf<Name extends keyof components['schemas']> = components['schemas'][Name];

/** `T`, or an object with no members when the document declares none (`never`). */
type OrNone<T> = [T] extends [never] ? Record<string, never> : T;

/**
 * The request body of an operation: its JSON body, else its multipart form
 * fields (the file itself comes as `req.file`), else `unknown` (none).
 */
export type RequestBody<Op extends OperationId> = operations[Op] extends { requestBody?: { content: { 'application/json': infer B } } }
  ? B
  : operations[Op] extends { requestBody?: { content: { 'multipart/form-data': infer F } } }
    ? F
    : unknown;

/** The query parameters of an operation (coerced to their schema types by validation). */
export type QueryOf<Op extends OperationId> = OrNone<operations[Op] extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never>;

/** The path parameters of an operation. */
export type PathOf<Op extends OperationId> = OrNone<operations[Op] extends { parameters: { path?: infer P } } ? NonNullable<P> : never>;

/**
 * The JSON body of an operation's success response with `Status` (default:
 * any of its success statuses, e.g. 201 for a create); `never` when that
 * response is not JSON.
 */
export type ResponseBody<Op extends OperationId, Status extends number = SuccessStatus<Op>> = {
  [S in Status & keyof operations[Op]['responses']]: operations[Op]['responses'][S] extends { content: { 'application/json': infer R } } ? R : never;
}[Status & keyof operations[Op]['responses']];

/**
 * The operations whose document declares `security: []`, so no API key:
 * the admin API's, every operationId under `admin/` (spec/paths/admin*.yaml
 * and `admin/create-oauth-grant`); every other operation inherits the
 * document's `bearerAuth`. openapi-typescript leaves `security` out of the
 * types it generates, so the rule is this name; test/http/auth-typing.test.ts
 * holds the document to it, operation by operation.
 */
export type KeylessOperation = Extract<OperationId, `admin/${string}`>;

/**
 * What a handler of `Op` gets as `req.auth`: the caller (`Auth`) when the
 * document requires a key (the pipeline's first step, `authenticateCaller`,
 * refused every call without a valid one, and `callHandler` checks it was
 * set), `null` on a `KeylessOperation`.
 */
export type AuthOf<Op extends OperationId> = Op extends KeylessOperation ? null : Auth;

/**
 * A handler's request typed by its operation: body, query and path
 * parameters as the document declares them (validation has already checked
 * and coerced them), and its caller (`AuthOf`). `Req<'domains/create'>`.
 */
export type Req<Op extends OperationId> = OpRequest<RequestBody<Op>, QueryOf<Op>, PathOf<Op>, Op, AuthOf<Op>>;

/** The success (2xx) statuses an operation declares. */
export type SuccessStatus<Op extends OperationId> = Extract<keyof operations[Op]['responses'], 200 | 201 | 202 | 203 | 204 | 206>;

/**
 * The body a handler gives for one response: its JSON value (or a
 * `JsonText` of it), and for any other content type (a page, a raw message,
 * a download) text or bytes (sent with the `Reply`'s content type).
 * `undefined` when the response declares no content.
 */
type BodyOf<R> = R extends { content: infer C }
  ? { [T in keyof C]: T extends 'application/json' ? C[T] | JsonText<C[T]> : string | Buffer }[keyof C]
  : undefined;

/** The JSON bodies of an operation's success responses (what a plain returned value may be). */
type SuccessJson<Op extends OperationId> = {
  [S in SuccessStatus<Op>]: operations[Op]['responses'][S] extends { content: { 'application/json': infer J } } ? J | JsonText<J> : never;
}[SuccessStatus<Op>];

/** True when a success response of the operation is not JSON (a stream or a page): only those may answer `HANDLED`. */
type HasNonJson<Op extends OperationId> = {
  [S in SuccessStatus<Op>]: operations[Op]['responses'][S] extends { content: infer C } ? (Exclude<keyof C, 'application/json'> extends never ? never : true) : never;
}[SuccessStatus<Op>];

/**
 * What the handler of `Op` may return: the JSON body of one of its success
 * responses (sent with the operation's first success status), a `Reply` with
 * one of those statuses and that status's body, or `HANDLED` for an
 * operation whose success is not JSON (a stream the handler wrote itself).
 * A status the document does not declare needs the emulator's own reason,
 * said where it is written (response validation in tests fails on it).
 */
export type Answer<Op extends OperationId> =
  | SuccessJson<Op>
  | { [S in SuccessStatus<Op>]: Reply<S, BodyOf<operations[Op]['responses'][S]>> }[SuccessStatus<Op>]
  | ([HasNonJson<Op>] extends [never] ? never : typeof HANDLED);

/**
 * True when the document declares the `Idempotency-Key` header on the
 * operation (spec/paths/*.yaml; the pipeline honours it for exactly these:
 * `Operation.idempotent`, src/http/spec.ts).
 */
export type TakesIdempotencyKey<Op extends OperationId> = operations[Op] extends { parameters: { header?: infer H } }
  ? [NonNullable<H>] extends [never] // `header?: never`: no header at all (`keyof never` would be every key)
    ? false
    : 'Idempotency-Key' extends keyof NonNullable<H> ? true : false
  : false;

/** A value that is not a promise (nor any thenable): what a synchronous handler answers. */
type NotThenable = { then?: never };

/**
 * The handler of one operation: its request as the document declares it,
 * its answer, or a promise of it; for an operation that takes an
 * `Idempotency-Key`, its answer only (synchronous): the handler runs inside
 * the key's transaction with the record of its answer
 * (src/http/idempotency.ts `runUnderKey`), which cannot span an `await`.
 */
export type Handler<Op extends OperationId> = (
  ctx: Emulator,
  req: Req<Op>,
) => TakesIdempotencyKey<Op> extends true ? Answer<Op> & NotThenable : Answer<Op> | Promise<Answer<Op>>;

/**
 * Handlers by operationId, each typed by its own operation: every module's
 * map is written `{ ... } satisfies OperationHandlers`, so a key that is no
 * operation of the document, a handler wired to another operation's key, a
 * reply the document does not declare, or an async handler for an
 * operation that takes an `Idempotency-Key`, fails to compile.
 */
export type OperationHandlers = { [Op in OperationId]?: Handler<Op> };

declare module '../module.js' {
  /** `ResourceModule.operations` is an `OperationHandlers` (src/module.ts keeps the name, this file gives the type). */
  interface OperationMap extends OperationHandlers {}
}

/** The item of a list operation's `data` (its success JSON body's `data` array), e.g. `ListItem<'domains/list'>`. */
export type ListItem<Op extends OperationId> = ResponseBody<Op> extends { data: (infer I)[] } ? I : never;
