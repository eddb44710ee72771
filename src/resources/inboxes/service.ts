/**
 * What other rooms may use of the inboxes resource: the receiving resource
 * files received mail with `fileInbound`; the admin API reads inboxes and
 * acts as the agent.
 */
export { fileInbound } from './mail.js';
export { findAnyInbox, inboxesForReceivingAddress, type InboxRow } from './store.js';
export { assignFromDashboard, performAgentAction } from './agent.js';
export { inboxesDashboard, inboxThreadViews, type InboxThreadFilter, type InboxThreadView } from './shapes.js';
