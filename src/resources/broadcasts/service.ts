/**
 * What other rooms may use of the broadcasts resource (they import this file, never its store): everything another
 * room imports from broadcasts comes through this file.
 */
export { listBroadcasts } from './store.js';
export { broadcastSummary } from './stats.js';
export { broadcastNamesOf } from './store.js';
export { countBroadcasts } from './store.js';
