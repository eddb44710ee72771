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
import { compileOperation, toApiError } from '../../http/validate.js';
import { sendEmail, type SendContext, type SendEmailInput } from './send.js';
import { emailMessages } from './messages.js';

/**
 * The check of one batch item: the `emails/send` body of spec/openapi.yaml,
 * pruned as the validation step prunes a `POST /emails` body (`pruneBody`:
 * undeclared keys and "not given" values such as Payload CMS's `"cc": ""`
 * dropped, docs/reference/transport.md#absent-values), then validated.
 * Returns the item as the handler reads it, or throws its `ApiError`.
 */
export type BatchItemCheck = (item: unknown) => unknown;

let itemCheck: BatchItemCheck | null = null;

/**
 * The check of one batch item (see `BatchItemCheck`), compiled on first use,
 * once per process. Synchronous (the document is loaded before any request
 * is served: `loadedSpec`), so the batch handler runs inside its idempotency
 * key's transaction (src/http/idempotency.ts). Throws if the document lacks
 * that body.
 */
export function batchItemValidator(): BatchItemCheck {
  if (!itemCheck) {
    const op = loadedSpec().operations.find((o) => o.operationId === 'emails/send');
    if (!op?.body) throw new Error('spec/openapi.yaml lacks the emails/send body');
    const { prune, body } = compileOperation(op);
    const validate: ValidateFunction = body!;
    itemCheck = (item: unknown) => {
      const pruned = prune(item);
      if (!validate(pruned)) throw toApiError(validate.errors, 'body');
      return pruned;
    };
  }
  return itemCheck;
}

/**
 * Sends a batch's items in one transaction (rules above). Returns
 * `{data: [{id}]}` (strict) or `{data, errors}` (permissive). Throws the
 * first item's `ApiError` in strict mode (nothing sent); an error that is
 * not an `ApiError` always ends the batch.
 */
export function sendBatch(ctx: Emulator, items: unknown[], mode: 'strict' | 'permissive', check: BatchItemCheck, sc: SendContext) {
  const one = (item: unknown): string => {
    const email = check(item) as SendEmailInput;
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
