/**
 * What other rooms may use of the receiving resource (they import this file, never its store).
 */
export { receiveMessage, receivedRaw, storeReceivedEmail, type ReceivedCopy } from './receive.js';
export { buildMime, givenParts, parseAddressField, type InboundJson } from './mime.js';
export { findAttachment, findEmail, listReceivedEmails, attachmentsOf as receivedAttachmentsOf, type ReceivedEmailRow } from './store.js';
export { receivedEmailsByIds, receivedAttachmentsOfEmails, type ReceivedEmailHead } from './store.js';
