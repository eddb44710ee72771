/**
 * What other rooms may use of the contact-properties resource (they import this file, never its store): everything another
 * room imports from contact-properties comes through this file.
 */
export { checkTyped, fallbackOf, propertiesByKey, validateContactProperties, type PropertyRow } from './store.js';
/** Its error messages, for the rooms that refuse a contact's property the same way (contacts' CSV-import path). */
export { contactPropertyMessages } from './messages.js';
