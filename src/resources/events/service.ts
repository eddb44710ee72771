/**
 * What other rooms may use of the events resource (they import this file, never its store). No other room
 * needs anything from it today; what one comes to need is exported here,
 * never imported from the resource's other files.
 */
export {};
