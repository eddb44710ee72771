/**
 * Delivering a recorded webhook event, as the deliveries' clock jobs
 * `webhook.deliver` (`webhookDeliverJob`: one scheduled attempt; a failure
 * schedules the next) and `webhook.replay` (`webhookReplayJob`: one extra
 * attempt). docs/reference/webhooks.md#signing; docs/reference/webhooks.md#delivery-and-retries;
 * D:webhooks/retries-and-replays; D:api-reference/webhooks/*.
 *
 * - Signed with the webhook's signing secret by the `standardwebhooks`
 *   library, sent with the Svix header names `svix-id`, `svix-timestamp`
 *   (wall-clock Unix seconds: verifiers reject stamps more than 5 min off
 *   the receiver's clock, so emulated time is never used here) and
 *   `svix-signature`; the body is the stored payload, byte for byte, so the
 *   SDK's `webhooks.verify()` accepts it.
 * - For 24 h (emulated) after a secret rotation the signature header carries
 *   two `v1,` entries, new secret first, previous second
 *   (D:api-reference/webhooks/rotate-signing-secret).
 * - Any 2xx is success. A non-2xx, a timeout (`config.webhookTimeoutMs`) or a
 *   network error (refused connection, DNS, reset) is a failed attempt,
 *   retried on the emulated clock after `RETRY_DELAYS_MS[n]`, each counted
 *   from the previous failure; after the 8th scheduled attempt the delivery
 *   is `failed`. Retries keep the same `svix-id`; redirects are not followed
 *   (a 3xx is a failure).
 * - Each attempt reads the webhook afresh: a webhook deleted or disabled
 *   since gets no further attempt (delivery `cancelled`; the webhooks module
 *   also cancels pending deliveries at once); a changed endpoint or secret is
 *   used by the next attempt.
 * - `--webhooks record`: nothing is sent; the attempt is recorded with the
 *   headers that would have been sent and the delivery is `recorded`.
 * - Replays (admin "Replay" button, SDK `webhooks.events.replay`) are one
 *   extra attempt outside the retry schedule: same `svix-id`, fresh
 *   signature. A successful replay ends the delivery as `succeeded` (a
 *   pending retry is dropped); a failed one leaves a pending delivery's
 *   schedule as it was and marks an ended delivery `failed`.
 *
 * Delivery statuses: `pending` (first attempt or a retry still to come) →
 * `succeeded` | `failed` | `recorded` | `cancelled`.
 */
import type { Webhook as WebhookType } from 'standardwebhooks';
import { lazy, requirePackage } from '../lazy.js';
import type { Emulator, WebhookEndpoint } from '../context.js';
import { defineJob } from '../clock/jobs.js';
import { cancelPendingOf, deleteDeliveriesOfEmails, deliveryRow, insertAttempt, scheduledAttempts, setDeliveryStatus, type DeliveryRow } from './store.js';

export type { DeliveryRow };
import { randomAlnum } from '../http/format.js';

/** standardwebhooks, loaded with the first signed delivery (start-up speed). */
const Webhook = lazy(() => requirePackage<{ Webhook: typeof WebhookType }>('standardwebhooks').Webhook);

// HTTP attempts: with the real clock a slow endpoint must not hold up other jobs.
/** `webhook.deliver`: one scheduled attempt (`deliver`). */
export const webhookDeliverJob = defineJob('webhook.deliver', (ctx, job) => deliver(ctx, job.payload.delivery_id, { jobId: job.id }), { detachInRealMode: true });
/** `webhook.replay`: one extra attempt, outside the retry schedule (`deliver` with `replay`). */
export const webhookReplayJob = defineJob('webhook.replay', (ctx, job) => deliver(ctx, job.payload.delivery_id, { replay: true, jobId: job.id }), { detachInRealMode: true });

/** Waits between attempts: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (docs/reference/webhooks.md#delivery-and-retries). */
export const RETRY_DELAYS_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** Attempts a delivery gets on its own: the first plus one per retry wait (8). */
const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/** How long the previous secret keeps signing after a rotation: 24 h (D:api-reference/webhooks/rotate-signing-secret). */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3_600_000;

/** Most characters of an endpoint's response body kept per attempt. */
const RESPONSE_EXCERPT_CHARS = 4_096;

/** User-Agent of deliveries. */
const DELIVERY_USER_AGENT = 'resend-emulator-webhooks/1';

/**
 * Builds the three Svix headers for a message. `secrets`: one signing secret
 * or several (each adds a space-separated `v1,` signature; any one verifies).
 * `when`: the signature time, wall clock by default (seconds in the header).
 * Throws if a secret is not `whsec_` + base64.
 */
function signHeaders(secrets: string | string[], msgId: string, payload: string, when: Date = new Date()): Record<string, string> {
  const list = Array.isArray(secrets) ? secrets : [secrets];
  const signature = list.map((s) => new (Webhook())(s).sign(msgId, when, payload)).join(' ');
  return {
    'svix-id': msgId,
    'svix-timestamp': String(Math.floor(when.getTime() / 1000)),
    'svix-signature': signature,
  };
}

/** A new attempt id: `atmpt_` + 27 alphanumerics (Svix's id style, like `msg_`). */
export function newAttemptId(): string {
  return `atmpt_${randomAlnum(27)}`;
}

/** The secrets a webhook signs with now: current, plus the previous one within its grace period. */
function signingSecrets(hook: Pick<WebhookEndpoint, 'signing_secret' | 'previous_signing_secret' | 'previous_secret_expires_at'>, nowMs: number): string[] {
  const out = [hook.signing_secret];
  if (hook.previous_signing_secret && hook.previous_secret_expires_at !== null && nowMs < hook.previous_secret_expires_at) {
    out.push(hook.previous_signing_secret);
  }
  return out;
}

/** Cancels the pending `webhook.deliver` jobs of one or more deliveries (one statement). */
function cancelRetries(ctx: Emulator, deliveryIds: string | string[]): void {
  webhookDeliverJob.cancel(ctx, 'delivery_id', deliveryIds);
}

/**
 * Marks every pending delivery of a webhook `cancelled` and drops its
 * scheduled attempts (the webhook was deleted or disabled: "no more
 * attempts", docs/reference/webhooks.md#delivery-and-retries), in two statements whatever their number, and
 * emits `'delivery'` on `ctx.bus` for each (the inbox shows the change).
 * Synchronous; call it in the caller's transaction. Returns the cancelled
 * delivery ids.
 */
export function cancelPendingDeliveries(ctx: Emulator, webhookId: string): string[] {
  const ids = cancelPendingOf(ctx, webhookId);
  cancelRetries(ctx, ids);
  for (const id of ids) ctx.bus.emit('delivery', id);
  return ids;
}

/**
 * Forgets the webhook deliveries of deleted emails (`emailIds`): the
 * deliveries of their `email.*` events, their attempts and their pending
 * attempt and replay jobs go; emits `'delivery'` on `ctx.bus` for each (the
 * inbox drops them). Synchronous; call it in the caller's transaction.
 * Returns the deleted delivery ids.
 */
export function forgetDeliveriesOfEmails(ctx: Emulator, emailIds: readonly string[]): string[] {
  const ids = deleteDeliveriesOfEmails(ctx, emailIds);
  cancelRetries(ctx, ids);
  webhookReplayJob.cancel(ctx, 'delivery_id', ids);
  for (const id of ids) ctx.bus.emit('delivery', id);
  return ids;
}

/**
 * The outcome of one attempt. `error`: why it failed (null = success).
 * `note`: set when nothing was sent on purpose (`--webhooks record`): a
 * success that ends the delivery `recorded`; stored like an error.
 */
interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  note?: string;
  response: string | null;
  durationMs: number;
  startedWallMs: number;
}

/**
 * The first `RESPONSE_EXCERPT_CHARS` characters of a response body (UTF-8),
 * reading no more of the stream than that needs; then cancels the body and
 * aborts the request (`drop`), so the connection is closed and a receiver
 * answering a huge or endless body costs at most one excerpt of memory
 * (a receiver's answer is read only up to the excerpt kept). A body that breaks off keeps what was read. Never throws.
 */
async function readExcerpt(res: Response, drop: AbortController): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let complete = false;
  try {
    while (text.length < RESPONSE_EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) {
        text += decoder.decode();
        complete = true;
        break;
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // Broken off or timed out while reading: keep what came.
  }
  if (!complete) {
    await reader.cancel().catch(() => undefined);
    drop.abort();
  }
  return text.slice(0, RESPONSE_EXCERPT_CHARS);
}

/** POSTs the payload; never throws. Reads at most an excerpt of the answer (see `readExcerpt`). */
async function post(ctx: Emulator, endpoint: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  let response: string | null = null;
  try {
    const drop = new AbortController();
    const res = await fetch(endpoint, {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.any([AbortSignal.timeout(ctx.config.webhookTimeoutMs), drop.signal]),
      redirect: 'manual',
    });
    statusCode = res.status;
    response = await readExcerpt(res, drop);
    if (statusCode < 200 || statusCode > 299) error = `endpoint answered ${statusCode}`;
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') error = `timed out after ${ctx.config.webhookTimeoutMs} ms`;
    else if (e.cause?.code) error = `${e.cause.code}: ${e.cause.message ?? e.message}`;
    else error = `${e.name}: ${e.message}${e.cause?.message ? ` (${e.cause.message})` : ''}`;
  }
  return { statusCode, error, response, durationMs: Date.now() - started, startedWallMs: started };
}

/**
 * Makes one attempt at a delivery and records it. `replay`: an extra attempt
 * asked for by a replay (made whatever the delivery's status, also to a
 * disabled webhook; see the file comment for its effect on the status).
 * A scheduled attempt on a delivery that is no longer `pending` does
 * nothing. Runs as the `webhook.deliver` / `webhook.replay` job or inside
 * `scheduler.exclusive` (admin replay), so attempts never overlap.
 * `jobId`: the job running it, ended (`scheduler.complete`) in the
 * transaction that records the attempt, so a crash while the request is
 * under way re-runs the attempt after the restart (same `svix-id`: receivers
 * dedupe) and a crash after it never repeats it (crash safety: a stop in the middle repeats nothing and loses nothing).
 * Emits `'delivery'` on `ctx.bus` with the delivery id once recorded.
 */
export async function deliver(ctx: Emulator, deliveryId: string, opts: { replay?: boolean; jobId?: number } = {}): Promise<void> {
  const replay = opts.replay ?? false;
  const d = deliveryRow(ctx, deliveryId);
  if (!d) return;
  if (d.status !== 'pending' && !replay) return;
  const hook = ctx.webhooks.find(ctx, d.webhook_id);
  if (!hook || (hook.status !== 'enabled' && !replay)) {
    if (!replay) {
      setDeliveryStatus(ctx, d.id, 'cancelled', null);
      ctx.bus.emit('delivery', d.id);
    }
    return;
  }
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': DELIVERY_USER_AGENT };
  let signError: string | null = null;
  try {
    Object.assign(headers, signHeaders(signingSecrets(hook, ctx.clock.nowMs()), d.id, d.payload));
  } catch (err) {
    // A malformed secret (e.g. from hand-written fixtures): a failed attempt, nothing sent.
    signError = `cannot sign with the webhook's secret: ${(err as Error).message}`;
  }

  let r: AttemptResult;
  if (signError) r = { statusCode: null, error: signError, response: null, durationMs: 0, startedWallMs: Date.now() };
  else if (ctx.config.webhooks === 'record') r = { statusCode: null, error: null, note: 'not sent: --webhooks record', response: null, durationMs: 0, startedWallMs: Date.now() };
  else r = await post(ctx, hook.endpoint, headers, d.payload);
  const okStatus = r.note !== undefined ? 'recorded' : 'succeeded';
  const now = ctx.clock.nowMs();
  ctx.db.transaction(() => {
    if (opts.jobId !== undefined) ctx.scheduler.complete(opts.jobId);
    insertAttempt(ctx, {
      id: newAttemptId(), deliveryId: d.id, at: now, wallTime: r.startedWallMs, statusCode: r.statusCode, error: r.error ?? r.note ?? null,
      durationMs: r.durationMs, headers: JSON.stringify(headers), response: r.response, endpoint: hook.endpoint, replay,
    });
    const current = deliveryRow(ctx, d.id);
    if (!current) return;
    if (replay) {
      if (!r.error) {
        setDeliveryStatus(ctx, d.id, okStatus, null);
        cancelRetries(ctx, d.id);
      } else if (current.status !== 'pending') {
        setDeliveryStatus(ctx, d.id, 'failed', null);
      }
      return;
    }
    if (!r.error) {
      setDeliveryStatus(ctx, d.id, okStatus, null);
      return;
    }
    // The webhook may have been deleted or disabled while the request ran.
    const fresh = ctx.webhooks.find(ctx, d.webhook_id);
    if (!fresh || fresh.status !== 'enabled') {
      setDeliveryStatus(ctx, d.id, 'cancelled', null);
      return;
    }
    const made = scheduledAttempts(ctx, d.id);
    const wait = made < MAX_ATTEMPTS ? RETRY_DELAYS_MS[made - 1] : undefined;
    if (wait === undefined) {
      setDeliveryStatus(ctx, d.id, 'failed', null);
    } else {
      setDeliveryStatus(ctx, d.id, 'pending', now + wait);
      webhookDeliverJob.schedule(ctx, { delivery_id: d.id }, { dueAt: now + wait, teamId: d.team_id });
    }
  })();
  ctx.bus.emit('delivery', d.id);
}
