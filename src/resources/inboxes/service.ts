/**
 * What other rooms may use of the inboxes resource: the server hands
 * `inboxRouter` to the context (`ctx.inboxes`), through which the receiving
 * resource files received mail; the admin API reads inboxes and acts as the
 * agent.
 */
export { inboxRouter } from './mail.js';
export { findAnyInbox, type InboxRow } from './store.js';
export { assignFromDashboard, performAgentAction } from './agent.js';
export { inboxesDashboard, inboxThreadViews, type InboxThreadFilter, type InboxThreadView } from './shapes.js';
