/**
 * What other rooms may use of the inboxes resource: the receiving resource
 * files received mail with `fileInbound`; the admin API reads inboxes and
 * acts as the agent.
 */
export { fileInbound, messageIdsIn, type InboundMessage } from './mail.js';
export { findAnyInbox, inboxesForReceivingAddress, listDrafts, listInboxes, listThreads, threadMessages, type InboxRow, type ThreadRow } from './store.js';
export { FORWARDING_DOMAIN } from './handlers.js';
export { assignFromDashboard, performAgentAction, type AgentActionInput } from './agent.js';
export { inboxesDashboard, inboxThreadViews, type InboxThreadFilter, type InboxThreadView } from './shapes.js';
