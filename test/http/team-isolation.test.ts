/**
 * Team isolation audit (docs/reference/interface-spec.md#conventions: every resource belongs
 * to a team; a key never sees another team's data → 404 `not_found`).
 *
 * One table, keyed by operationId, covers EVERY operation of
 * `spec/openapi.yaml` outside `/_emulator/*`:
 * - `byId`: the default team's resource is addressed with the second team's
 *   key → 404 `not_found` in the error shape, and the owner reads the
 *   resource back unchanged;
 * - `list`: the second team's list holds none of the default team's ids, and
 *   `after`/`before` set to one of them → 422 (not a page of foreign data);
 * - `xref`: the body (or query) names another team's resource → refused,
 *   never linked;
 * - `none`: not addressed by id, with the reason.
 * The first test fails when an operation of the document has no row, so a
 * new operation cannot escape the audit.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/http/spec.js';
import { FIXTURES, useFreshEmulatorPerTest, type TestEmulator } from '../helpers.js';

const F = {
  contact: '1a2b3c4d-5e6f-4a7b-8c8d-9e0f1a2b3c4d',
  contactEmail: 'alice@example.org',
  segment: '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b',
  segment2: '0f1a2b3c-4d5e-4f6a-9b7c-8d9e0f1a2b3c',
  topic: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
  property: '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
  template: '7e1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  templateAlias: 'welcome',
  sentBroadcast: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
  draftBroadcast: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
  automation: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
  event: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e',
  eventName: 'user.signed_up',
  fixtureEmail: 'a1b2c3d4-0001-4a5b-8c6d-7e8f9a0b1c2d',
  domain: FIXTURES.verifiedDomainId,
  ownerKeyId: '0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b',
  grant: 'd4e5f6a7-b8c9-4d0e-9f1a-2b3c4d5e6f7a',
};

/** Ids of resources the default team creates through the API for the audit. */
interface World {
  apiKey: string;
  domain: string; // not verified
  claimDomain: string; // default team's placeholder for claimable.dev with a pending claim
  webhook: string;
  webhookEvent: string;
  email: string; // sent, with an attachment
  emailAttachment: string;
  scheduledEmail: string;
  received: string;
  receivedAttachment: string;
  contactImport: string;
  audience: string;
  draftTemplate: string;
  run: string;
  suppression: string;
  suppressedEmail: string;
  log: string;
  inbox: string; // inbox@example.com, with the inbound email as a thread
  thread: string;
  label: string; // on the thread
  draft: string;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

async function ok<T = any>(res: Promise<{ status: number; body: any }> | { status: number; body: any }, what: string): Promise<T> {
  const r = await res;
  if (r.status >= 300) throw new Error(`setup ${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as T;
}

/** Creates one of every kind of resource in the default team. */
async function buildWorld(t: TestEmulator): Promise<World> {
  const api = t.api;
  const apiKey = (await ok(api.post('/api-keys').send({ name: 'iso' }), 'api key')).id;
  const domain = (await ok(api.post('/domains').send({ name: 'iso.example.net' }), 'domain')).id;
  const claimDomain = (await ok(api.post('/domains/claim').send({ name: FIXTURES.claimableDomain }), 'claim')).domain_id;
  const webhook = (await ok(api.post('/webhooks').send({ endpoint: 'http://127.0.0.1:9/iso', events: ['email.sent', 'email.delivered'] }), 'webhook')).id;
  const email = (
    await ok(
      api.post('/emails').send({
        from: 'Acme <hello@example.com>',
        to: ['delivered@resend.dev'],
        subject: 'Isolation',
        html: '<p>hi</p>',
        attachments: [{ filename: 'a.txt', content: b64('hello') }],
      }),
      'email',
    )
  ).id;
  const scheduledEmail = (
    await ok(api.post('/emails').send({ from: 'hello@example.com', to: ['delivered@resend.dev'], subject: 'Later', text: 'x', scheduled_at: 'in 1 hour' }), 'scheduled email')
  ).id;
  const inbox = (await ok(api.post('/inboxes').send({ email_address: 'inbox@example.com' }), 'inbox')).id;
  await ok(
    t.anon.post('/_emulator/inbound').send({ from: 'sender@elsewhere.org', to: ['inbox@example.com'], subject: 'In', text: 'hi', attachments: [{ filename: 'b.txt', content: b64('yo') }] }),
    'inbound',
  );
  const contactImport = (await ok(api.post('/contacts/imports').attach('file', Buffer.from('email\nimported@example.net\n'), { filename: 'c.csv', contentType: 'text/csv' }), 'import')).id;
  const audience = (await ok(api.post('/audiences').send({ name: 'Iso audience' }), 'audience')).id;
  const draftTemplate = (await ok(api.post('/templates').send({ name: 'Iso draft', html: '<p>x</p>' }), 'template')).id;
  await ok(api.post('/events/send').send({ event: F.eventName, email: F.contactEmail, payload: { plan: 'pro' } }), 'events/send');
  const suppressedEmail = 'suppressed@example.net';
  const suppression = (await ok(api.post('/suppressions').send({ email: suppressedEmail }), 'suppression')).id;
  await t.emu.clock.advance('30s');
  const webhookEvent = (await ok(api.get(`/webhooks/${webhook}/events`), 'webhook events')).data[0].id;
  const emailAttachment = (await ok(api.get(`/emails/${email}/attachments`), 'attachments')).data[0].id;
  const received = (await ok(api.get('/emails/receiving'), 'receiving')).data[0].id;
  const receivedAttachment = (await ok(api.get(`/emails/receiving/${received}/attachments`), 'received attachments')).data[0].id;
  const run = (await ok(api.get(`/automations/${F.automation}/runs`), 'runs')).data[0].id;
  const log = (await ok(api.get('/logs'), 'logs')).data[0].id;
  const thread = (await ok(api.get(`/inboxes/${inbox}/threads`), 'threads')).data[0].id;
  const label = (await ok(api.post(`/inboxes/${inbox}/labels`).send({ name: 'Iso' }), 'label')).id;
  await ok(api.post(`/inboxes/${inbox}/threads/${thread}/labels`).send({ labels: [label] }), 'thread label');
  const draft = (await ok(api.post(`/inboxes/${inbox}/drafts`).send({ to: 'delivered@resend.dev', text: 'draft' }), 'draft')).id;
  for (const [k, v] of Object.entries({ webhookEvent, emailAttachment, received, receivedAttachment, run, log, thread })) {
    if (!v) throw new Error(`setup: no ${k}`);
  }
  return {
    apiKey, domain, claimDomain, webhook, webhookEvent, email, emailAttachment, scheduledEmail, received, receivedAttachment,
    contactImport, audience, draftTemplate, run, suppression, suppressedEmail, log, inbox, thread, label, draft,
  };
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT';
type Client = ReturnType<TestEmulator['as']>;

interface ByIdCase {
  kind: 'byId';
  /** One or more paths addressing the default team's resource (ids, emails, names). */
  paths: (w: World) => string[];
  body?: (w: World) => object;
  /** GET path the owner reads before and after; defaults to the (first) path for GETs. */
  readBack?: (w: World) => string;
  /**
   * The service answers this operation with a success even for an id that
   * never existed (a recording says so); then another team's id must get
   * exactly that answer, with no effect. The reason cites the recording.
   */
  unknownAnswersOk?: string;
}
interface ListCase {
  kind: 'list';
  /** Default-team ids that belong in this list (must not show for the other team). */
  ownIds: (w: World) => string[];
  /** Extra query, e.g. a required filter. */
  query?: string;
  /** `after`/`before` are not parameters of this list. */
  noCursors?: boolean;
}
interface XrefCase {
  kind: 'xref';
  cases: { name: string; run: (t: TestEmulator, w: World, other: Client) => Promise<void> }[];
}
interface NoneCase {
  kind: 'none';
  reason: string;
}
type Case = ByIdCase | ListCase | XrefCase | NoneCase;

function send(c: Client, method: Method, path: string, body?: object) {
  const m = method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete' | 'put';
  const req = c[m](path);
  return body ? req.send(body) : req;
}

/** Expects 404 `not_found` in the error shape. */
function expectNotFound(res: { status: number; body: any }, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(404);
  expect(res.body).toEqual({ statusCode: 404, name: 'not_found', message: expect.any(String) });
}

/** Expects a refusal (404, or 403/422 where the module documents it) in the error shape. */
function expectRefused(res: { status: number; body: any }, what: string, statuses = [404]) {
  expect(statuses, `${what}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
  expect(res.body).toEqual({ statusCode: res.status, name: expect.any(String), message: expect.any(String) });
}

/** Every identifier of the default team's resources used in the table (ids, emails, aliases, names). */
function ownerIdentifiers(w: World): string[] {
  return [...new Set([...Object.values(F), ...Object.values(w)])].sort((a, b) => b.length - a.length);
}

/**
 * The same request with every owner identifier swapped for one that never
 * existed (fresh uuid, unknown address, unknown name), and a function that
 * swaps them back in a response body.
 */
function asUnknown(w: World, path: string, body?: object) {
  const pairs = ownerIdentifiers(w).map((v, i) => {
    const fresh = /^[0-9a-f-]{36}$/.test(v) ? randomUUID() : v.includes('@') ? `nobody${i}@unknown.example` : `unknown-name-${i}`;
    return [v, fresh] as const;
  });
  const swap = (text: string, from: 0 | 1) => pairs.reduce((acc, p) => acc.split(p[from]).join(p[1 - from]), text);
  return {
    path: swap(path, 0),
    body: body ? JSON.parse(swap(JSON.stringify(body), 0)) : undefined,
    back: (resBody: unknown) => JSON.parse(swap(JSON.stringify(resBody ?? null), 1)),
  };
}

const emailBody = { from: 'Other <hi@claimable.dev>', to: ['delivered@resend.dev'], subject: 's', html: '<p>x</p>' };

const TABLE: Record<string, Case> = {
  // --- API keys ---
  'api-keys/list': { kind: 'list', ownIds: (w) => [w.apiKey, F.ownerKeyId] },
  'api-keys/create': {
    kind: 'xref',
    cases: [
      {
        name: 'sending key restricted to another team\'s domain',
        run: async (t, w, other) => {
          const res = await other.post('/api-keys').send({ name: 'x', permission: 'sending_access', domain_id: F.domain });
          expectRefused(res, 'api-keys/create', [404, 422]);
          const keys = (await other.get('/api-keys')).body.data;
          expect(keys.map((k: any) => k.name)).not.toContain('x');
        },
      },
    ],
  },
  'api-keys/update': { kind: 'byId', paths: (w) => [`/api-keys/${w.apiKey}`], body: () => ({ name: 'renamed' }), readBack: () => '/api-keys' },
  'api-keys/remove': { kind: 'byId', paths: (w) => [`/api-keys/${w.apiKey}`, `/api-keys/${F.ownerKeyId}`], readBack: () => '/api-keys' },

  // --- Domains ---
  'domains/list': { kind: 'list', ownIds: (w) => [F.domain, w.domain, w.claimDomain] },
  'domains/create': { kind: 'none', reason: 'addressed by name; a name another team verified is the claim flow (domains tests)' },
  'domains/create-claim': { kind: 'none', reason: 'addressed by name (domains tests)' },
  'domains/get': { kind: 'byId', paths: (w) => [`/domains/${F.domain}`, `/domains/${w.domain}`] },
  'domains/update': { kind: 'byId', paths: (w) => [`/domains/${w.domain}`], body: () => ({ open_tracking: true }), readBack: (w) => `/domains/${w.domain}` },
  'domains/remove': { kind: 'byId', paths: (w) => [`/domains/${w.domain}`, `/domains/${F.domain}`], readBack: (w) => `/domains/${w.domain}` },
  'domains/verify': { kind: 'byId', paths: (w) => [`/domains/${w.domain}/verify`], readBack: (w) => `/domains/${w.domain}` },
  'domains/get-claim': { kind: 'byId', paths: (w) => [`/domains/${w.claimDomain}/claim`] },
  'domains/verify-claim': { kind: 'byId', paths: (w) => [`/domains/${w.claimDomain}/claim/verify`], readBack: (w) => `/domains/${w.claimDomain}/claim` },

  // --- Webhooks ---
  'webhooks/list': { kind: 'list', ownIds: (w) => [w.webhook] },
  'webhooks/create': { kind: 'none', reason: 'no ids in the body' },
  'webhooks/get': { kind: 'byId', paths: (w) => [`/webhooks/${w.webhook}`] },
  'webhooks/update': { kind: 'byId', paths: (w) => [`/webhooks/${w.webhook}`], body: () => ({ status: 'disabled' }), readBack: (w) => `/webhooks/${w.webhook}` },
  'webhooks/remove': { kind: 'byId', paths: (w) => [`/webhooks/${w.webhook}`], readBack: (w) => `/webhooks/${w.webhook}` },
  'webhooks/rotate-signing-secret': { kind: 'byId', paths: (w) => [`/webhooks/${w.webhook}/signing-secret/rotate`], readBack: (w) => `/webhooks/${w.webhook}` },
  'webhooks/list-events': { kind: 'byId', paths: (w) => [`/webhooks/${w.webhook}/events`, `/webhooks/${w.webhook}/events?after=${w.webhookEvent}`] },
  'webhooks/get-event': { kind: 'byId', paths: (w) => [`/webhooks/${w.webhook}/events/${w.webhookEvent}`] },
  'webhooks/replay-event': {
    kind: 'byId',
    paths: (w) => [`/webhooks/${w.webhook}/events/${w.webhookEvent}/replay`],
    readBack: (w) => `/webhooks/${w.webhook}/events/${w.webhookEvent}/attempts`,
  },
  'webhooks/list-event-attempts': { kind: 'byId', paths: (w) => [`/webhooks/${w.webhook}/events/${w.webhookEvent}/attempts`] },

  // --- Emails (sending) ---
  'emails/list': { kind: 'list', ownIds: (w) => [w.email, w.scheduledEmail, F.fixtureEmail] },
  'emails/send': {
    kind: 'xref',
    cases: [
      {
        name: "another team's template",
        run: async (t, w, other) => {
          const { html: _h, ...body } = emailBody;
          expectRefused(await other.post('/emails').send({ ...body, template: { id: F.template } }), 'template id');
          expectRefused(await other.post('/emails').send({ ...body, template: { id: F.templateAlias } }), 'template alias');
        },
      },
      {
        name: "another team's topic",
        run: async (t, w, other) => {
          expectRefused(await other.post('/emails').send({ ...emailBody, topic_id: F.topic }), 'topic_id', [404, 422]);
        },
      },
      {
        name: "from another team's verified domain",
        run: async (t, w, other) => {
          const res = await other.post('/emails').send({ ...emailBody, from: 'Acme <hello@example.com>' });
          expectRefused(res, 'from', [403]);
        },
      },
    ],
  },
  'emails/send-legacy': {
    kind: 'xref',
    cases: [
      {
        name: "another team's template or verified domain, through the 0.x SDKs' POST /email",
        run: async (t, w, other) => {
          const { html: _h, ...body } = emailBody;
          expectRefused(await other.post('/email').send({ ...body, template: { id: F.template } }), 'template id');
          expectRefused(await other.post('/email').send({ ...emailBody, from: 'Acme <hello@example.com>' }), 'from', [403]);
        },
      },
    ],
  },
  'emails/send-batch': {
    kind: 'xref',
    cases: [
      {
        name: "another team's template or verified domain",
        run: async (t, w, other) => {
          const { html: _h, ...body } = emailBody;
          expectRefused(await other.post('/emails/batch').send([{ ...body, template: { id: F.template } }]), 'template', [404, 422]);
          expectRefused(await other.post('/emails/batch').send([{ ...emailBody, from: 'hello@example.com' }]), 'from', [403, 422]);
          expect((await other.get('/emails')).body.data).toEqual([]);
        },
      },
    ],
  },
  'emails/metrics': {
    kind: 'xref',
    cases: [
      {
        name: "filters naming another team's domain, email or broadcast",
        run: async (t, w, other) => {
          for (const q of [`domain_id=${F.domain}`, `email_id=${w.email}`, `broadcast_id=${F.sentBroadcast}`]) {
            const res = await other.get(`/emails/metrics?${q}`);
            // Exactly the answer for an id that never existed.
            const unknown = asUnknown(w, `/emails/metrics?${q}`);
            const never = await other.get(unknown.path);
            expect({ status: res.status, body: res.body }, q).toEqual({ status: never.status, body: unknown.back(never.body) });
            if (res.status >= 300) expectRefused(res, q, [404, 422]);
          }
        },
      },
    ],
  },
  'emails/get': { kind: 'byId', paths: (w) => [`/emails/${w.email}`, `/emails/${F.fixtureEmail}`] },
  'emails/update': { kind: 'byId', paths: (w) => [`/emails/${w.scheduledEmail}`], body: () => ({ scheduled_at: 'in 2 hours' }), readBack: (w) => `/emails/${w.scheduledEmail}` },
  'emails/cancel': { kind: 'byId', paths: (w) => [`/emails/${w.scheduledEmail}/cancel`], readBack: (w) => `/emails/${w.scheduledEmail}` },
  'emails/share': { kind: 'byId', paths: (w) => [`/emails/${w.email}/share`], body: () => ({}), readBack: (w) => `/emails/${w.email}` },
  'emails/list-attachments': { kind: 'byId', paths: (w) => [`/emails/${w.email}/attachments`] },
  'emails/get-attachment': { kind: 'byId', paths: (w) => [`/emails/${w.email}/attachments/${w.emailAttachment}`] },

  // --- Emails (receiving) ---
  'emails/list-receiving': { kind: 'list', ownIds: (w) => [w.received] },
  'emails/get-receiving': { kind: 'byId', paths: (w) => [`/emails/receiving/${w.received}`] },
  'emails/list-receiving-attachments': { kind: 'byId', paths: (w) => [`/emails/receiving/${w.received}/attachments`] },
  'emails/get-receiving-attachment': { kind: 'byId', paths: (w) => [`/emails/receiving/${w.received}/attachments/${w.receivedAttachment}`] },

  // --- Contacts ---
  'contacts/list': { kind: 'list', ownIds: () => [F.contact] },
  'contacts/create': {
    kind: 'xref',
    cases: [
      {
        name: "another team's segment or topic",
        run: async (t, w, other) => {
          expectRefused(await other.post('/contacts').send({ email: 'x1@example.net', segments: [{ id: F.segment }] }), 'segments', [404, 422]);
          expectRefused(await other.post('/contacts').send({ email: 'x2@example.net', segments: [F.segment] }), 'segment ids', [404, 422]);
          expectRefused(await other.post('/contacts').send({ email: 'x3@example.net', topics: [{ id: F.topic, subscription: 'opt_in' }] }), 'topics', [404, 422]);
          expect((await other.get('/contacts')).body.data).toEqual([]);
          expect((await t.api.get(`/segments/${F.segment}/contacts`)).body.data.map((c: any) => c.email)).not.toContain('x1@example.net');
        },
      },
    ],
  },
  'contacts/get': { kind: 'byId', paths: () => [`/contacts/${F.contact}`, `/contacts/${F.contactEmail}`] },
  'contacts/update': { kind: 'byId', paths: () => [`/contacts/${F.contact}`, `/contacts/${F.contactEmail}`], body: () => ({ first_name: 'Mallory' }), readBack: () => `/contacts/${F.contact}` },
  'contacts/remove': { kind: 'byId', paths: () => [`/contacts/${F.contact}`, `/contacts/${F.contactEmail}`], readBack: () => `/contacts/${F.contact}` },
  'contacts/list-segments': { kind: 'byId', paths: () => [`/contacts/${F.contact}/segments`, `/contacts/${F.contactEmail}/segments`] },
  'contacts/add-segment': {
    kind: 'byId',
    paths: () => [`/contacts/${F.contact}/segments/${F.segment2}`, `/contacts/${F.contactEmail}/segments/${F.segment2}`],
    readBack: () => `/contacts/${F.contact}/segments`,
  },
  'contacts/remove-segment': {
    kind: 'byId',
    paths: () => [`/contacts/${F.contact}/segments/${F.segment}`, `/contacts/${F.contactEmail}/segments/${F.segment}`],
    readBack: () => `/contacts/${F.contact}/segments`,
  },
  'contacts/list-topics': { kind: 'byId', paths: () => [`/contacts/${F.contact}/topics`, `/contacts/${F.contactEmail}/topics`] },
  'contacts/update-topics': {
    kind: 'byId',
    paths: () => [`/contacts/${F.contact}/topics`, `/contacts/${F.contactEmail}/topics`],
    body: () => ({ topics: [{ id: F.topic, subscription: 'opt_in' }] }),
    readBack: () => `/contacts/${F.contact}/topics`,
  },
  'audiences/list-contacts': { kind: 'byId', paths: () => [`/audiences/${F.segment}/contacts`] },
  'audiences/create-contact': { kind: 'byId', paths: () => [`/audiences/${F.segment}/contacts`], body: () => ({ email: 'intruder@example.net' }), readBack: () => `/segments/${F.segment}/contacts` },
  'audiences/get-contact': { kind: 'byId', paths: () => [`/audiences/${F.segment}/contacts/${F.contact}`, `/audiences/${F.segment}/contacts/${F.contactEmail}`] },
  'audiences/update-contact': {
    kind: 'byId',
    paths: () => [`/audiences/${F.segment}/contacts/${F.contact}`, `/audiences/${F.segment}/contacts/${F.contactEmail}`],
    body: () => ({ first_name: 'Mallory' }),
    readBack: () => `/contacts/${F.contact}`,
  },
  'audiences/remove-contact': {
    kind: 'byId',
    paths: () => [`/audiences/${F.segment}/contacts/${F.contact}`, `/audiences/${F.segment}/contacts/${F.contactEmail}`],
    readBack: () => `/contacts/${F.contact}`,
    unknownAnswersOk: 'DELETE /audiences/{id}/contacts/{id|email} answers 200 for a never-existing contact (docs/reference/formats.md#success-statuses)',
  },

  // --- Contact imports ---
  'contacts/list-imports': { kind: 'list', ownIds: (w) => [w.contactImport] },
  'contacts/create-import': {
    kind: 'xref',
    cases: [
      {
        name: "another team's segment or topic",
        run: async (t, w, other) => {
          const csv = Buffer.from('email\nimported2@example.net\n');
          const seg = await other.post('/contacts/imports').attach('file', csv, { filename: 'c.csv', contentType: 'text/csv' }).field('segments', JSON.stringify([{ id: F.segment }]));
          expectRefused(seg, 'segments', [404, 422]);
          const top = await other.post('/contacts/imports').attach('file', csv, { filename: 'c.csv', contentType: 'text/csv' }).field('topics', JSON.stringify([{ id: F.topic, subscription: 'opt_in' }]));
          expectRefused(top, 'topics', [404, 422]);
          await t.emu.clock.advance('1m');
          expect((await t.api.get(`/segments/${F.segment}/contacts`)).body.data.map((c: any) => c.email)).not.toContain('imported2@example.net');
        },
      },
    ],
  },
  'contacts/get-import': { kind: 'byId', paths: (w) => [`/contacts/imports/${w.contactImport}`] },

  // --- Segments and audiences ---
  'segments/list': { kind: 'list', ownIds: (w) => [F.segment, F.segment2, w.audience] },
  'segments/create': { kind: 'none', reason: 'no ids in the body' },
  'segments/get': { kind: 'byId', paths: () => [`/segments/${F.segment}`] },
  'segments/update': { kind: 'byId', paths: () => [`/segments/${F.segment}`], body: () => ({ name: 'Hijacked' }), readBack: () => `/segments/${F.segment}` },
  'segments/remove': {
    kind: 'byId',
    paths: () => [`/segments/${F.segment}`],
    readBack: () => `/segments/${F.segment}`,
    unknownAnswersOk: 'DELETE /segments/{id} answers 200 `deleted: true` for an id that never existed (docs/reference/formats.md#success-statuses, REC:SEG-remove-appears-to-remove)',
  },
  'segments/list-contacts': { kind: 'byId', paths: () => [`/segments/${F.segment}/contacts`] },
  'audiences/list': { kind: 'list', ownIds: (w) => [F.segment, w.audience] },
  'audiences/create': { kind: 'none', reason: 'no ids in the body' },
  'audiences/get': { kind: 'byId', paths: (w) => [`/audiences/${w.audience}`, `/audiences/${F.segment}`] },
  'audiences/remove': {
    kind: 'byId',
    paths: (w) => [`/audiences/${w.audience}`, `/audiences/${F.segment}`],
    readBack: () => '/segments',
    unknownAnswersOk: 'same handler as segments/remove (REC:SEG-remove-appears-to-remove)',
  },

  // --- Topics ---
  'topics/list': { kind: 'list', ownIds: () => [F.topic] },
  'topics/create': { kind: 'none', reason: 'no ids in the body' },
  'topics/get': { kind: 'byId', paths: () => [`/topics/${F.topic}`] },
  'topics/update': { kind: 'byId', paths: () => [`/topics/${F.topic}`], body: () => ({ name: 'Hijacked' }), readBack: () => `/topics/${F.topic}` },
  'topics/remove': { kind: 'byId', paths: () => [`/topics/${F.topic}`], readBack: () => `/topics/${F.topic}` },

  // --- Contact properties ---
  'contact-properties/list': { kind: 'list', ownIds: () => [F.property] },
  'contact-properties/create': { kind: 'none', reason: 'no ids in the body' },
  'contact-properties/get': { kind: 'byId', paths: () => [`/contact-properties/${F.property}`] },
  'contact-properties/update': { kind: 'byId', paths: () => [`/contact-properties/${F.property}`], body: () => ({ fallback_value: 'hijacked' }), readBack: () => `/contact-properties/${F.property}` },
  'contact-properties/remove': { kind: 'byId', paths: () => [`/contact-properties/${F.property}`], readBack: () => `/contact-properties/${F.property}` },

  // --- Templates ---
  'templates/list': { kind: 'list', ownIds: (w) => [F.template, w.draftTemplate] },
  'templates/create': { kind: 'none', reason: 'no ids in the body' },
  'templates/get': { kind: 'byId', paths: () => [`/templates/${F.template}`, `/templates/${F.templateAlias}`] },
  'templates/update': { kind: 'byId', paths: () => [`/templates/${F.template}`, `/templates/${F.templateAlias}`], body: () => ({ name: 'Hijacked' }), readBack: () => `/templates/${F.template}` },
  'templates/remove': { kind: 'byId', paths: () => [`/templates/${F.template}`, `/templates/${F.templateAlias}`], readBack: () => `/templates/${F.template}` },
  'templates/publish': { kind: 'byId', paths: (w) => [`/templates/${w.draftTemplate}/publish`], readBack: (w) => `/templates/${w.draftTemplate}` },
  'templates/duplicate': { kind: 'byId', paths: () => [`/templates/${F.template}/duplicate`, `/templates/${F.templateAlias}/duplicate`], readBack: () => '/templates' },

  // --- Broadcasts ---
  'broadcasts/list': { kind: 'list', ownIds: () => [F.sentBroadcast, F.draftBroadcast] },
  'broadcasts/create': {
    kind: 'xref',
    cases: [
      {
        name: "another team's segment or topic",
        run: async (t, w, other) => {
          const base = { from: 'Other <news@claimable.dev>', subject: 's', html: '<p>x</p>' };
          expectRefused(await other.post('/broadcasts').send({ ...base, segment_id: F.segment }), 'segment_id', [404, 422]);
          expectRefused(await other.post('/broadcasts').send({ ...base, audience_id: F.segment }), 'audience_id', [404, 422]);
          const seg = (await other.post('/segments').send({ name: 'Mine' })).body.id;
          expectRefused(await other.post('/broadcasts').send({ ...base, segment_id: seg, topic_id: F.topic }), 'topic_id', [404, 422]);
          expect((await other.get('/broadcasts')).body.data).toEqual([]);
        },
      },
    ],
  },
  'broadcasts/get': { kind: 'byId', paths: () => [`/broadcasts/${F.draftBroadcast}`, `/broadcasts/${F.sentBroadcast}`] },
  'broadcasts/update': {
    kind: 'byId',
    paths: () => [`/broadcasts/${F.draftBroadcast}`],
    body: () => ({ subject: 'Hijacked' }),
    readBack: () => `/broadcasts/${F.draftBroadcast}`,
  },
  'broadcasts/remove': { kind: 'byId', paths: () => [`/broadcasts/${F.draftBroadcast}`], readBack: () => `/broadcasts/${F.draftBroadcast}` },
  'broadcasts/send': { kind: 'byId', paths: () => [`/broadcasts/${F.draftBroadcast}/send`], body: () => ({}), readBack: () => `/broadcasts/${F.draftBroadcast}` },
  'broadcasts/cancel': { kind: 'byId', paths: () => [`/broadcasts/${F.draftBroadcast}/cancel`], readBack: () => `/broadcasts/${F.draftBroadcast}` },
  'broadcasts/duplicate': { kind: 'byId', paths: () => [`/broadcasts/${F.sentBroadcast}/duplicate`], readBack: () => '/broadcasts' },
  'broadcasts/recipients': { kind: 'byId', paths: () => [`/broadcasts/${F.sentBroadcast}/recipients?type=sent`] },
  'broadcasts/list-clicked-links': { kind: 'byId', paths: () => [`/broadcasts/${F.sentBroadcast}/clicked-links`] },

  // --- Automations ---
  'automations/list': { kind: 'list', ownIds: () => [F.automation] },
  'automations/create': {
    kind: 'xref',
    cases: [
      {
        // The module accepts a step's template/segment id unchecked at creation
        // (an unknown template fails the step at run time: runs.test.ts), so
        // another team's id must behave exactly like an unknown one: accepted,
        // then the step fails with not found; nothing is sent with the other
        // team's template, nothing added to its segment.
        name: "steps naming another team's template or segment (at run time)",
        run: async (t, w, other) => {
          const mk = (event: string, step: object) => ({
            name: 'Mine',
            status: 'enabled',
            steps: [{ key: 'start', type: 'trigger', config: { event_name: event } }, { key: 's', ...step }],
            connections: [{ from: 'start', to: 's', type: 'default' }],
          });
          const cases = [
            { event: 'x.tpl', step: { type: 'send_email', config: { template: { id: F.template }, from: 'hi@claimable.dev', subject: 's' } } },
            { event: 'x.alias', step: { type: 'send_email', config: { template: { id: F.templateAlias }, from: 'hi@claimable.dev', subject: 's' } } },
            { event: 'x.seg', step: { type: 'add_to_segment', config: { segment_id: F.segment } } },
          ];
          const segmentBefore = (await t.api.get(`/segments/${F.segment}/contacts`)).body;
          for (const c of cases) {
            const created = await other.post('/automations').send(mk(c.event, c.step));
            const unknown = asUnknown(w, '/automations', mk(c.event + '.u', c.step));
            const never = await other.post('/automations').send(unknown.body);
            expect(created.status, c.event).toBe(never.status);
            if (created.status >= 300) {
              expectRefused(created, c.event, [404, 422]);
              continue;
            }
            await other.post('/events/send').send({ event: c.event, email: 'member@claimable.dev' });
            await t.emu.clock.advance('1m');
            const runs = (await other.get(`/automations/${created.body.id}/runs`)).body.data;
            expect(runs.map((r: any) => r.status), c.event).toEqual(['failed']);
            const run = (await other.get(`/automations/${created.body.id}/runs/${runs[0].id}`)).body;
            expect(run.steps.find((s: any) => s.key === 's')).toMatchObject({ status: 'failed', output: null });
          }
          expect((await other.get('/emails')).body.data).toEqual([]);
          expect((await t.api.get(`/segments/${F.segment}/contacts`)).body).toEqual(segmentBefore);
        },
      },
    ],
  },
  'automations/get': { kind: 'byId', paths: () => [`/automations/${F.automation}`] },
  'automations/update': { kind: 'byId', paths: () => [`/automations/${F.automation}`], body: () => ({ status: 'disabled' }), readBack: () => `/automations/${F.automation}` },
  'automations/remove': { kind: 'byId', paths: () => [`/automations/${F.automation}`], readBack: () => `/automations/${F.automation}` },
  'automations/duplicate': { kind: 'byId', paths: () => [`/automations/${F.automation}/duplicate`], readBack: () => '/automations' },
  'automations/stop': { kind: 'byId', paths: () => [`/automations/${F.automation}/stop`], readBack: () => `/automations/${F.automation}` },
  'automations/list-runs': { kind: 'byId', paths: (w) => [`/automations/${F.automation}/runs`, `/automations/${F.automation}/runs?after=${w.run}`] },
  'automations/get-run': { kind: 'byId', paths: (w) => [`/automations/${F.automation}/runs/${w.run}`] },

  // --- Events ---
  'events/list': { kind: 'list', ownIds: () => [F.event] },
  'events/create': { kind: 'none', reason: 'no ids in the body (a name taken by another team is free here)' },
  'events/send': {
    kind: 'xref',
    cases: [
      {
        name: "another team's contact_id",
        run: async (t, w, other) => {
          await other.post('/events').send({ name: F.eventName });
          const res = await other.post('/events/send').send({ event: F.eventName, contact_id: F.contact });
          expectRefused(res, 'contact_id', [404, 422]);
          const runs = (await t.api.get(`/automations/${F.automation}/runs`)).body.data;
          expect(runs).toHaveLength(1);
        },
      },
    ],
  },
  'events/get': { kind: 'byId', paths: () => [`/events/${F.event}`, `/events/${F.eventName}`] },
  'events/update': { kind: 'byId', paths: () => [`/events/${F.event}`, `/events/${F.eventName}`], body: () => ({ schema: { hijacked: 'string' } }), readBack: () => `/events/${F.event}` },
  'events/remove': { kind: 'byId', paths: () => [`/events/${F.event}`, `/events/${F.eventName}`], readBack: () => `/events/${F.event}` },

  // --- Suppressions ---
  'suppressions/list': { kind: 'list', ownIds: (w) => [w.suppression] },
  'suppressions/add': { kind: 'none', reason: 'addressed by email address; each team has its own list' },
  'suppressions/batch-add': { kind: 'none', reason: 'addressed by email address; each team has its own list' },
  'suppressions/batch-remove': {
    kind: 'xref',
    cases: [
      {
        name: "another team's suppression ids or addresses",
        run: async (t, w, other) => {
          const byId = await other.post('/suppressions/batch/remove').send({ ids: [w.suppression] });
          if (byId.status < 300) expect(JSON.stringify(byId.body)).not.toContain(`"deleted":true`);
          else expectRefused(byId, 'ids', [404, 422]);
          await other.post('/suppressions/batch/remove').send({ emails: [w.suppressedEmail] });
          expect((await t.api.get(`/suppressions/${w.suppression}`)).status).toBe(200);
        },
      },
    ],
  },
  'suppressions/get': { kind: 'byId', paths: (w) => [`/suppressions/${w.suppression}`, `/suppressions/${w.suppressedEmail}`] },
  'suppressions/remove': { kind: 'byId', paths: (w) => [`/suppressions/${w.suppression}`, `/suppressions/${w.suppressedEmail}`], readBack: (w) => `/suppressions/${w.suppression}` },

  // --- Inboxes ---
  'inboxes/list': { kind: 'list', ownIds: (w) => [w.inbox] },
  'inboxes/create': {
    kind: 'xref',
    cases: [
      {
        name: "an address on another team's domain",
        run: async (t, w, other) => {
          expectRefused(await other.post('/inboxes').send({ email_address: 'mine@example.com' }), 'inboxes/create', [422]);
          expect((await other.get('/inboxes')).body.data).toEqual([]);
        },
      },
    ],
  },
  'inboxes/get': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}`, '/inboxes/inbox@example.com'] },
  'inboxes/update': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}`], body: () => ({ name: 'renamed' }), readBack: (w) => `/inboxes/${w.inbox}` },
  'inboxes/remove': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}`], readBack: (w) => `/inboxes/${w.inbox}` },
  'inboxes/threads/list': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/threads`, `/inboxes/${w.inbox}/threads?after=${w.thread}`] },
  'inboxes/threads/search': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/threads/search?query=hi`] },
  'inboxes/threads/get': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/threads/${w.thread}`] },
  'inboxes/threads/update': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/threads/${w.thread}`], body: () => ({ read: true, folder: 'archive' }), readBack: (w) => `/inboxes/${w.inbox}/threads/${w.thread}` },
  'inboxes/threads/remove': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/threads/${w.thread}`], readBack: (w) => `/inboxes/${w.inbox}/threads/${w.thread}` },
  'inboxes/threads/emails/list': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/threads/${w.thread}/emails`] },
  'inboxes/threads/emails/get': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/threads/${w.thread}/emails/${w.received}`] },
  'inboxes/threads/emails/reply': {
    kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/threads/${w.thread}/emails/${w.received}/reply`], body: () => ({ text: 'x' }), readBack: (w) => `/inboxes/${w.inbox}/threads/${w.thread}/emails`,
  },
  'inboxes/threads/emails/forward': {
    kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/threads/${w.thread}/emails/${w.received}/forward`], body: () => ({ to: 'delivered@resend.dev' }), readBack: (w) => `/inboxes/${w.inbox}/threads/${w.thread}/emails`,
  },
  'inboxes/threads/labels/add': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/threads/${w.thread}/labels`], body: (w) => ({ labels: [w.label] }), readBack: (w) => `/inboxes/${w.inbox}/threads/${w.thread}` },
  'inboxes/threads/labels/set': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/threads/${w.thread}/labels`], body: () => ({ labels: [] }), readBack: (w) => `/inboxes/${w.inbox}/threads/${w.thread}` },
  'inboxes/threads/labels/remove': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/threads/${w.thread}/labels/${w.label}`], readBack: (w) => `/inboxes/${w.inbox}/threads/${w.thread}` },
  'inboxes/labels/list': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/labels`] },
  'inboxes/labels/create': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/labels`], body: () => ({ name: 'New' }), readBack: (w) => `/inboxes/${w.inbox}/labels` },
  'inboxes/labels/update': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/labels/${w.label}`], body: () => ({ name: 'Renamed' }), readBack: (w) => `/inboxes/${w.inbox}/labels` },
  'inboxes/labels/remove': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/labels/${w.label}`], readBack: (w) => `/inboxes/${w.inbox}/labels` },
  'inboxes/drafts/list': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/drafts`] },
  'inboxes/drafts/create': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/drafts`], body: () => ({ text: 'x' }), readBack: (w) => `/inboxes/${w.inbox}/drafts` },
  'inboxes/drafts/get': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/drafts/${w.draft}`] },
  'inboxes/drafts/update': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/drafts/${w.draft}`], body: () => ({ text: 'y' }), readBack: (w) => `/inboxes/${w.inbox}/drafts/${w.draft}` },
  'inboxes/drafts/remove': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/drafts/${w.draft}`], readBack: (w) => `/inboxes/${w.inbox}/drafts/${w.draft}` },
  'inboxes/drafts/send': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/drafts/${w.draft}/send`], readBack: (w) => `/inboxes/${w.inbox}/drafts/${w.draft}` },
  'inboxes/agent/get': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/agent`] },
  'inboxes/agent/update': { kind: 'byId', paths: (w) => [`/inboxes/${w.inbox}/agent`], body: () => ({ instructions: 'x' }), readBack: (w) => `/inboxes/${w.inbox}/agent` },

  // --- Logs ---
  'logs/list': { kind: 'list', ownIds: (w) => [w.log] },
  'logs/get': { kind: 'byId', paths: (w) => [`/logs/${w.log}`] },

  // --- Usage ---
  'usage/get': {
    kind: 'xref',
    cases: [
      {
        name: "counts only the caller's team",
        run: async (t, w, other) => {
          const before = (await other.get('/usage')).body;
          const mine = (await t.api.get('/usage')).body;
          expect((await t.api.post('/emails').send({ from: 'Acme <hello@example.com>', to: ['delivered@resend.dev'], subject: 's', text: 'x' })).status).toBe(200);
          expect((await t.api.get('/usage')).body.emails.daily.sent).toBe(mine.emails.daily.sent + 1);
          const after = (await other.get('/usage')).body;
          expect(after.emails).toEqual(before.emails);
          expect(after.contacts.used).toBe(before.contacts.used);
        },
      },
    ],
  },

  // --- OAuth ---
  'oauth/list-grants': { kind: 'list', ownIds: () => [F.grant] },
  'oauth/revoke-grant': { kind: 'byId', paths: () => [`/oauth/grants/${F.grant}`], readBack: () => '/oauth/grants' },
};

/**
 * Mixed references: the caller addresses ITS OWN resource and names another
 * team's in the other path parameter, the query or the body. Each must
 * answer exactly as a never-existing id would (a refusal), and link nothing.
 */
const MIXED: { operationId: string; name: string; run: (t: TestEmulator, w: World, other: Client) => Promise<void> }[] = [
  {
    operationId: 'contacts/list',
    name: "segment_id filter naming another team's segment",
    run: async (t, w, other) => {
      const res = await other.get(`/contacts?segment_id=${F.segment}`);
      const never = await other.get(`/contacts?segment_id=${randomUUID()}`);
      expect(res.status).toBe(never.status);
      if (res.status === 200) expect(res.body.data).toEqual([]);
      else expectNotFound(res, 'segment_id');
    },
  },
  {
    operationId: 'contacts/add-segment',
    name: "own contact into another team's segment",
    run: async (t, w, other) => {
      const mine = (await ok(other.post('/contacts').send({ email: 'mine@claimable.dev' }), 'contact')).id;
      expectNotFound(await other.post(`/contacts/${mine}/segments/${F.segment}`), 'add-segment');
      expect((await other.get(`/contacts/${mine}/segments`)).body.data).toEqual([]);
      expect((await t.api.get(`/segments/${F.segment}/contacts`)).body.data.map((c: any) => c.id)).not.toContain(mine);
    },
  },
  {
    operationId: 'contacts/remove-segment',
    name: "own contact out of another team's segment",
    run: async (t, w, other) => {
      const mine = (await ok(other.post('/contacts').send({ email: 'mine@claimable.dev' }), 'contact')).id;
      expectNotFound(await other.delete(`/contacts/${mine}/segments/${F.segment}`), 'remove-segment');
    },
  },
  {
    operationId: 'contacts/update-topics',
    name: "own contact subscribed to another team's topic",
    run: async (t, w, other) => {
      const mine = (await ok(other.post('/contacts').send({ email: 'mine@claimable.dev' }), 'contact')).id;
      expectRefused(await other.patch(`/contacts/${mine}/topics`).send({ topics: [{ id: F.topic, subscription: 'opt_in' }] }), 'update-topics', [404, 422]);
      expect((await other.get(`/contacts/${mine}/topics`)).body.data).toEqual([]);
    },
  },
  {
    operationId: 'contacts/update',
    name: "own contact updated with another team's segment or topic",
    run: async (t, w, other) => {
      const mine = (await ok(other.post('/contacts').send({ email: 'mine@claimable.dev' }), 'contact')).id;
      for (const body of [{ segments: [{ id: F.segment }] }, { topics: [{ id: F.topic, subscription: 'opt_in' }] }]) {
        const res = await other.patch(`/contacts/${mine}`).send(body);
        if (res.status < 300) continue; // fields the operation does not take are ignored
        expectRefused(res, JSON.stringify(body), [404, 422]);
      }
      expect((await other.get(`/contacts/${mine}/segments`)).body.data).toEqual([]);
    },
  },
  {
    operationId: 'webhooks/list-events',
    name: "another team's webhook never receives this team's events",
    run: async (t, w, other) => {
      const hook = (await ok(other.post('/webhooks').send({ endpoint: 'http://127.0.0.1:9/other', events: ['email.sent', 'email.delivered', 'contact.created', 'domain.created'] }), 'webhook')).id;
      await ok(t.api.post('/emails').send({ from: 'hello@example.com', to: ['delivered@resend.dev'], subject: 'Mine', text: 'x' }), 'email');
      await ok(t.api.post('/contacts').send({ email: 'new-owner-contact@example.org' }), 'contact');
      await ok(t.api.post('/domains').send({ name: 'another.example.net' }), 'domain');
      await t.emu.clock.advance('1m');
      expect((await other.get(`/webhooks/${hook}/events`)).body.data).toEqual([]);
    },
  },
  {
    operationId: 'emails/send',
    name: "another team's suppression list does not apply",
    run: async (t, w, other) => {
      const sent = await ok(other.post('/emails').send({ from: 'hi@claimable.dev', to: [w.suppressedEmail], subject: 's', text: 'x' }), 'send');
      await t.emu.clock.advance('1m');
      expect((await other.get(`/emails/${sent.id}`)).body.last_event).not.toBe('suppressed');
      expect((await other.get('/suppressions')).body.data).toEqual([]);
    },
  },
  {
    operationId: 'templates/create',
    name: "names and aliases taken by another team are free",
    run: async (t, w, other) => {
      const tpl = await other.post('/templates').send({ name: 'Welcome', alias: F.templateAlias, html: '<p>mine</p>' });
      expect(tpl.status, JSON.stringify(tpl.body)).toBe(201);
      expect((await other.get(`/templates/${F.templateAlias}`)).body.id).toBe(tpl.body.id);
      expect((await t.api.get(`/templates/${F.templateAlias}`)).body.id).toBe(F.template);
      expect((await other.post('/events').send({ name: F.eventName })).status).toBe(201);
      expect((await other.post('/contact-properties').send({ key: 'company', type: 'string' })).status).toBe(201);
      expect((await other.post('/contacts').send({ email: F.contactEmail })).status).toBe(201);
      expect((await t.api.get(`/contacts/${F.contactEmail}`)).body.id).toBe(F.contact);
    },
  },
  {
    operationId: 'contacts/list-topics',
    name: "own contact's topics list none of another team's topics",
    run: async (t, w, other) => {
      const mine = (await ok(other.post('/contacts').send({ email: 'mine@claimable.dev' }), 'contact')).id;
      const ids = (await other.get(`/contacts/${mine}/topics`)).body.data.map((x: any) => x.id);
      expect(ids).not.toContain(F.topic);
    },
  },
  {
    operationId: 'webhooks/get-event',
    name: "own webhook, another team's event id",
    run: async (t, w, other) => {
      const hook = (await ok(other.post('/webhooks').send({ endpoint: 'http://127.0.0.1:9/other', events: ['email.sent'] }), 'webhook')).id;
      expectNotFound(await other.get(`/webhooks/${hook}/events/${w.webhookEvent}`), 'get-event');
      expectNotFound(await other.get(`/webhooks/${hook}/events/${w.webhookEvent}/attempts`), 'attempts');
      expectNotFound(await other.post(`/webhooks/${hook}/events/${w.webhookEvent}/replay`), 'replay');
      const page = await other.get(`/webhooks/${hook}/events?after=${w.webhookEvent}`);
      expect(page.status).toBe(422);
    },
  },
  {
    operationId: 'emails/get-attachment',
    name: "own email, another team's attachment id",
    run: async (t, w, other) => {
      const mine = (await ok(other.post('/emails').send({ from: 'hi@claimable.dev', to: ['delivered@resend.dev'], subject: 's', text: 'x', attachments: [{ filename: 'm.txt', content: b64('m') }] }), 'send')).id;
      expectNotFound(await other.get(`/emails/${mine}/attachments/${w.emailAttachment}`), 'get-attachment');
      expect((await other.get(`/emails/${mine}/attachments?after=${w.emailAttachment}`)).status).toBe(422);
    },
  },
  {
    operationId: 'automations/get-run',
    name: "own automation, another team's run id",
    run: async (t, w, other) => {
      const mine = (
        await ok(other.post('/automations').send({ name: 'Mine', steps: [{ key: 'start', type: 'trigger', config: { event_name: 'x.run' } }], connections: [] }), 'automation')
      ).id;
      expectNotFound(await other.get(`/automations/${mine}/runs/${w.run}`), 'get-run');
      expect((await other.get(`/automations/${mine}/runs?after=${w.run}`)).status).toBe(422);
    },
  },
  {
    operationId: 'broadcasts/update',
    name: "own draft pointed at another team's segment or topic",
    run: async (t, w, other) => {
      const seg = (await ok(other.post('/segments').send({ name: 'Mine' }), 'segment')).id;
      const mine = (await ok(other.post('/broadcasts').send({ segment_id: seg, from: 'hi@claimable.dev', subject: 's', html: '<p>x</p>' }), 'broadcast')).id;
      const before = (await other.get(`/broadcasts/${mine}`)).body;
      expectRefused(await other.patch(`/broadcasts/${mine}`).send({ segment_id: F.segment }), 'segment_id', [404, 422]);
      expectRefused(await other.patch(`/broadcasts/${mine}`).send({ topic_id: F.topic }), 'topic_id', [404, 422]);
      expect((await other.get(`/broadcasts/${mine}`)).body).toEqual(before);
    },
  },
  {
    operationId: 'automations/update',
    name: "own automation's steps naming another team's segment (at run time)",
    run: async (t, w, other) => {
      const graph = (step: object) => ({
        steps: [{ key: 'start', type: 'trigger', config: { event_name: 'x.upd' } }, { key: 's', ...step }],
        connections: [{ from: 'start', to: 's', type: 'default' }],
      });
      const mine = (await ok(other.post('/automations').send({ name: 'Mine', status: 'enabled', ...graph({ type: 'contact_delete', config: {} }) }), 'automation')).id;
      const upd = await other.patch(`/automations/${mine}`).send(graph({ type: 'add_to_segment', config: { segment_id: F.segment } }));
      if (upd.status >= 300) return expectRefused(upd, 'update', [404, 422]);
      const before = (await t.api.get(`/segments/${F.segment}/contacts`)).body;
      await other.post('/events/send').send({ event: 'x.upd', email: 'member@claimable.dev' });
      await t.emu.clock.advance('1m');
      expect((await other.get(`/automations/${mine}/runs`)).body.data.map((r: any) => r.status)).toEqual(['failed']);
      expect((await t.api.get(`/segments/${F.segment}/contacts`)).body).toEqual(before);
    },
  },
  {
    operationId: 'events/send',
    name: "another team's contact by email creates the caller's own contact",
    run: async (t, w, other) => {
      await other.post('/events').send({ name: F.eventName });
      const before = (await t.api.get(`/contacts/${F.contact}`)).body;
      await other.post('/events/send').send({ event: F.eventName, email: F.contactEmail });
      await t.emu.clock.advance('1m');
      expect((await t.api.get(`/contacts/${F.contact}`)).body).toEqual(before);
      expect((await t.api.get(`/automations/${F.automation}/runs`)).body.data).toHaveLength(1);
    },
  },
];

describe('team isolation', () => {
  // The demo fixtures: their sent broadcast and sent email are among the default team's resources the second team must not see.
  const t = useFreshEmulatorPerTest({ fixtures: 'demo' });

  it('has a row for every operation of the document outside /_emulator', async () => {
    const { operations } = await loadSpec();
    const ids = operations.filter((o) => !o.path.startsWith('/_emulator')).map((o) => o.operationId);
    expect(ids.filter((id) => !(id in TABLE)), 'operations missing from the isolation table').toEqual([]);
    expect(Object.keys(TABLE).filter((id) => !ids.includes(id)), 'rows for unknown operations').toEqual([]);
    for (const o of operations) {
      const row = TABLE[o.operationId];
      if (!row) continue;
      const idAddressed = /\{[^}]+\}/.test(o.path);
      if (idAddressed) expect(row.kind, `${o.operationId} addresses a resource by id`).toBe('byId');
      if (!idAddressed && o.method === 'GET' && o.parameters.some((p) => p.name === 'after')) expect(row.kind, `${o.operationId} is a list`).toBe('list');
    }
  });

  /** Operations by id, with method and whether they take a body, from the spec. */
  const opInfo = async (operationId: string) => {
    const { operations } = await loadSpec();
    const op = operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`no operation ${operationId}`);
    return op;
  };

  const byId = Object.entries(TABLE).filter((e): e is [string, ByIdCase] => e[1].kind === 'byId');
  it.each(byId)('%s: another team gets 404 and the resource is unchanged', async (operationId, row) => {
    const op = await opInfo(operationId);
    const w = await buildWorld(t);
    const other = t.as(FIXTURES.secondTeamKey);
    const readPath = row.readBack?.(w) ?? (op.method === 'GET' ? row.paths(w)[0] : null);
    if (!readPath) throw new Error(`${operationId}: a readBack is needed`);
    const before = await t.api.get(readPath);
    expect(before.status, `owner reads ${readPath}`).toBe(200);
    for (const p of row.paths(w)) {
      const body = row.body?.(w) ?? (op.body?.required ? {} : undefined);
      const foreign = await send(other, op.method as Method, p, body);
      if (!row.unknownAnswersOk) expectNotFound(foreign, `${op.method} ${p}`);
      // Indistinguishable from an id that never existed: same status, same body.
      const unknown = asUnknown(w, p, body);
      const never = await send(other, op.method as Method, unknown.path, unknown.body);
      expect({ status: foreign.status, body: foreign.body }, `${op.method} ${p} vs never-existing ${unknown.path}`).toEqual({ status: never.status, body: unknown.back(never.body) });
    }
    const after = await t.api.get(readPath);
    expect(after.status).toBe(200);
    expect(after.body, `${readPath} changed`).toEqual(before.body);
  });

  const lists = Object.entries(TABLE).filter((e): e is [string, ListCase] => e[1].kind === 'list');
  it.each(lists)("%s: another team's items never appear, and their ids are not cursors", async (operationId, row) => {
    const op = await opInfo(operationId);
    const w = await buildWorld(t);
    const own = row.ownIds(w);
    const owner = await t.api.get(op.path + (row.query ? `?${row.query}` : ''));
    expect(owner.status).toBe(200);
    const ownerIds = owner.body.data.map((i: any) => i.id);
    for (const id of own) expect(ownerIds, `owner sees ${id}`).toContain(id);
    for (const other of [t.as(FIXTURES.secondTeamKey), t.as((await t.anon.post('/_emulator/teams').send({ name: 'Fresh' })).body.api_key)]) {
      const res = await other.get(op.path + (row.query ? `?${row.query}` : ''));
      expect(res.status).toBe(200);
      const seen = res.body.data.map((i: any) => i.id);
      for (const id of own) expect(seen).not.toContain(id);
      if (row.noCursors) continue;
      for (const cursor of ['after', 'before']) {
        const sep = row.query ? '&' : '?';
        const page = await other.get(`${op.path}${row.query ? `?${row.query}` : ''}${sep}${cursor}=${own[0]}`);
        expect(page.status, `${cursor}=${own[0]}: ${JSON.stringify(page.body)}`).toBe(422);
        expect(page.body).toEqual({ statusCode: 422, name: 'validation_error', message: expect.any(String) });
      }
    }
  });

  it('names only operations of the document in the mixed cases', async () => {
    const { operations } = await loadSpec();
    const ids = operations.map((o) => o.operationId);
    expect(MIXED.map((m) => m.operationId).filter((id) => !ids.includes(id))).toEqual([]);
  });

  it.each(MIXED.map((m) => [m.operationId, m.name, m.run] as const))('%s: %s is refused, never linked', async (_id, _name, run) => {
    const w = await buildWorld(t);
    await run(t, w, t.as(FIXTURES.secondTeamKey));
  });

  const xrefs = Object.entries(TABLE).flatMap(([id, row]) => (row.kind === 'xref' ? row.cases.map((c) => [id, c.name, c.run] as const) : []));
  it.each(xrefs)('%s: %s is refused, never linked', async (_id, _name, run) => {
    const w = await buildWorld(t);
    await run(t, w, t.as(FIXTURES.secondTeamKey));
  });
});
