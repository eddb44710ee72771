/**
 * Sending a batch (POST /emails/batch, docs/reference/resources.md#batch-sends): each item is a
 * POST /emails body without `attachments`, checked against the
 * `emails/send` body schema of spec/openapi.yaml. `strict`: the first bad
 * item fails the whole batch and nothing is sent. `permissive`: good items
 * are sent, bad ones reported as `errors: [{index, message}]`. The plan's
 * quotas count the items before each one: they draw on the one usage read
 * of the request (`sc.quota`, `EmailQuota`), in one transaction.
 */
import type { ValidateFunction } from 'ajv';
import type { Emulator } from '../../context.js';
import { ApiError } from '../../http/errors.js';
import { loadedSpec } from '../../http/spec.js';
import { compileBodySchema, toApiError } from '../../http/validate.js';
import { sendEmail, type SendContext, type SendEmailInput } from './send.js';
import { emailMessages } from './messages.js';

let itemValidator: ValidateFunction | null = null;

/**
 * The validator of one batch item: the `emails/send` body schema of
 * spec/openapi.yaml, compiled on first use, once per process. Synchronous
 * (the document is loaded before any request is served: `loadedSpec`), so
 * the batch handler runs inside its idempotency key's transaction
 * (src/http/idempotency.ts). Throws if the document lacks that body.
 */
export function batchItemValidator(): ValidateFunction {
  if (!itemValidator) {
    const op = loadedSpec().operations.find((o) => o.operationId === 'emails/send');
    if (!op?.body) throw new Error('spec/openapi.yaml lacks the emails/send body');
    itemValidator = compileBodySchema(op.body.schema);
  }
  return itemValidator;
}

/**
 * Sends a batch's items in one transaction (rules above). Returns
 * `{data: [{id}]}` (strict) or `{data, errors}` (permissive). Throws the
 * first item's `ApiError` in strict mode (nothing sent); an error that is
 * not an `ApiError` always ends the batch.
 */
export function sendBatch(ctx: Emulator, items: unknown[], mode: 'strict' | 'permissive', validate: ValidateFunction, sc: SendContext) {
  const one = (item: unknown): string => {
    if (!validate(item)) throw toApiError(validate.errors, 'body');
    const email = item as SendEmailInput;
    if (email.attachments !== undefined) throw emailMessages.batchAttachments();
    return sendEmail(ctx, email, sc).id;
  };
  if (mode === 'strict') {
    return ctx.db.transaction(() => ({ data: items.map((item) => ({ id: one(item) })) }))();
  }
  const data: { id: string }[] = [];
  const errs: { index: number; message: string }[] = [];
  ctx.db.transaction(() => {
    items.forEach((item, index) => {
      try {
        data.push({ id: one(item) });
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        errs.push({ index, message: err.message });
      }
    });
  })();
  return { data, errors: errs };
}
