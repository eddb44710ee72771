/**
 * What each official SDK sends where it differs from the document (issue
 * 27): one row per wire habit, read from each SDK's own source at the
 * version named (`SDK_VERSIONS`), with the request exactly as that SDK
 * builds it and what the emulator answers (as the service evidently does:
 * an SDK's default request is one the service accepts). The rows are sent
 * over HTTP one test each by `test/http/other-sdks.test.ts`, and summed up
 * in docs/other-languages.md ("What each SDK sends").
 *
 * Habits found, by kind:
 * - the path's id repeated in the body (Python, Ruby, Go, Java): ignored,
 *   like every key the document does not declare (`pruneBody`,
 *   src/http/validate.ts);
 * - `""` / `null` for an unset field (Go's fields without `omitempty`,
 *   .NET's properties without `JsonIgnore(WhenWritingNull)`, Rust's
 *   `Option` without `skip_serializing_if`): "not given" where the field is
 *   optional or a template supplies it (`x-absent-values` in spec/);
 * - an empty JSON object `{}` as the body of a POST that takes none (PHP's
 *   `json_encode((object) [])`, Python's `json={}` on every verb): served;
 * - key names of their own: Rust's `contentType` (an attachment's
 *   `content_type`), Python's and Go's `inline_content_id`: accepted as
 *   aliases, the document's name wins;
 * - refused, with the service's answer: PHP's `POST /domains/claims` (405;
 *   the document and every other SDK say `/domains/claim`), `key`/`type` in a
 *   contact-property update, an empty `from` without a template.
 * - `null` for every unset field, on every call (issue 37): Rust's
 *   `CreateContactOptions.audience_id`, automation step configs and
 *   connections; .NET's `TopicData.name`; Elixir's `Templates.create`
 *   (`subject`, `from`, `text`): "not given", by the one rule of
 *   `pruneBody` (an optional field that does not take `null`), with no
 *   per-field list (docs/reference/transport.md#absent-values).
 * Elixir's SDK is read from elixir-saas/resend-elixir (the `resend` hex
 * package); libraries built on the API have their own table,
 * `./library-requests.ts`.
 */
import type { TestEmulator } from '../helpers.js';
import { FIXTURES } from '../helpers.js';

/** The SDK versions read (their repositories' newest commit fetched on 2026-11-26). */
export const SDK_VERSIONS = {
  node: '6.38.0', // node_modules/resend
  python: '2.39.0', // resend/resend-python resend/version.py
  ruby: '1.10.0', // resend/resend-ruby lib/resend/version.rb
  php: '1.10.0', // resend/resend-php src/Resend.php
  go: '3.12.0', // resend/resend-go resend.go (module github.com/resend/resend-go/v3)
  java: '4.20.0', // resend/resend-java gradle.properties
  dotnet: '0.11.0', // resend/resend-dotnet Directory.Build.props
  rust: '0.31.0', // resend/resend-rust Cargo.toml (crate resend-rs)
  elixir: '1.0.0-rc.3', // elixir-saas/resend-elixir mix.exs (package `resend`; fetched 2026-11-28)
} as const;

export type Sdk = keyof typeof SDK_VERSIONS;

/** The `User-Agent` of each SDK, as its source builds it. */
export const USER_AGENTS: Record<Sdk, string> = {
  node: `resend-node:${SDK_VERSIONS.node}`, // node_modules/resend: getDefaultUserAgent()
  python: `resend-python:${SDK_VERSIONS.python}`, // resend-python request.py: f"resend-python:{get_version()}"
  ruby: `resend-ruby:${SDK_VERSIONS.ruby}`, // resend-ruby request.rb: "resend-ruby:#{Resend::VERSION}"
  php: `resend-php/${SDK_VERSIONS.php}`, // resend-php Payload::toRequest: withUserAgent('resend-php', VERSION) → name/version
  go: `resend-go/${SDK_VERSIONS.go}`, // resend-go resend.go: "resend-go/" + version
  java: `resend-java/${SDK_VERSIONS.java}`, // resend-java HttpClient: "resend-java/" + version
  dotnet: `resend-sdk/${SDK_VERSIONS.dotnet}.0 dotnet/8.0.11`, // resend-dotnet ResendClient.cs: ProductInfoHeaderValue("resend-sdk", assembly version) + ("dotnet", Environment.Version)
  rust: `resend-rs/${SDK_VERSIONS.rust}`, // resend-rust config.rs: CARGO_PKG_NAME/CARGO_PKG_VERSION
  elixir: 'req/0.5.10', // resend-elixir lib/resend/client/req_client.ex sets none: Req's own `req/<version>`
};

/** What a row's request needs made first; its id (or address) replaces `{name}` in the path and the body. */
export type Need = 'broadcast' | 'scheduledEmail' | 'domain' | 'webhook' | 'contact' | 'contactEmail' | 'contactProperty' | 'topic' | 'template' | 'segment';

/** The ids a row's needs made, by need. */
export type Made = Partial<Record<Need, string>>;

export interface SdkRequestRow {
  /** The SDKs that send exactly this request (the first one's `User-Agent` is sent). */
  sdks: Sdk[];
  /** The SDK method, as the SDK names it. */
  method: string;
  /** Where in the SDK's repository the request is built. */
  source: string;
  /** What differs from the document. */
  habit: string;
  needs: Need[];
  request: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown };
  /** The answer: status, and (for a refusal) the service's error name and message. */
  expect: { status: number; name?: string; message?: string };
  /** The effect, checked after the answer (state read back through the API). */
  check?: (t: TestEmulator, made: Made, body: any) => Promise<void>;
}

/** Reads a resource back with the default key; throws unless 200. */
export async function read(t: TestEmulator, path: string): Promise<any> {
  const res = await t.api.get(path);
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Throws with `what` unless `actual` equals `expected` (JSON equality). */
export function same(what: string, actual: unknown, expected: unknown): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

const CONTACT_EMAIL = 'ada@example.com';
/** The published template the template rows send with: its own `from`, `subject` and one variable with a fallback. */
export const TEMPLATE = { from: 'Acme <hello@example.com>', subject: 'Welcome aboard', html: '<p>Hi {{{NAME}}}</p>' };

/**
 * Makes what a row needs, through the API (default team), in the order
 * given; returns the ids.
 */
export async function makeNeeds(t: TestEmulator, needs: Need[]): Promise<Made> {
  const made: Made = {};
  const ok = async (res: { status: number; body: any }, what: string) => {
    if (res.status >= 300) throw new Error(`making ${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const segment = async () => (made.segment ??= (await ok(await t.api.post('/segments').send({ name: 'Readers' }), 'segment')).id);
  for (const need of needs) {
    switch (need) {
      case 'segment': await segment(); break;
      case 'broadcast':
        made.broadcast = (await ok(await t.api.post('/broadcasts').send({ segment_id: await segment(), from: 'hello@example.com', subject: 'Hello', html: '<p>Hello</p>', name: 'News' }), need)).id;
        break;
      case 'scheduledEmail':
        made.scheduledEmail = (await ok(await t.api.post('/emails').send({ from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'Later', text: 'x', scheduled_at: 'in 1 hour' }), need)).id;
        break;
      case 'domain': made.domain = FIXTURES.verifiedDomainId; break;
      case 'webhook':
        made.webhook = (await ok(await t.api.post('/webhooks').send({ endpoint: 'https://hooks.example.com/a', events: ['email.sent'] }), need)).id;
        break;
      case 'contact':
      case 'contactEmail': {
        made.contact ??= (await ok(await t.api.post('/contacts').send({ email: CONTACT_EMAIL, first_name: 'Grace' }), need)).id;
        made.contactEmail = CONTACT_EMAIL;
        break;
      }
      case 'contactProperty':
        made.contactProperty = (await ok(await t.api.post('/contact-properties').send({ key: 'plan', type: 'string', fallback_value: 'free' }), need)).id;
        break;
      case 'topic':
        made.topic = (await ok(await t.api.post('/topics').send({ name: 'Product news', default_subscription: 'opt_in' }), need)).id;
        break;
      case 'template': {
        const id = (await ok(await t.api.post('/templates').send({ name: 'welcome', ...TEMPLATE, variables: [{ key: 'NAME', type: 'string', fallback_value: 'there' }] }), need)).id;
        await ok(await t.api.post(`/templates/${id}/publish`), 'published template');
        made.template = id;
        break;
      }
    }
  }
  return made;
}

/** `value` with every `{need}` in its strings replaced by the made id (deep; keys kept as they are). */
export function fill(value: unknown, made: Made): unknown {
  if (typeof value === 'string') return value.replace(/\{(\w+)\}/g, (whole, name: string) => made[name as Need] ?? whole);
  if (Array.isArray(value)) return value.map((v) => fill(v, made));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, made)]));
  return value;
}

const broadcastSent = async (t: TestEmulator, made: Made) => {
  const b = await read(t, `/broadcasts/${made.broadcast}`);
  if (b.status === 'draft' || b.status === 'scheduled') throw new Error(`broadcast not sent now: ${b.status}`);
};

/** The table: every request of an official SDK that differs from the document. */
export const SDK_REQUESTS: SdkRequestRow[] = [
  // ---- the path's id repeated in the body ----
  {
    sdks: ['python', 'ruby', 'go'],
    method: 'Broadcasts.update',
    source: 'python resend/broadcasts/_broadcasts.py (params as the body); ruby lib/resend/broadcasts.rb; go broadcasts.go UpdateBroadcastRequest.BroadcastId `json:"broadcast_id,omitempty"`',
    habit: '`broadcast_id` in the body (answered 500 before issue 27: the update built its SQL from the body keys)',
    needs: ['broadcast'],
    request: { method: 'PATCH', path: '/broadcasts/{broadcast}', body: { broadcast_id: '{broadcast}', subject: 'New subject' } },
    expect: { status: 200 },
    check: async (t, made, body) => {
      same('answer', body, { object: 'broadcast', id: made.broadcast });
      same('subject', (await read(t, `/broadcasts/${made.broadcast}`)).subject, 'New subject');
    },
  },
  {
    sdks: ['java'],
    method: 'broadcasts().update',
    source: 'java services/broadcasts/model/UpdateBroadcastOptions.java (getId() serialised as `id`)',
    habit: '`id` in the body',
    needs: ['broadcast'],
    request: { method: 'PATCH', path: '/broadcasts/{broadcast}', body: { id: '{broadcast}', name: 'Renamed', subject: 'Java subject', html: '<p>Java</p>' } },
    expect: { status: 200 },
    check: async (t, made) => {
      const b = await read(t, `/broadcasts/${made.broadcast}`);
      same('name, subject', [b.name, b.subject], ['Renamed', 'Java subject']);
    },
  },
  {
    sdks: ['python', 'ruby'],
    method: 'Broadcasts.send',
    source: 'python resend/broadcasts/_broadcasts.py; ruby lib/resend/broadcasts.rb (params as the body)',
    habit: '`broadcast_id` in the body',
    needs: ['broadcast'],
    request: { method: 'POST', path: '/broadcasts/{broadcast}/send', body: { broadcast_id: '{broadcast}' } },
    expect: { status: 200 },
    check: broadcastSent,
  },
  {
    sdks: ['python', 'go'],
    method: 'Emails.update',
    source: 'python resend/emails/_emails.py (params as the body); go emails.go UpdateEmailRequest.Id `json:"id"`',
    habit: '`id` in the body',
    needs: ['scheduledEmail'],
    request: { method: 'PATCH', path: '/emails/{scheduledEmail}', body: { id: '{scheduledEmail}', scheduled_at: 'in 2 hours' } },
    expect: { status: 200 },
    check: async (t, made) => {
      const e = await read(t, `/emails/${made.scheduledEmail}`);
      same('last_event', e.last_event, 'scheduled');
    },
  },
  {
    sdks: ['ruby'],
    method: 'Emails.update',
    source: 'ruby lib/resend/emails.rb (path from params[:email_id], params as the body)',
    habit: '`email_id` in the body',
    needs: ['scheduledEmail'],
    request: { method: 'PATCH', path: '/emails/{scheduledEmail}', body: { email_id: '{scheduledEmail}', scheduled_at: 'in 3 hours' } },
    expect: { status: 200 },
  },
  {
    sdks: ['python', 'ruby', 'java'],
    method: 'Domains.update',
    source: 'python resend/domains/_domains.py; ruby lib/resend/domains.rb; java services/domains/model/UpdateDomainOptions.java @JsonProperty("id")',
    habit: '`id` in the body',
    needs: ['domain'],
    request: { method: 'PATCH', path: '/domains/{domain}', body: { id: '{domain}', open_tracking: true, click_tracking: true } },
    expect: { status: 200 },
    check: async (t, made) => {
      const d = await read(t, `/domains/${made.domain}`);
      same('tracking', [d.open_tracking, d.click_tracking], [true, true]);
    },
  },
  {
    sdks: ['python'],
    method: 'Webhooks.update',
    source: 'python resend/webhooks/_webhooks.py (params as the body)',
    habit: '`webhook_id` in the body',
    needs: ['webhook'],
    request: { method: 'PATCH', path: '/webhooks/{webhook}', body: { webhook_id: '{webhook}', endpoint: 'https://hooks.example.com/b', events: ['email.delivered'], status: 'disabled' } },
    expect: { status: 200 },
    check: async (t, made) => {
      const w = await read(t, `/webhooks/${made.webhook}`);
      same('webhook', [w.endpoint, w.events, w.status], ['https://hooks.example.com/b', ['email.delivered'], 'disabled']);
    },
  },
  {
    sdks: ['ruby'],
    method: 'Topics.update',
    source: 'ruby lib/resend/topics.rb (path from params[:topic_id], params as the body)',
    habit: '`topic_id` in the body',
    needs: ['topic'],
    request: { method: 'PATCH', path: '/topics/{topic}', body: { topic_id: '{topic}', name: 'Renamed news' } },
    expect: { status: 200 },
    check: async (t, made) => same('name', (await read(t, `/topics/${made.topic}`)).name, 'Renamed news'),
  },
  {
    sdks: ['python', 'ruby', 'java'],
    method: 'Contacts.update',
    source: 'python resend/contacts/_contacts.py; ruby lib/resend/contacts.rb; java services/contacts/model/UpdateContactOptions.java @JsonProperty("id")',
    habit: '`id` in the body',
    needs: ['contact'],
    request: { method: 'PATCH', path: '/contacts/{contact}', body: { id: '{contact}', first_name: 'Ada' } },
    expect: { status: 200 },
    check: async (t, made) => same('first_name', (await read(t, `/contacts/${made.contact}`)).first_name, 'Ada'),
  },
  {
    sdks: ['go'],
    method: 'Contacts.Update (by email)',
    source: 'go contacts.go UpdateContactRequest.MarshalJSON: aux["id"] = r.Id, always',
    habit: '`"id": ""` and the `email` of the path in the body',
    needs: ['contactEmail'],
    request: { method: 'PATCH', path: '/contacts/{contactEmail}', body: { id: '', email: '{contactEmail}', first_name: 'Ada' } },
    expect: { status: 200 },
    check: async (t, made) => same('contact', [(await read(t, `/contacts/${made.contactEmail}`)).first_name, (await read(t, `/contacts/${made.contact}`)).email], ['Ada', CONTACT_EMAIL]),
  },
  {
    sdks: ['java'],
    method: 'contacts().update',
    source: 'java services/contacts/model/UpdateContactOptions.java @JsonProperty("segment_id")',
    habit: '`id` and `segment_id` in the body (no such field on PATCH /contacts)',
    needs: ['contact', 'segment'],
    request: { method: 'PATCH', path: '/contacts/{contact}', body: { id: '{contact}', segment_id: '{segment}', last_name: 'Lovelace' } },
    expect: { status: 200 },
    check: async (t, made) => same('last_name', (await read(t, `/contacts/${made.contact}`)).last_name, 'Lovelace'),
  },
  {
    sdks: ['node'],
    method: 'topics.update',
    source: 'node_modules/resend dist/index.mjs Topics.update: patch(`/topics/${payload.id}`, payload)',
    habit: '`id` in the body (declared as "ignored" in spec/paths/topics.yaml)',
    needs: ['topic'],
    request: { method: 'PATCH', path: '/topics/{topic}', body: { id: '{topic}', name: 'Node news', description: 'Weekly' } },
    expect: { status: 200 },
    check: async (t, made) => {
      const topic = await read(t, `/topics/${made.topic}`);
      same('name, description', [topic.name, topic.description], ['Node news', 'Weekly']);
    },
  },
  {
    sdks: ['node', 'python', 'ruby', 'go'],
    method: 'contacts.topics.update',
    source: 'node Contacts topics update: patch(`/contacts/${identifier}/topics`, payload.topics); python resend/contacts/_topics.py; ruby lib/resend/contacts/topics.rb (body = params[:topics]); go contact_topics.go NewRequest(..., params.Topics)',
    habit: 'the topics array as the whole body; the document (and resend-java) wrap it as `{"topics": [...]}`, which is served too',
    needs: ['contact', 'topic'],
    request: { method: 'PATCH', path: '/contacts/{contact}/topics', body: [{ id: '{topic}', subscription: 'opt_out' }] },
    expect: { status: 200 },
    check: async (t, made) => {
      const list = (await read(t, `/contacts/${made.contact}/topics`)).data;
      same('subscription', list.filter((x: any) => x.id === made.topic).map((x: any) => x.subscription), ['opt_out']);
    },
  },
  {
    sdks: ['ruby'],
    method: 'Contacts.create (audience_id)',
    source: 'ruby lib/resend/contacts.rb (the audience path, params without :properties as the body)',
    habit: '`audience_id` in the body of the audience path',
    needs: ['segment'],
    request: { method: 'POST', path: '/audiences/{segment}/contacts', body: { audience_id: '{segment}', email: 'grace@example.com', first_name: 'Grace' } },
    expect: { status: 201 },
  },
  {
    sdks: ['ruby', 'java'],
    method: 'ContactProperties.update',
    source: 'ruby lib/resend/contact_properties.rb (params as the body); java services/contactproperties/model/UpdateContactPropertyOptions.java @JsonProperty("id")',
    habit: '`id` in the body (answered 422 "Only the `fallback_value` field ..." before issue 27)',
    needs: ['contactProperty'],
    request: { method: 'PATCH', path: '/contact-properties/{contactProperty}', body: { id: '{contactProperty}', fallback_value: 'pro' } },
    expect: { status: 200 },
    check: async (t, made) => same('fallback_value', (await read(t, `/contact-properties/${made.contactProperty}`)).fallback_value, 'pro'),
  },
  // ---- "" / null for an unset field ----
  {
    sdks: ['go'],
    method: 'Broadcasts.Send',
    source: 'go broadcasts.go SendBroadcastRequest.ScheduledAt `json:"scheduled_at"` (no omitempty)',
    habit: '`"scheduled_at": ""` for "now" (answered 400 "must not be empty" before issue 27)',
    needs: ['broadcast'],
    request: { method: 'POST', path: '/broadcasts/{broadcast}/send', body: { broadcast_id: '{broadcast}', scheduled_at: '' } },
    expect: { status: 200 },
    check: async (t, made) => {
      await broadcastSent(t, made);
      same('scheduled_at', (await read(t, `/broadcasts/${made.broadcast}`)).scheduled_at, null);
    },
  },
  {
    sdks: ['go'],
    method: 'Emails.Send (template)',
    source: 'go emails.go SendEmailRequest.From `json:"from"`, .Subject `json:"subject"` (no omitempty)',
    habit: '`"from": ""` and `"subject": ""` where the template supplies them (answered 400 "The `from` field must not be empty." before issue 27)',
    needs: ['template'],
    request: { method: 'POST', path: '/emails', body: { from: '', to: ['delivered@resend.dev'], subject: '', template: { id: '{template}', variables: { NAME: 'Ada' } } } },
    expect: { status: 200 },
    check: async (t, _made, body) => {
      const e = await read(t, `/emails/${body.id}`);
      same('from, subject, html', [e.from, e.subject, e.html], [TEMPLATE.from, TEMPLATE.subject, '<p>Hi Ada</p>']);
    },
  },
  {
    sdks: ['go'],
    method: 'Templates.Update',
    source: 'go templates.go UpdateTemplateRequest.Name `json:"name"`, .Html `json:"html"` (no omitempty)',
    habit: '`"name": ""` and `"html": ""` when only another field changes',
    needs: ['template'],
    request: { method: 'PATCH', path: '/templates/{template}', body: { name: '', html: '', subject: 'Changed subject' } },
    expect: { status: 200 },
    check: async (t, made) => {
      const tpl = await read(t, `/templates/${made.template}`);
      same('name, html, subject', [tpl.name, tpl.html, tpl.subject], ['welcome', TEMPLATE.html, 'Changed subject']);
    },
  },
  {
    sdks: ['dotnet'],
    method: 'TemplateUpdateAsync',
    source: 'dotnet src/Resend/TemplateData.cs: `html` and `variables` without JsonIgnore(WhenWritingNull)',
    habit: '`"html": null` and `"variables": null` when unset',
    needs: ['template'],
    request: { method: 'PATCH', path: '/templates/{template}', body: { name: 'welcome-2', html: null, variables: null } },
    expect: { status: 200 },
    check: async (t, made) => {
      const tpl = await read(t, `/templates/${made.template}`);
      same('name, html, variables', [tpl.name, tpl.html, tpl.variables.map((v: any) => v.key)], ['welcome-2', TEMPLATE.html, ['NAME']]);
    },
  },
  {
    sdks: ['dotnet'],
    method: 'TemplateCreateAsync',
    source: 'dotnet src/Resend/TemplateData.cs: `variables` without JsonIgnore(WhenWritingNull)',
    habit: '`"variables": null` when none',
    needs: [],
    request: { method: 'POST', path: '/templates', body: { name: 'plain', html: '<p>Plain</p>', variables: null } },
    expect: { status: 201 },
  },
  {
    sdks: ['dotnet'],
    method: 'ContactUpdateAsync',
    source: 'dotnet src/Resend/ContactData.cs: `email` without JsonIgnore(WhenWritingNull)',
    habit: '`"email": null` when the email is not changed',
    needs: ['contact'],
    request: { method: 'PATCH', path: '/contacts/{contact}', body: { email: null, first_name: 'Ada' } },
    expect: { status: 200 },
    check: async (t, made) => {
      const c = await read(t, `/contacts/${made.contact}`);
      same('email, first_name', [c.email, c.first_name], [CONTACT_EMAIL, 'Ada']);
    },
  },
  {
    sdks: ['go', 'dotnet', 'rust'],
    method: 'ContactProperties.Create',
    source: 'go contact_properties.go CreateContactPropertyRequest.FallbackValue `json:"fallback_value"`; dotnet ContactPropertyData.cs; rust contacts.rs CreateContactPropertyOptions.fallback_value (no skip_serializing_if)',
    habit: '`"fallback_value": null` when unset',
    needs: [],
    request: { method: 'POST', path: '/contact-properties', body: { key: 'seats', type: 'number', fallback_value: null } },
    expect: { status: 201 },
    check: async (t, _made, body) => same('fallback_value', (await read(t, `/contact-properties/${body.id}`)).fallback_value, null),
  },
  {
    sdks: ['rust'],
    method: 'emails.send (template)',
    source: 'rust emails.rs EmailTemplate.variables: Option<HashMap> (no skip_serializing_if)',
    habit: '`"variables": null` when none',
    needs: ['template'],
    request: { method: 'POST', path: '/emails', body: { to: ['delivered@resend.dev'], template: { id: '{template}', variables: null } } },
    expect: { status: 200 },
    check: async (t, _made, body) => same('html', (await read(t, `/emails/${body.id}`)).html, '<p>Hi there</p>'),
  },
  {
    sdks: ['node'],
    method: 'emails.receiving.forward (passthrough)',
    source: 'node_modules/resend dist/index.mjs Receiving.forwardPassthrough: `filename: attachment.filename` from postal-mime (null for a part without a name)',
    habit: '`"filename": null` for an inline part without a name (answered 400 "must be a string" before issue 27)',
    needs: [],
    request: {
      method: 'POST',
      path: '/emails',
      body: {
        from: 'support@example.com', to: 'delivered@resend.dev', subject: 'Logo', html: '<img src="cid:logo@x">',
        attachments: [{ filename: null, content: Buffer.from('png').toString('base64'), content_type: 'image/png', content_id: 'logo@x' }],
      },
    },
    expect: { status: 200 },
    check: async (t, _made, body) => {
      const list = (await read(t, `/emails/${body.id}/attachments`)).data;
      same('attachment', list.map((a: any) => [a.filename, a.content_type, a.content_id, a.content_disposition]), [[null, 'image/png', 'logo@x', 'inline']]);
    },
  },
  {
    sdks: ['rust'],
    method: 'contacts.create',
    source: 'rust src/contacts.rs CreateContactOptions.audience_id: Option<String> (no skip_serializing_if; the path is /contacts when None)',
    habit: '`"audience_id": null` on POST /contacts (answered 400 "must be a string" before issue 37; the SDK\'s live test creates contacts so)',
    needs: [],
    request: { method: 'POST', path: '/contacts', body: { email: 'rust@example.com', audience_id: null, first_name: 'Ferris' } },
    expect: { status: 201 },
    check: async (t, _made, body) => same('contact', [(await read(t, `/contacts/${body.id}`)).email, (await read(t, `/contacts/${body.id}`)).first_name], ['rust@example.com', 'Ferris']),
  },
  {
    sdks: ['rust'],
    method: 'automations.create',
    source: 'rust src/automations.rs SendEmailStepConfig (subject, from, reply_to, variables), WaitForEventStepConfig (timeout, filter_rule), Connection.type: Option without skip_serializing_if',
    habit: '`null` for every unset step setting and connection type (answered 400 before issue 37)',
    needs: ['template'],
    request: {
      method: 'POST',
      path: '/automations',
      body: {
        name: 'Welcome series',
        status: 'disabled',
        steps: [
          { type: 'trigger', key: 'start', config: { event_name: 'user.created' } },
          { type: 'send_email', key: 'welcome', config: { template: { id: '{template}' }, subject: null, from: null, reply_to: null, variables: null } },
        ],
        connections: [{ from: 'start', to: 'welcome', type: null }],
      },
    },
    expect: { status: 201 },
    check: async (t, made, body) => {
      const a = await read(t, `/automations/${body.id}`);
      const step = a.steps.find((x: any) => x.key === 'welcome');
      // The document's settings given as null are dropped; the step-level `variables` the Rust type adds is not a
      // setting of the document (its send_email config is open, so the key stays as sent, unused).
      same('send_email config', [step.config.template, 'subject' in step.config, 'from' in step.config, 'reply_to' in step.config], [{ id: made.template }, false, false, false]);
      same('connection', a.connections.map((c: any) => [c.from, c.to]), [['start', 'welcome']]);
    },
  },
  {
    sdks: ['rust'],
    method: 'automations.create (wait_for_event)',
    source: 'rust src/automations.rs WaitForEventStepConfig.timeout, .filter_rule: Option without skip_serializing_if',
    habit: '`"timeout": null` and `"filter_rule": null` on a wait step',
    needs: [],
    request: {
      method: 'POST',
      path: '/automations',
      body: {
        name: 'Wait for it',
        status: 'disabled',
        steps: [
          { type: 'trigger', key: 'start', config: { event_name: 'user.created' } },
          { type: 'wait_for_event', key: 'wait', config: { event_name: 'user.verified', timeout: null, filter_rule: null } },
        ],
        connections: [{ from: 'start', to: 'wait', type: null }],
      },
    },
    expect: { status: 201 },
    check: async (t, _made, body) => {
      const a = await read(t, `/automations/${body.id}`);
      same('wait config', a.steps.find((x: any) => x.key === 'wait').config, { event_name: 'user.verified' });
    },
  },
  {
    sdks: ['dotnet', 'rust'],
    method: 'TopicUpdateAsync; topics.update',
    source: 'dotnet src/Resend/TopicData.cs: `name` without JsonIgnore(WhenWritingNull) (description and default_subscription have it); rust src/topics.rs UpdateTopicOptions.name: Option without skip_serializing_if',
    habit: '`"name": null` when only the description changes (answered 400 before issue 37)',
    needs: ['topic'],
    request: { method: 'PATCH', path: '/topics/{topic}', body: { name: null, description: 'Monthly' } },
    expect: { status: 200 },
    check: async (t, made) => {
      const topic = await read(t, `/topics/${made.topic}`);
      same('name, description', [topic.name, topic.description], ['Product news', 'Monthly']);
    },
  },
  {
    sdks: ['rust'],
    method: 'templates.create (variables)',
    source: 'rust src/templates.rs Variable.fallback_value: Option<Value> (no skip_serializing_if)',
    habit: '`"fallback_value": null` on a variable without one (the schema takes null there: kept, "no fallback")',
    needs: [],
    request: { method: 'POST', path: '/templates', body: { name: 'rusty', html: '<p>Hi {{{NAME}}}</p>', variables: [{ key: 'NAME', type: 'string', fallback_value: null }] } },
    expect: { status: 201 },
    check: async (t, _made, body) => same('variables', (await read(t, `/templates/${body.id}`)).variables.map((v: any) => [v.key, v.fallback_value]), [['NAME', null]]),
  },
  {
    sdks: ['elixir'],
    method: 'Templates.create',
    source: 'elixir lib/resend/templates.ex create/2: a map of name, subject, from, html, text from the options, nil kept (no Util.compact, which Emails.send uses)',
    habit: '`"subject": null`, `"from": null`, `"text": null` when not given (answered 400 before issue 37)',
    needs: [],
    request: { method: 'POST', path: '/templates', body: { name: 'elixir', subject: null, from: null, html: '<p>Hi</p>', text: null } },
    expect: { status: 201 },
    check: async (t, _made, body) => {
      const tpl = await read(t, `/templates/${body.id}`);
      same('subject, from, html', [tpl.subject, tpl.from, tpl.html], [null, null, '<p>Hi</p>']);
    },
  },
  // ---- extra keys and names of their own ----
  {
    sdks: ['dotnet'],
    method: 'WebhookCreateAsync',
    source: 'dotnet src/Resend/WebhookData.cs: `status` always written (create and update share the type)',
    habit: '`"status": "enabled"` on create (no such field on POST /webhooks)',
    needs: [],
    request: { method: 'POST', path: '/webhooks', body: { endpoint: 'https://hooks.example.com/c', status: 'enabled', events: ['email.sent'] } },
    expect: { status: 201 },
  },
  {
    sdks: ['rust'],
    method: 'emails.send (attachment)',
    source: 'rust emails.rs CreateAttachment: #[serde(rename = "contentType")]',
    habit: '`contentType` (camel case) for `content_type`; the content as an array of bytes',
    needs: [],
    request: {
      method: 'POST',
      path: '/emails',
      body: { from: 'hello@example.com', to: ['delivered@resend.dev'], subject: 'Data', text: 'x', attachments: [{ content: [...Buffer.from('a;b\n')], filename: 'data.txt', contentType: 'text/csv' }] },
    },
    expect: { status: 200 },
    check: async (t, _made, body) => same('content_type', (await read(t, `/emails/${body.id}/attachments`)).data.map((a: any) => [a.filename, a.content_type, a.size]), [['data.txt', 'text/csv', 4]]),
  },
  // ---- an empty object as the body of a POST that takes none, and on every verb ----
  {
    sdks: ['php'],
    method: 'Domain::verify, Broadcast::cancel, Email::cancel, Template::publish, ...',
    source: 'php src/ValueObjects/Transporter/Payload.php toRequest: json_encode((object) []) for POST, PATCH and PUT',
    habit: '`{}` as the body of a POST that takes none',
    needs: ['domain'],
    request: { method: 'POST', path: '/domains/{domain}/verify', body: {} },
    expect: { status: 200 },
  },
  {
    sdks: ['php'],
    method: 'Contacts\\Segment::add',
    source: 'php src/Service/Contacts/Segment.php: Payload::create("contacts/$contact/segments/$segmentId", [])',
    habit: '`{}` as the body of a POST that takes none',
    needs: ['contact', 'segment'],
    request: { method: 'POST', path: '/contacts/{contact}/segments/{segment}', body: {} },
    expect: { status: 200 },
  },
  {
    sdks: ['php'],
    method: 'Broadcast::send',
    source: 'php src/Service/Broadcast.php send($id, $parameters): Payload::create("broadcasts/{id}/send", [])',
    habit: '`{}` when sending now',
    needs: ['broadcast'],
    request: { method: 'POST', path: '/broadcasts/{broadcast}/send', body: {} },
    expect: { status: 200 },
    check: broadcastSent,
  },
  {
    sdks: ['python'],
    method: 'Broadcasts.remove, Domains.get, ... (every call)',
    source: 'python resend/request.py: requests.request(verb, url, json=params) with params={} on GET and DELETE',
    habit: '`{}` with `Content-Type: application/json` on GET and DELETE',
    needs: ['broadcast'],
    request: { method: 'DELETE', path: '/broadcasts/{broadcast}', body: {} },
    expect: { status: 200 },
    check: async (t, made) => same('status', (await t.api.get(`/broadcasts/${made.broadcast}`)).status, 404),
  },
  // ---- refused, as the service refuses ----
  {
    sdks: ['php'],
    method: 'Domains\\Claim::create',
    source: 'php src/Service/Domains/Claim.php: Payload::create(\'domains/claims\', ...)',
    habit: '`POST /domains/claims`; the document, the Node, Python, Ruby and Go SDKs say `/domains/claim`. Not accepted: `/domains/claims` is the path of a domain named `claims`, which takes no POST (405, as the service answers a method a path does not have)',
    needs: [],
    request: { method: 'POST', path: '/domains/claims', body: { name: FIXTURES.claimableDomain } },
    expect: { status: 405, name: 'method_not_allowed', message: 'Method is not allowed for the requested path.' },
  },
  {
    sdks: ['ruby', 'java'],
    method: 'ContactProperties.update (key)',
    source: 'ruby lib/resend/contact_properties.rb; java UpdateContactPropertyOptions (a caller that also passes `key`)',
    habit: '`id` with a field the service does not let change: refused',
    needs: ['contactProperty'],
    request: { method: 'PATCH', path: '/contact-properties/{contactProperty}', body: { id: '{contactProperty}', key: 'renamed', fallback_value: 'pro' } },
    expect: { status: 422, name: 'validation_error', message: 'Only the `fallback_value` field of a contact property can be updated.' },
  },
  {
    sdks: ['go'],
    method: 'Emails.Send (no template, From unset)',
    source: 'go emails.go SendEmailRequest.From `json:"from"`',
    habit: '`"from": ""` without a template: no sender, refused',
    needs: [],
    request: { method: 'POST', path: '/emails', body: { from: '', to: ['delivered@resend.dev'], subject: 'Hi', text: 'x' } },
    expect: { status: 400, name: 'validation_error', message: 'The `from` field must not be empty.' },
  },
];
