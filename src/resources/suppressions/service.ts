/**
 * What other rooms may use of the suppressions resource (issue 9): everything another
 * room imports from suppressions comes through this file.
 */
export { addSuppression, findSuppression } from './store.js';
