/**
 * What other rooms may use of the broadcasts resource (issue 9): everything another
 * room imports from broadcasts comes through this file.
 */
export { listBroadcasts } from './store.js';
export { broadcastSummary } from './stats.js';
export { broadcastNamesOf } from './store.js';
export { countBroadcasts } from './store.js';
