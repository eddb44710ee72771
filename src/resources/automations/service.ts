/**
 * What other rooms may use of the automations resource (they import this file, never its store): everything another
 * room imports from automations comes through this file.
 */
export { listRuns, runStepRows } from './store.js';
export { dispatchEvent } from './jobs.js';
export { countRuns } from './store.js';
