// @ts-check
/**
 * The page's types, taken from the admin document (spec/openapi.yaml, as
 * generated into src/generated/openapi.ts by `npm run gen:types`): JSDoc
 * type imports, erased at run time, so the browser loads nothing of them.
 * A change of the admin document that the page does not follow fails
 * `tsc -p web/tsconfig.json`.
 */

/** @typedef {import('../../src/generated/openapi.js').operations} Operations */
/** @typedef {import('../../src/generated/openapi.js').components['schemas']} Schemas */
/**
 * The JSON body of an operation's 200 answer.
 * @template {keyof Operations} Op
 * @typedef {Operations[Op] extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never} Ok
 */

/** @typedef {Ok<'admin/list-teams'>['data'][number]} Team */
/** @typedef {Ok<'admin/list-emails'>['data'][number]} Email a sent email as GET /_emulator/emails lists it */
/** @typedef {Ok<'admin/list-webhook-deliveries'>['data'][number]} Delivery */
/** @typedef {Ok<'admin/dashboard-received-emails'>['data'][number]} Received a received email */
/** @typedef {Ok<'admin/dashboard-domains'>['data'][number]} Domain */
/** @typedef {Ok<'admin/dashboard-contacts'>} ContactsView */
/** @typedef {ContactsView['data'][number]} Contact */
/** @typedef {Ok<'admin/dashboard-broadcasts'>['data'][number]} Broadcast */
/** @typedef {Ok<'admin/dashboard-automation-runs'>['data'][number]} Run */
/** @typedef {Ok<'admin/dashboard-inboxes'>['data'][number]} Inbox */
/** @typedef {Ok<'admin/dashboard-usage'>} Usage */
/** @typedef {Ok<'admin/email-html-check'>} HtmlCheck */
/** @typedef {Ok<'admin/email-link-check'>} LinkCheck */
/** @typedef {Ok<'admin/get-clock'>} Clock */
/** @typedef {Ok<'admin/advance-clock'>} Advanced */

/** The page's tabs. @typedef {'emails' | 'received' | 'deliveries' | 'domains' | 'contacts' | 'broadcasts' | 'runs' | 'inboxes'} Tab */
/** The kinds of items the tabs list. @typedef {'email' | 'received' | 'delivery' | 'domain' | 'contact' | 'broadcast' | 'run' | 'inbox'} Kind */
/** The item of each kind. @typedef {{ email: Email, received: Received, delivery: Delivery, domain: Domain, contact: Contact, broadcast: Broadcast, run: Run, inbox: Inbox }} ItemOf */
/** @typedef {ItemOf[Kind]} Item */
/** The item shown in the detail. @typedef {{ kind: Kind, id: string }} Selection */
/** An email whose content the page shows (preview, source, checks): sent or received. @typedef {Email | Received} Message */

export {};
