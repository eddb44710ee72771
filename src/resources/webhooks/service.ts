/**
 * What other rooms may use of the webhooks resource (they import this file, never its store): the
 * deliveries (src/deliveries/) find who gets an event and read the endpoint
 * and secrets of each attempt through `webhookDirectory`, handed to them
 * as `ctx.webhooks`.
 */
import type { WebhookDirectory } from '../../context.js';
import { findWebhook, subscribedWebhookIds } from './store.js';

export { findWebhook, type WebhookRow } from './store.js';

/** The endpoints as the deliveries read them through the context (`ctx.webhooks`). */
export const webhookDirectory: WebhookDirectory = { find: findWebhook, subscribed: subscribedWebhookIds };
