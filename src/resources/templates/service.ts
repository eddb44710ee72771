/**
 * What other rooms may use of the templates resource (they import this file, never its store): everything another
 * room imports from templates comes through this file.
 */
export { compilePlaceholders, fillPlaceholders, placeholderPattern, renderTemplate, resolvePublishedTemplate, UNKNOWN_PLACEHOLDER } from './render.js';
