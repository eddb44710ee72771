/**
 * The admin API under `/_emulator` (docs/reference/design.md#admin-api; no API key:
 * src/admin/guard.ts checks Host, Origin and the optional admin token). Each
 * operation is in spec/openapi.yaml (`spec/paths/admin.yaml`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Emulator } from '../context.js';
import type { ResourceModule } from '../module.js';
import { errors } from '../http/errors.js';
import { isoTime, newId } from '../http/format.js';
import { specDir } from '../http/spec.js';
import { loadFixtures } from '../state/fixtures.js';
import { resetState } from '../state/reset.js';
import { exportSnapshot, importSnapshot } from '../state/snapshot.js';
import { getDelivery, listDeliveries } from '../deliveries/inspect.js';
import { deliver } from '../deliveries/jobs.js';
import { deliveryRow } from '../deliveries/store.js';
import { findWebhook } from '../resources/webhooks/service.js';
import { insertApiKey, newToken } from '../resources/api-keys/service.js';
import { insertTeam } from '../state/teams.js';
import type { Answer, OperationHandlers, Req } from '../http/document-types.js';

/** The package version, from package.json. */
export const VERSION: string = JSON.parse(fs.readFileSync(path.join(path.dirname(specDir()), 'package.json'), 'utf8')).version;

function health(): Answer<'admin/health'> {
  return { status: 'ok', version: VERSION };
}

async function reset(ctx: Emulator): Promise<Answer<'admin/reset'>> {
  await ctx.scheduler.exclusive(() => resetState(ctx, loadFixtures(ctx.config.fixtures)));
  return { object: 'reset', reset: true };
}

function clock(ctx: Emulator): Answer<'admin/get-clock'> {
  return { now: isoTime(ctx.clock.nowMs()), mode: ctx.clock.mode };
}

async function advance(ctx: Emulator, req: Req<'admin/advance-clock'>): Promise<Answer<'admin/advance-clock'>> {
  const { ms, to } = req.body;
  if ((ms === undefined) === (to === undefined)) throw errors.validation('Give exactly one of `ms` and `to`.', 422);
  let fired;
  try {
    if (to !== undefined) {
      const target = Date.parse(to);
      if (Number.isNaN(target)) throw errors.invalidParameter('The `to` field must be an ISO 8601 date-time.');
      fired = await ctx.scheduler.advanceTo(target);
    } else {
      fired = await ctx.scheduler.advance(ms!);
    }
  } catch (err) {
    if (err instanceof RangeError) throw errors.validation(err.message, 422);
    throw err;
  }
  return { now: isoTime(ctx.clock.nowMs()), mode: ctx.clock.mode, fired: fired.map((j) => ({ type: j.type, due_at: isoTime(j.due_at) })) };
}

function createTeam(ctx: Emulator, req: Req<'admin/create-team'>): Answer<'admin/create-team'> {
  const id = newId();
  const ownerEmail = req.body.owner_email ?? `owner+${id.slice(0, 8)}@example.com`;
  const token = newToken();
  ctx.db.transaction(() => {
    insertTeam(ctx.db, { id, name: req.body.name ?? `Team ${id.slice(0, 8)}`, ownerEmail, createdAt: ctx.clock.nowMs() });
    insertApiKey(ctx, { teamId: id, name: 'Default', token, permission: 'full_access' });
  })();
  return { id, api_key: token, owner_email: ownerEmail };
}

/** GET /_emulator/webhook-deliveries: every delivery (oldest first), filtered by team, webhook, event type, status. */
function deliveries(ctx: Emulator, req: Req<'admin/list-webhook-deliveries'>): Answer<'admin/list-webhook-deliveries'> {
  return { object: 'list', data: listDeliveries(ctx, req.query) };
}

/** GET /_emulator/webhook-deliveries/{id}: one delivery, or 404. */
function deliveryGet(ctx: Emulator, req: Req<'admin/get-webhook-delivery'>): Answer<'admin/get-webhook-delivery'> {
  const d = getDelivery(ctx, req.params.delivery_id);
  if (!d) throw errors.notFound('Webhook delivery');
  return d;
}

/**
 * POST /_emulator/webhook-deliveries/{id}/replay: one extra attempt made
 * before answering (same svix-id, fresh signature; see src/deliveries/jobs.ts).
 * 404 for an unknown delivery; 422 when its webhook was deleted.
 */
async function replay(ctx: Emulator, req: Req<'admin/replay-webhook-delivery'>): Promise<Answer<'admin/replay-webhook-delivery'>> {
  const webhookId = deliveryRow(ctx, req.params.delivery_id)?.webhook_id;
  if (webhookId === undefined) throw errors.notFound('Webhook delivery');
  if (!findWebhook(ctx, webhookId)) {
    throw errors.validation('The webhook of this delivery was deleted; the delivery cannot be replayed.', 422);
  }
  await ctx.scheduler.exclusive(() => deliver(ctx, req.params.delivery_id, { replay: true }));
  const d = getDelivery(ctx, req.params.delivery_id);
  if (!d) throw errors.notFound('Webhook delivery');
  return d;
}

function snapshotGet(ctx: Emulator): Answer<'admin/export-snapshot'> {
  return exportSnapshot(ctx);
}

async function snapshotPost(ctx: Emulator, req: Req<'admin/import-snapshot'>): Promise<Answer<'admin/import-snapshot'>> {
  await ctx.scheduler.exclusive(() => importSnapshot(ctx, req.body));
  return { object: 'snapshot', imported: true };
}

export const adminModule: ResourceModule = {
  name: 'admin',
  operations: {
    'admin/health': health,
    'admin/reset': reset,
    'admin/get-clock': clock,
    'admin/advance-clock': advance,
    'admin/create-team': createTeam,
    'admin/list-webhook-deliveries': deliveries,
    'admin/get-webhook-delivery': deliveryGet,
    'admin/replay-webhook-delivery': replay,
    'admin/export-snapshot': snapshotGet,
    'admin/import-snapshot': snapshotPost,
  } satisfies OperationHandlers,
};
