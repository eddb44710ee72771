/**
 * What other rooms may use of the segments resource (they import this file, never its store): everything another
 * room imports from segments comes through this file.
 */
export { countSegments, findSegment, getSegmentOr404, listSegments, segmentNamesOf } from './store.js';
