/**
 * What other rooms may use of the webhooks resource (issue 9): the
 * deliveries (src/deliveries/) find who gets an event and read the endpoint
 * and secrets of each attempt through these.
 */
export { findWebhook, subscribedWebhookIds, type WebhookRow } from './store.js';
