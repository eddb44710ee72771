/**
 * What other rooms may use of the templates resource (issue 9): everything another
 * room imports from templates comes through this file.
 */
export { fillPlaceholders, renderTemplate, resolvePublishedTemplate, UNKNOWN_PLACEHOLDER } from './render.js';
