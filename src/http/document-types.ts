/**
 * TypeScript types of the document's operations and schemas, read from the
 * types `openapi-typescript` generates from `spec/openapi.yaml` into
 * `src/generated/openapi.ts` (`npm run gen:types`; `npm run build` and
 * `npm test` regenerate it, and `npm test` fails when the committed file is
 * stale). Handlers and services use these instead of copying a shape by hand.
 *
 * ```ts
 * function send(ctx: Emulator, req: OpRequest<RequestBody<'emails/send'>>) { ... }
 * type Email = SchemaOf<'Email'>;
 * ```
 */
import type { components, operations } from '../generated/openapi.js';
import type { OpRequest } from '../module.js';

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

/** The JSON body of an operation's success response with `status` (default 200). */
export type ResponseBody<Op extends OperationId, Status extends number = 200> = operations[Op] extends {
  responses: { [S in Status]: { content: { 'application/json': infer R } } };
}
  ? R
  : never;

/**
 * A handler's request typed by its operation: body, query and path
 * parameters as the document declares them (validation has already checked
 * and coerced them). `Req<'domains/create'>`.
 */
export type Req<Op extends OperationId> = OpRequest<RequestBody<Op>, QueryOf<Op>, PathOf<Op>>;
