/**
 * Handlers of /usage (docs/reference/inboxes.md#usage) and the dashboard's
 * view of it (`/_emulator/teams/{team_id}/usage`, served here because only
 * this room may read its report, report.ts):
 * | operationId | rule |
 * |---|---|
 * | usage/get | any key of the team (`sending_access` too) → the SDK's `GetUsageResponseSuccess`, counted by `usageOf` (report.ts); without `--plan` limits null, or `NO_LIMIT` (2147483647) where the SDK types a `number`; the quota headers when a plan is set |
 * | admin/dashboard-usage | `GET /_emulator/teams/{team_id}/usage`: the same body for a team named in the path (no key; the inbox page's header); an unknown team is 404 `Team not found` |
 */
import type { Emulator } from '../../context.js';
import { Reply } from '../../module.js';
import { errors } from '../../http/errors.js';
import { teamExists } from '../../state/teams.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';
import { quotaHeadersOf } from '../emails/service.js';
import { usageOf } from './report.js';

function get(ctx: Emulator, req: Req<'usage/get'>): Answer<'usage/get'> {
  const teamId = req.auth.teamId;
  const usage = usageOf(ctx, teamId);
  return new Reply(200, usage, ctx.config.plan ? quotaHeadersOf(usage.emails.daily, usage.emails.monthly) : {});
}

function dashboardUsage(ctx: Emulator, req: Req<'admin/dashboard-usage'>): Answer<'admin/dashboard-usage'> {
  if (!teamExists(ctx, req.params.team_id)) throw errors.notFound('Team');
  return usageOf(ctx, req.params.team_id);
}

/** The usage operations, by operationId. */
export const operations = {
  'usage/get': get,
  'admin/dashboard-usage': dashboardUsage,
} satisfies OperationHandlers;
