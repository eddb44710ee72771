/**
 * What other rooms may use of the automations resource (issue 9): everything another
 * room imports from automations comes through this file.
 */
export { listRuns, runStepRows } from './store.js';
export { dispatchEvent } from './jobs.js';
export { countRuns } from './store.js';
