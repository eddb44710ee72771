/**
 * Handlers of /usage (docs/reference/inboxes.md#usage):
 * | operationId | rule |
 * |---|---|
 * | usage/get | any key of the team (`sending_access` too) → the SDK's `GetUsageResponseSuccess`, counted by `usageOf` (service.ts); without `--plan` limits null, or `NO_LIMIT` (2147483647) where the SDK types a `number`; the quota headers when a plan is set |
 */
import type { Emulator } from '../../context.js';
import { Reply } from '../../module.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';
import { quotaHeadersOf } from '../emails/service.js';
import { usageOf } from './service.js';

function get(ctx: Emulator, req: Req<'usage/get'>): Answer<'usage/get'> {
  const teamId = req.auth.teamId;
  const usage = usageOf(ctx, teamId);
  return new Reply(200, usage, ctx.config.plan ? quotaHeadersOf(usage.emails.daily, usage.emails.monthly) : {});
}

/** The usage operations, by operationId. */
export const operations = {
  'usage/get': get,
} satisfies OperationHandlers;
