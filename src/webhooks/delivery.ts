/**
 * Delivering a recorded webhook event (API-FACTS §6 "Signing", "Delivery and
 * retries"; DESIGN.md "Behaviour: Webhooks").
 *
 * - Signed with the webhook's signing secret by the `standardwebhooks`
 *   library, sent with the Svix header names `svix-id`, `svix-timestamp`
 *   (wall-clock Unix seconds: verifiers reject stale ones) and
 *   `svix-signature`; the body is the stored payload, byte for byte.
 * - Any 2xx is success. A non-2xx, a timeout (`config.webhookTimeoutMs`) or a
 *   network error is a failed attempt, retried on the emulated clock after
 *   `RETRY_DELAYS_MS[n]`, each counted from the previous failure; after the
 *   8th attempt the delivery is `failed`. Retries keep the same `svix-id`.
 * - A webhook that is deleted or disabled gets no further attempts
 *   (delivery `cancelled`); one whose endpoint or secret changed is sent to
 *   the current endpoint with the current secret.
 * - In `--webhooks record` mode nothing is sent; the delivery is `recorded`.
 *
 * Delivery statuses: `pending` → `succeeded` | `failed` | `recorded` | `cancelled`
 * (`pending` includes waiting for a retry).
 */
import { Webhook } from 'standardwebhooks';
import type { Emulator } from '../context.js';

/** Waits between attempts: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (API-FACTS §6). */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** Builds the three Svix headers for a message (timestamp: wall-clock seconds). */
export function signHeaders(secret: string, msgId: string, payload: string, when: Date = new Date()): Record<string, string> {
  const signature = new Webhook(secret).sign(msgId, when, payload);
  return {
    'svix-id': msgId,
    'svix-timestamp': String(Math.floor(when.getTime() / 1000)),
    'svix-signature': signature,
  };
}

interface DeliveryRow {
  id: string;
  team_id: string;
  webhook_id: string;
  event_type: string;
  payload: string;
  status: string;
}

/**
 * Makes one attempt at a delivery (the `webhook.deliver` job), records it,
 * and schedules the next one if it failed. `force`: a replay, which is made
 * even when the delivery already ended.
 */
export async function deliver(ctx: Emulator, deliveryId: string, force = false): Promise<void> {
  const d = ctx.db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?').get(deliveryId) as DeliveryRow | undefined;
  if (!d) return;
  if (d.status !== 'pending' && !force) return;
  const hook = ctx.db.prepare('SELECT id, endpoint, signing_secret, status FROM webhooks WHERE id = ?').get(d.webhook_id) as
    | { id: string; endpoint: string; signing_secret: string; status: string }
    | undefined;
  const setStatus = ctx.db.prepare('UPDATE webhook_deliveries SET status = ?, next_attempt_at = ? WHERE id = ?');
  if (!hook || (hook.status !== 'enabled' && !force)) {
    setStatus.run('cancelled', null, d.id);
    ctx.bus.emit('delivery', d.id);
    return;
  }
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'resend-emulator',
    ...signHeaders(hook.signing_secret, d.id, d.payload),
  };
  if (ctx.config.webhooks === 'record') {
    ctx.db
      .prepare('INSERT INTO webhook_attempts (delivery_id, attempted_at, wall_time, status_code, error, duration_ms, headers) VALUES (?, ?, ?, NULL, ?, 0, ?)')
      .run(d.id, ctx.clock.nowMs(), Date.now(), 'not sent: --webhooks record', JSON.stringify(headers));
    setStatus.run('recorded', null, d.id);
    ctx.bus.emit('delivery', d.id);
    return;
  }
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const res = await fetch(hook.endpoint, {
      method: 'POST',
      headers,
      body: d.payload,
      signal: AbortSignal.timeout(ctx.config.webhookTimeoutMs),
      redirect: 'manual',
    });
    statusCode = res.status;
    await res.arrayBuffer().catch(() => undefined);
    if (statusCode < 200 || statusCode > 299) error = `endpoint answered ${statusCode}`;
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    error = e.name === 'TimeoutError' ? `timed out after ${ctx.config.webhookTimeoutMs} ms` : `${e.cause?.code ?? e.name}: ${e.cause ? String((e.cause as Error).message ?? e.cause) : e.message}`;
  }
  const duration = Date.now() - started;
  const now = ctx.clock.nowMs();
  ctx.db.transaction(() => {
    ctx.db
      .prepare('INSERT INTO webhook_attempts (delivery_id, attempted_at, wall_time, status_code, error, duration_ms, headers) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(d.id, now, started, statusCode, error, duration, JSON.stringify(headers));
    if (!error) {
      setStatus.run('succeeded', null, d.id);
      return;
    }
    const attempts = (ctx.db.prepare('SELECT COUNT(*) AS n FROM webhook_attempts WHERE delivery_id = ?').get(d.id) as { n: number }).n;
    // A replay does not restart the retry schedule of an ended delivery.
    if (force && d.status !== 'pending') {
      setStatus.run(d.status === 'succeeded' ? 'succeeded' : 'failed', null, d.id);
      return;
    }
    const wait = RETRY_DELAYS_MS[attempts - 1];
    if (wait === undefined) {
      setStatus.run('failed', null, d.id);
    } else {
      setStatus.run('pending', now + wait, d.id);
      ctx.scheduler.schedule('webhook.deliver', { delivery_id: d.id }, { dueAt: now + wait, teamId: d.team_id });
    }
  })();
  ctx.bus.emit('delivery', d.id);
}
