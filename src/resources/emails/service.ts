/**
 * What other rooms may use of the emails resource (they import this file, never its store): everything another
 * room imports from emails comes through this file.
 */
export { attachmentsOf, eventsOf, headersOf, list, loadEmail, simulateEngagement, tagsOf, type AttachmentRow, type EmailRow } from './store.js';
export { FAILABLE, simulateDeliveryProblem } from './jobs.js';
export { attachmentBytes, checkSender, parseScheduledAt, sendEmail, SendBatch, type SendEmailInput } from './send.js';
export { emailsOfBroadcast } from './store.js';
export { asList, bareAddress, parseAddress } from './addresses.js';
export { emailRows, findEmailAttachment } from './store.js';
export { attachmentMetaOfEmails, emailsByIds, type EmailWithBodies } from './store.js';
export { seedEmail, type FixtureEmail } from './seed.js';
export { EmailQuota, quotaHeadersOf } from './quota.js';
export { htmlToText } from './text.js';
export { clearTeamEmails, deleteEmails } from './delete.js';
