/**
 * Webhook endpoint rows: storage, lookup, secrets and endpoint checks
 * (docs/reference/interface-spec.md#webhook; docs/reference/formats.md#ids-and-tokens; docs/reference/resources.md#webhook-endpoints; docs/reference/webhooks.md).
 */
import { randomBytes } from 'node:crypto';
import type { Emulator } from '../../context.js';
import { newId } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { teamPager } from '../../http/pagination.js';
import { webhookMessages } from './messages.js';
import type { SchemaOf } from '../../http/document-types.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';
import { forgetSubscriptions } from '../../deliveries/emit.js';

/** The `webhooks` table. Times: emulated ms. */
export const webhooksTable = defineTable(
  'webhooks',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    endpoint: text().notNull(),
    /** JSON array of event types. */
    events: text().notNull(),
    status: text().notNull().as<SchemaOf<'WebhookStatus'>>(),
    signing_secret: text().notNull(),
    created_at: integer().notNull(),
    /** The secret replaced by the last rotation; still signs until `previous_secret_expires_at`. */
    previous_signing_secret: text(),
    previous_secret_expires_at: integer(),
  },
  {
    indexes: [
      { name: 'webhooks_team', on: 'team_id' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [webhooksTable];

/** A `webhooks` row. Times: emulated ms. */
export type WebhookRow = RowOf<typeof webhooksTable>;

/** The INSERT of a new webhook: no previous secret yet. */
const INSERT_WEBHOOK = webhooksTable.insert(webhooksTable.columnsExcept('seq', 'previous_signing_secret', 'previous_secret_expires_at'));

/** A new signing secret: `whsec_` + base64 of 24 random bytes (docs/reference/formats.md#ids-and-tokens; docs/reference/webhooks.md#signing). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The team's webhook, or 404 `not_found` ``Webhook not found``. */
export function getWebhookOr404(ctx: Emulator, teamId: string, id: string): WebhookRow {
  const row = ctx.db.prepare('SELECT * FROM webhooks WHERE id = ? AND team_id = ?').get(id, teamId) as WebhookRow | undefined;
  if (!row) throw errors.notFound('Webhook');
  return row;
}

/**
 * Checks what the JSON Schema cannot: the endpoint parses as an absolute
 * `http:`/`https:` URL with a host and no credentials. Throws 422
 * `invalid_parameter` (the service's "malformed value", docs/reference/errors.md#error-names-and-statuses).
 * Plain `http:` and loopback hosts are allowed: receivers under test run
 * locally.
 */
export function checkEndpoint(endpoint: string): void {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw webhookMessages.endpointNotUrl();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw webhookMessages.endpointNotUrl();
  }
  if (url.username || url.password) {
    throw webhookMessages.endpointCredentials();
  }
}

/** Inserts a webhook endpoint (status `enabled` unless given); returns its row. The deliveries' kept subscriptions are forgotten (`forgetSubscriptions`), as by the two writes below. */
export function insertWebhook(
  ctx: Emulator,
  w: { id?: string; teamId: string; endpoint: string; events: string[]; status?: WebhookRow['status']; signingSecret?: string; createdAt?: number },
): WebhookRow {
  const id = w.id ?? newId();
  ctx.db.prepare(INSERT_WEBHOOK.sql).run(...INSERT_WEBHOOK.params({
    id,
    team_id: w.teamId,
    endpoint: w.endpoint,
    events: JSON.stringify(w.events),
    status: w.status ?? 'enabled',
    signing_secret: w.signingSecret ?? newSigningSecret(),
    created_at: w.createdAt ?? ctx.clock.nowMs(),
  }));
  forgetSubscriptions(ctx);
  return ctx.db.prepare('SELECT * FROM webhooks WHERE id = ?').get(id) as WebhookRow;
}

/** The webhook with this id (any team), or undefined (read afresh by every delivery attempt). */
export function findWebhook(ctx: Emulator, id: string): WebhookRow | undefined {
  return ctx.db.prepare('SELECT * FROM webhooks WHERE id = ?').get(id) as WebhookRow | undefined;
}

/** Ids of the team's enabled webhooks subscribed to `type`, oldest first (who gets an event). */
export function subscribedWebhookIds(ctx: Emulator, teamId: string, type: string): string[] {
  const hooks = ctx.db
    .prepare(`SELECT id, events FROM webhooks WHERE team_id = ? AND status = 'enabled' ORDER BY seq`)
    .all(teamId) as Pick<WebhookRow, 'id' | 'events'>[];
  return hooks.filter((h) => (JSON.parse(h.events) as string[]).includes(type)).map((h) => h.id);
}

/** The columns its list items read (`WEBHOOK_LIST_COLUMNS`, `WebhookListRow`). */
const WEBHOOK_LIST_NAMES = ['id', 'created_at', 'status', 'endpoint', 'events'] as const;

/** The columns its list items read (a page selects only these, not the secrets: a list reads only what it shows). */
export const WEBHOOK_LIST_COLUMNS = webhooksTable.columnList(WEBHOOK_LIST_NAMES);

/** A row as a list page reads it (`WEBHOOK_LIST_COLUMNS`). */
export type WebhookListRow = Pick<WebhookRow, (typeof WEBHOOK_LIST_NAMES)[number]>;

/** A page of the team's `webhooks` rows (`paginateTeam` options but the table). */
export const pageWebhooks = teamPager<WebhookRow>('webhooks');

/** Sets a webhook's endpoint, events (JSON text) and status. */
export function updateWebhook(ctx: Emulator, id: string, w: Pick<WebhookRow, 'endpoint' | 'events' | 'status'>): void {
  ctx.db.prepare('UPDATE webhooks SET endpoint = ?, events = ?, status = ? WHERE id = ?').run(w.endpoint, w.events, w.status, id);
  forgetSubscriptions(ctx);
}

/** Deletes a webhook row (the caller cancels its pending deliveries in the same transaction). */
export function deleteWebhook(ctx: Emulator, id: string): void {
  ctx.db.prepare('DELETE FROM webhooks WHERE id = ?').run(id);
  forgetSubscriptions(ctx);
}

/** Gives a webhook a new signing secret; the previous one keeps signing until `previousUntil` (emulated ms). */
export function rotateSecret(ctx: Emulator, id: string, secret: string, previous: string, previousUntil: number): void {
  ctx.db.prepare('UPDATE webhooks SET signing_secret = ?, previous_signing_secret = ?, previous_secret_expires_at = ? WHERE id = ?').run(secret, previous, previousUntil, id);
}
