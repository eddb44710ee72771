/**
 * What other rooms may use of the segments resource (issue 9): everything another
 * room imports from segments comes through this file.
 */
export { countSegments, findSegment, getSegmentOr404, listSegments, segmentNamesOf } from './store.js';
