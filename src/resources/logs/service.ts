/**
 * What other rooms may use of the logs resource (issue 9). No other room
 * needs anything from it today; what one comes to need is exported here,
 * never imported from the resource's other files.
 */
export {};
