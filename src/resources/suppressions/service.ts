/**
 * What other rooms may use of the suppressions resource (they import this file, never its store): everything another
 * room imports from suppressions comes through this file.
 */
export { addSuppression, findSuppression } from './store.js';
