/**
 * What other rooms may use of the topics resource (they import this file, never its store): everything another
 * room imports from topics comes through this file.
 */
export { findTopic, getTopicOr404, listTopics, pageTopics, type Subscription, type TopicRow } from './store.js';
