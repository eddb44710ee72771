/**
 * What the libraries built on the API send where it differs from the
 * document (issue 37): one row per library habit, read from each library's
 * own source (repository and path in `source`, newest commit fetched on
 * 2026-11-28), with the request exactly as that library builds it and what
 * the emulator answers. A library's default request (an email it sends on
 * its own: a password reset, a sign-in link) is one the service accepts
 * every day, so each is served; a habit outside the default that the
 * service's document refuses stays refused, with the reason in `habit`.
 * Sent over HTTP one test each by `test/http/other-sdks.test.ts`; summed up
 * in docs/other-languages.md ("Libraries built on the API") and
 * docs/reference/transport.md#what-libraries-built-on-the-api-send.
 */
import type { TestEmulator } from '../helpers.js';
import { read, same, type Made, type Need } from './sdk-requests.js';

export interface LibraryRequestRow {
  /** The library, as its users install it, and the version read. */
  library: string;
  /** Where in the library's repository the request is built (repository and path). */
  source: string;
  /** What differs from the document, and why it is served or refused. */
  habit: string;
  /** The `User-Agent` the library sends (its HTTP client's default where it sets none). */
  userAgent: string;
  needs: Need[];
  request: { method: 'POST'; path: string; body: unknown; headers?: Record<string, string> };
  /** The answer: status, and (for a refusal) the service's error name and message. */
  expect: { status: number; name?: string; message?: string };
  /** The effect, checked after the answer (state read back through the API). */
  check?: (t: TestEmulator, made: Made, body: any) => Promise<void>;
}

/** The sent email's recipient lists and bodies, as `GET /emails/{id}` shows them (a list not given is `[]` there). */
async function sent(t: TestEmulator, id: string): Promise<{ to: string[]; cc: unknown; bcc: unknown; reply_to: unknown; subject: string; html: unknown; text: unknown }> {
  const e = await read(t, `/emails/${id}`);
  return { to: e.to, cc: e.cc, bcc: e.bcc, reply_to: e.reply_to, subject: e.subject, html: e.html, text: e.text };
}

/** Every id of a batch answer names a sent email. */
async function batchSent(t: TestEmulator, body: any, count: number): Promise<void> {
  same('batch ids', body.data?.length, count);
  for (const { id } of body.data) await read(t, `/emails/${id}`);
}

const NODE_FETCH_UA = 'node'; // undici's fetch (Node 18+): the libraries that call fetch set no User-Agent of their own

/** Payload CMS's body for an email Payload sends itself (a forgot-password email): no cc, bcc, reply-to or html. */
const PAYLOAD_BODY = {
  from: 'Payload <hello@example.com>',
  subject: 'Reset your password',
  to: 'delivered@resend.dev',
  bcc: '',
  cc: '',
  reply_to: '',
  attachments: [],
  html: '',
  text: 'Reset it here: https://example.com/reset',
};

/** Novu's body through resend 2.x `emails.send` (snake-case keys passed through): `reply_to: options.replyTo || null`. */
const NOVU_BODY = { from: 'Acme <hello@example.com>', to: ['delivered@resend.dev'], subject: 'Your code', html: '<p>123456</p>', reply_to: null };

/** The table: every library request that differs from the document. */
export const LIBRARY_REQUESTS: LibraryRequestRow[] = [
  // ---- served: the libraries' default requests ----
  {
    library: '@payloadcms/email-resend 3.x',
    source: 'payloadcms/payload packages/email-resend/src/index.ts mapPayloadEmailToResendEmail (mapAddresses returns \'\' for no address; html/text `|| \'\'`); its email-resend.int.spec.ts sends this to the live service and expects an id',
    habit: '`"cc": ""`, `"bcc": ""`, `"reply_to": ""` for none, `"html": ""` beside `text`, `"attachments": []` (answered 422 for `cc` before issue 37)',
    userAgent: NODE_FETCH_UA,
    needs: [],
    request: { method: 'POST', path: '/emails', body: PAYLOAD_BODY },
    expect: { status: 200 },
    check: async (t, _made, body) => {
      const e = await sent(t, body.id);
      same('recipients', [e.to, e.cc, e.bcc, e.reply_to], [['delivered@resend.dev'], [], [], []]);
      same('text', e.text, PAYLOAD_BODY.text);
    },
  },
  {
    library: '@payloadcms/email-resend 3.x (batch)',
    source: 'payloadcms/payload packages/email-resend/src/index.ts (the same mapping, as an item of POST /emails/batch)',
    habit: 'the same `""` for none in each item of a batch',
    userAgent: NODE_FETCH_UA,
    needs: [],
    request: { method: 'POST', path: '/emails/batch', body: [{ ...PAYLOAD_BODY, attachments: undefined }, { ...PAYLOAD_BODY, attachments: undefined, to: 'bounced@resend.dev' }] },
    expect: { status: 200 },
    check: async (t, _made, body) => {
      await batchSent(t, body, 2);
      same('cc of the first', (await sent(t, body.data[0].id)).cc, []);
    },
  },
  {
    library: '@novu/providers (resend 2.x)',
    source: 'novuhq/novu packages/providers/src/lib/email/resend/resend.provider.ts sendMessage: `reply_to: options.replyTo || null`; packages/providers/package.json pins resend ^2.1.0',
    habit: '`"reply_to": null` on every email without a reply-to (answered 422 before issue 37)',
    userAgent: 'resend-node:2.1.0',
    needs: [],
    request: { method: 'POST', path: '/emails', body: NOVU_BODY },
    expect: { status: 200 },
    check: async (t, _made, body) => same('reply_to', (await sent(t, body.id)).reply_to, []),
  },
  {
    library: '@novu/providers (resend 2.x), cc and headers unset',
    source: 'novuhq/novu packages/providers/src/lib/email/resend/resend.provider.ts: `cc: options.cc`, `headers: options.headers` (null when the workflow sets none)',
    habit: '`"cc": null`, `"headers": null` beside `"reply_to": null` (answered 422 before issue 37)',
    userAgent: 'resend-node:2.1.0',
    needs: [],
    request: { method: 'POST', path: '/emails', body: { ...NOVU_BODY, cc: null, bcc: null, headers: null } },
    expect: { status: 200 },
    check: async (t, _made, body) => {
      const e = await sent(t, body.id);
      same('cc, bcc, reply_to', [e.cc, e.bcc, e.reply_to], [[], [], []]);
    },
  },
  {
    library: '@novu/providers (resend 2.x), batch',
    source: 'novuhq/novu packages/providers/src/lib/email/resend/resend.provider.ts (the same body as an item of POST /emails/batch)',
    habit: 'the same `null`s in each item of a batch',
    userAgent: 'resend-node:2.1.0',
    needs: [],
    request: { method: 'POST', path: '/emails/batch', body: [{ ...NOVU_BODY, cc: null, headers: null }, NOVU_BODY] },
    expect: { status: 200 },
    check: async (t, _made, body) => batchSent(t, body, 2),
  },
  {
    library: 'strapi-provider-email-resend (resend 0.11.1)',
    source: 'strapi-provider-email-resend package.json pins resend 0.11.1, whose `emails.send` posts to `/email` (the SDK\'s 0.x path; 1.0 moved to `/emails`)',
    habit: '`POST /email` (singular): served as an alias of `POST /emails` (answered 404 before issue 37)',
    userAgent: 'resend-node:0.11.1',
    needs: [],
    request: { method: 'POST', path: '/email', body: { from: 'Strapi <hello@example.com>', to: 'delivered@resend.dev', subject: 'Welcome', html: '<p>Welcome</p>' } },
    expect: { status: 200 },
    check: async (t, _made, body) => same('subject', (await sent(t, body.id)).subject, 'Welcome'),
  },
  {
    library: 'resend/resend-laravel (and laravel/framework ResendTransport)',
    source: 'resend/resend-laravel src/Transport/ResendTransportFactory.php doSend (through resend-php `emails->send`, json_encode); laravel/framework src/Illuminate/Mail/Transport/ResendTransport.php builds the same body',
    habit: '`"headers": []` (PHP\'s empty array for no headers), `"text": null` for an HTML-only mailable, `[]` for no cc, bcc, reply-to, tags and attachments (`headers: []` answered 422 before issue 37)',
    userAgent: 'resend-php/1.10.0',
    needs: [],
    request: {
      method: 'POST',
      path: '/emails',
      body: {
        bcc: [], cc: [], from: 'Laravel <hello@example.com>', headers: [], html: '<p>Your order shipped</p>', reply_to: [],
        subject: 'Order shipped', tags: [], text: null, to: ['delivered@resend.dev'], attachments: [],
      },
    },
    expect: { status: 200 },
    check: async (t, _made, body) => {
      const e = await sent(t, body.id);
      same('html, to', [e.html, e.to], ['<p>Your order shipped</p>', ['delivered@resend.dev']]);
    },
  },
  {
    library: 'symfony/resend-mailer',
    source: 'symfony/symfony src/Symfony/Component/Mailer/Bridge/Resend/Transport/ResendApiTransport.php getPayload, prepareHeadersAndTags (its bypass list names `reply_to`, so the lower-case `reply-to` header is also sent in `headers`)',
    habit: '`reply_to` as one string and the same address again as a `Reply-To` entry of `headers`: served (one Reply-To)',
    userAgent: 'Symfony HttpClient (Curl)',
    needs: [],
    request: {
      method: 'POST',
      path: '/emails',
      body: { from: 'Symfony <hello@example.com>', to: ['delivered@resend.dev'], subject: 'Hello', reply_to: 'support@example.com', text: 'Hi', html: '<p>Hi</p>', headers: { 'Reply-To': 'support@example.com' } },
    },
    expect: { status: 200 },
    check: async (t, _made, body) => same('reply_to', (await sent(t, body.id)).reply_to, ['support@example.com']),
  },
  {
    library: 'django-anymail (Resend backend)',
    source: 'anymail/django-anymail anymail/backends/resend.py ResendPayload (set_text_body always; set_tags and set_metadata as the `X-Tags` and `X-Metadata` headers, JSON text)',
    habit: '`"text": ""` beside `html` for an HTML-only message; tags and metadata as JSON text in `headers`',
    userAgent: 'django-anymail/13.1 python-requests/2.32.3',
    needs: [],
    request: {
      method: 'POST',
      path: '/emails',
      body: { from: 'hello@example.com', to: ['delivered@resend.dev'], subject: 'Welcome', text: '', html: '<p>Welcome</p>', headers: { 'X-Tags': '["welcome"]', 'X-Metadata': '{"user_id": "42"}' } },
    },
    expect: { status: 200 },
    check: async (t, _made, body) => same('html', (await sent(t, body.id)).html, '<p>Welcome</p>'),
  },
  {
    library: 'django-anymail (Resend backend), batch',
    source: 'anymail/django-anymail anymail/backends/resend.py serialize_data: with merge_metadata, one item per `to` address to `emails/batch`, each with its own `X-Metadata` header',
    habit: 'one item per recipient, `to` a one-address array, `X-Metadata` per item',
    userAgent: 'django-anymail/13.1 python-requests/2.32.3',
    needs: [],
    request: {
      method: 'POST',
      path: '/emails/batch',
      body: [
        { from: 'hello@example.com', to: ['delivered@resend.dev'], subject: 'Hi', text: 'Hi', headers: { 'X-Metadata': '{"order": "1"}' } },
        { from: 'hello@example.com', to: ['bounced@resend.dev'], subject: 'Hi', text: 'Hi', headers: { 'X-Metadata': '{"order": "2"}' } },
      ],
    },
    expect: { status: 200 },
    check: async (t, _made, body) => batchSent(t, body, 2),
  },
  {
    library: 'resend (hex) Resend.Swoosh.Adapter',
    source: 'elixir-saas/resend-elixir lib/resend/swoosh/adapter.ex deliver (Swoosh\'s defaults: cc and bcc `[]`, headers `%{}`), through lib/resend/emails.ex send (nil values compacted)',
    habit: '`"cc": []`, `"bcc": []`, `"headers": {}`, `"attachments": []` on every email',
    userAgent: 'req/0.5.10',
    needs: [],
    request: {
      method: 'POST',
      path: '/emails',
      body: { subject: 'Confirm your account', from: 'Phoenix <hello@example.com>', to: ['delivered@resend.dev'], bcc: [], cc: [], headers: {}, text: 'Confirm: https://example.com/c', attachments: [] },
    },
    expect: { status: 200 },
  },
  {
    library: 'Auth.js (@auth/core providers/resend)',
    source: 'nextauthjs/next-auth packages/core/src/providers/resend.ts sendVerificationRequest (fetch, no User-Agent of its own)',
    habit: 'the document\'s own shape (`to` as one string, `html` and `text`), sent with fetch\'s `User-Agent: node`: served as it is',
    userAgent: NODE_FETCH_UA,
    needs: [],
    request: { method: 'POST', path: '/emails', body: { from: 'Auth.js <hello@example.com>', to: 'user@example.com', subject: 'Sign in to example.com', html: '<p>Sign in</p>', text: 'Sign in' } },
    expect: { status: 200 },
  },
  {
    library: 'swoosh Swoosh.Adapters.Resend',
    source: 'swoosh/swoosh lib/swoosh/adapters/resend.ex prepare_body (cc, bcc, reply_to, attachments, tags, headers left out when empty)',
    habit: 'a default email (no custom headers): the document\'s shape, served',
    userAgent: 'swoosh/1.26.3',
    needs: [],
    request: { method: 'POST', path: '/emails', body: { from: 'Phoenix <hello@example.com>', to: ['delivered@resend.dev'], subject: 'Log in', text: 'Log in: https://example.com/l', html: '<p>Log in</p>' } },
    expect: { status: 200 },
  },
  {
    library: '@convex-dev/resend',
    source: 'get-convex/resend src/component/lib.ts callResendAPIWithBatch, createResendBatchPayload (every email goes through POST /emails/batch, keyed by the first queued email\'s Convex id)',
    habit: 'even one email is a batch of one, with an `Idempotency-Key` that is a Convex document id; `to` always an array: the document\'s shape, served',
    userAgent: NODE_FETCH_UA,
    needs: [],
    request: {
      method: 'POST',
      path: '/emails/batch',
      headers: { 'Idempotency-Key': 'jd7a2k9r1x0c4v8m5n3b6q2w1e9t0y7u' },
      body: [{ from: 'Convex <hello@example.com>', to: ['delivered@resend.dev'], subject: 'Welcome', html: '<p>Welcome</p>' }],
    },
    expect: { status: 200 },
    check: async (t, _made, body) => batchSent(t, body, 1),
  },
  // ---- refused, as the service's document refuses ----
  {
    library: 'swoosh Swoosh.Adapters.Resend (custom headers)',
    source: 'swoosh/swoosh lib/swoosh/adapters/resend.ex prepare_headers_body: `headers` as a list of `%{name, value}` when the email has any',
    habit: '`headers` as `[{"name": …, "value": …}]`: the document\'s `headers` is an object of names to values, and no library or SDK of the service sends this form but this one (added 2025-12, no record of the service taking it): refused 422 with the `headers` message, as a wrong type is. Only emails with custom headers send it; Swoosh\'s default email does not (the row above)',
    userAgent: 'swoosh/1.26.3',
    needs: [],
    request: { method: 'POST', path: '/emails', body: { from: 'hello@example.com', to: ['delivered@resend.dev'], subject: 'Hi', text: 'Hi', headers: [{ name: 'X-Entity-Ref-ID', value: '42' }] } },
    expect: { status: 422, name: 'validation_error', message: 'The `headers` field must be an object of header names to string values.' },
  },
  {
    library: 'symfony/resend-mailer (TagHeader)',
    source: 'symfony/symfony src/Symfony/Component/Mailer/Bridge/Resend/Transport/ResendApiTransport.php prepareHeadersAndTags: `[$header->getName() => $header->getValue()]` for a TagHeader, whose name is always `X-Tag`; its test asserts `["X-Tag" => "TagInHeaders"]`',
    habit: 'a tag as `{"X-Tag": "<value>"}` instead of `{name, value}`: the service\'s document and its tags page require `name` (and `value`) on each tag, so the tag has no name: refused 422 `missing_required_field`, as any tag without a name. Only emails with a TagHeader send it',
    userAgent: 'Symfony HttpClient (Curl)',
    needs: [],
    request: { method: 'POST', path: '/emails', body: { from: 'hello@example.com', to: ['delivered@resend.dev'], subject: 'Reset', text: 'Reset', tags: [{ 'X-Tag': 'password-reset' }] } },
    expect: { status: 422, name: 'missing_required_field', message: 'Missing `tags[0].name` field.' },
  },
];
