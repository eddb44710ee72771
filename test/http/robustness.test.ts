/**
 * Robustness sweep (house rule: bad input always gets a clear error in the
 * real service's shape `{statusCode, message, name}` and the right status:
 * never a 500, never a crash, never half-written state).
 *
 * Table-driven from spec/openapi.yaml: for EVERY operation (admin
 * `/_emulator/*` included) a deterministic set of bad inputs is generated
 * from the operation's parameters and body schema:
 * - path parameters: garbage (`x`, malformed percent-encoding, 300 chars,
 *   `../../etc` raw and encoded, the all-zero UUID) and unknown-but-valid UUIDs;
 * - query parameters: wrong types, out-of-range numbers, empty and repeated
 *   values, unknown enum values, pattern misses, both cursors, unknown cursors;
 * - JSON bodies: `null`, `[]`, `"str"`, `42`, `{}`, malformed JSON text,
 *   `text/plain`, and for each top-level property of the body schema (of
 *   the item schema for array bodies): every wrong JSON type, `""`, a
 *   100 000-character string and nested garbage; and one level deeper, each
 *   property of an object property (or of its array items);
 * - multipart (contact import): missing file, not-CSV file, malformed and
 *   wrongly-shaped JSON fields, unexpected files, truncated multipart;
 * - headers: `Idempotency-Key` of 0 and 300 characters, `x-batch-validation: nonsense`.
 *
 * A case is `reject` (must answer 4xx) when the input breaks the operation's
 * own schema (checked with the app's compiled validators) or is garbage no
 * valid request can contain; otherwise `noCrash` (a schema-valid but odd
 * input may succeed; it must still not answer 5xx). Every non-2xx answer must
 * be JSON with exactly the keys `statusCode, message, name` and `statusCode`
 * equal to the HTTP status (only operations the spec documents without any
 * JSON response, the HTML/SSE admin pages, may answer otherwise), and must
 * leave the store as it was: the row count and content of every table of
 * `userTables()` (except `logs`, which records failed requests by design) is
 * compared before and after. Each operation gets a fresh emulator; after its
 * cases the server must still answer `/_emulator/health`.
 * Deterministic: the unknown UUIDs come from a seeded PRNG, no network.
 */
import { describe, expect, it } from 'vitest';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { loadSpec, type Operation, type Schema } from '../../src/http/spec.js';
import { compileOperation } from '../../src/http/validate.js';
import { diffState, send, storeState, type Answer } from './store-state.js';
import { FIXTURES } from '../helpers.js';
import { mulberry32 } from '../../src/faults/prng.js';
import { storeOf } from '../../src/internals.js';

const { operations } = await loadSpec();

// ---------------------------------------------------------------- determinism
const SEED = 0x5eed_2026;
/** A v4 UUID from the seeded PRNG (never an id of the fixtures). */
function seededUuid(rnd: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(rnd() * 16).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[Math.floor(rnd() * 4)]!;
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

const LONG = 'a'.repeat(100_000);
const ZERO_UUID = '00000000-0000-0000-0000-000000000000';
/** Nested garbage: deep nesting, prototype keys, control characters, extreme numbers. */
function nestedGarbage(): unknown {
  let deep: unknown = 'bottom';
  for (let i = 0; i < 64; i++) deep = i % 2 ? [deep] : { n: deep };
  return JSON.parse(
    JSON.stringify({ a: [{ b: { c: [null, '\u0000\u202e', -1e308, 1e308, true] } }], deep }).replace('{"a"', '{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}},"a"'),
  );
}

// ---------------------------------------------------------------- valid ids
/** An existing resource id for a path parameter (fixtures), or null for none. */
function existingId(op: Operation, name: string, made: Record<string, string>): string | null {
  const seg = op.path.split('/')[1];
  const admin = seg === '_emulator';
  switch (name) {
    case 'api_key_id': return '0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b';
    case 'domain_id': return FIXTURES.verifiedDomainId;
    case 'webhook_id': return made.webhook_id ?? null;
    // The link check of an existing email would request its links (https://example.com/...): tests stay off the
    // network, so it is swept with unknown ids only (its rules are in test/admin/checks.test.ts, against a local server).
    case 'email_id': return op.path.includes('/receiving/') || op.path.includes('/inbound/') || op.path.endsWith('/link-check') ? null : 'a1b2c3d4-0001-4a5b-8c6d-7e8f9a0b1c2d';
    case 'contact_id': return '1a2b3c4d-5e6f-4a7b-8c8d-9e0f1a2b3c4d';
    case 'segment_id': case 'audience_id': return '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
    case 'broadcast_id': return 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e';
    case 'automation_id': return '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d';
    case 'oauth_grant_id': return 'd4e5f6a7-b8c9-4d0e-9f1a-2b3c4d5e6f7a';
    case 'identifier': return '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e';
    case 'id': {
      if (admin) return null;
      if (op.path.startsWith('/audiences/{audience_id}/contacts/') || seg === 'contacts') return op.path.startsWith('/contacts/imports') ? null : '1a2b3c4d-5e6f-4a7b-8c8d-9e0f1a2b3c4d';
      if (seg === 'segments' || seg === 'audiences') return '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
      if (seg === 'topics') return '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f';
      if (seg === 'contact-properties') return '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
      if (seg === 'templates') return '7e1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b';
      return null;
    }
    default: return null;
  }
}

// ---------------------------------------------------------------- sampling
/** A plausible value for a schema (valid for simple schemas; good enough as a base to mutate). */
function sample(schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return 'sample';
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v: unknown) => v !== null) ?? schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const branch = schema.oneOf?.[0] ?? schema.anyOf?.[0];
  if (branch && !schema.properties) return sample(branch, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties) {
    const out: Record<string, unknown> = {};
    const props = { ...(branch?.properties ?? {}), ...(schema.properties ?? {}) };
    for (const k of [...(schema.required ?? []), ...(branch?.required ?? [])]) out[k] = sample(props[k], depth + 1);
    return out;
  }
  if (type === 'array') return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => sample(schema.items, depth + 1));
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  switch (schema.format) {
    case 'email': return 'robust@example.com';
    case 'uuid': return ZERO_UUID;
    case 'date-time': return '2030-01-01T00:00:00.000Z';
    case 'uri': case 'url': return 'https://example.com/robust';
  }
  return 'x'.repeat(Math.max(1, schema.minLength ?? 6));
}

/** Valid bodies where sampling cannot guess one (so the header cases reach their check). */
const BASE_BODIES: Record<string, unknown> = {
  'emails/send': { from: `Robust <robust@${FIXTURES.verifiedDomain}>`, to: 'delivered@resend.dev', subject: 'Hi', html: '<p>Hi</p>' },
  'emails/send-batch': [{ from: `Robust <robust@${FIXTURES.verifiedDomain}>`, to: 'delivered@resend.dev', subject: 'Hi', html: '<p>Hi</p>' }],
  'domains/create': { name: 'robust-example.com' },
  'domains/create-claim': { name: FIXTURES.claimableDomain },
  'automations/update': { name: 'Robust' },
  'suppressions/add': { email: 'robust@example.com' },
  'suppressions/batch-add': { emails: ['robust@example.com'] },
  'broadcasts/create': { from: `Robust <robust@${FIXTURES.verifiedDomain}>`, subject: 'Hi', segment_id: '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b', html: '<p>Hi</p>' },
  'events/send': { event: 'user.signed_up', contact_id: '1a2b3c4d-5e6f-4a7b-8c8d-9e0f1a2b3c4d' },
  'contacts/update-topics': [{ id: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f', subscription: 'opt_in' }],
  'admin/create-oauth-grant': { team_id: FIXTURES.defaultTeamId },
  'emails/update': { scheduled_at: '2030-01-01T00:00:00.000Z' },
};

/** Top-level properties of a body schema, including those of oneOf/anyOf branches. */
function bodyProperties(schema: Schema): Record<string, Schema> {
  const props: Record<string, Schema> = {};
  for (const s of [schema, ...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])]) Object.assign(props, s?.properties ?? {});
  return props;
}

// ---------------------------------------------------------------- documented successes
/**
 * Garbage the real service answers 2xx, so the emulator does too (the case
 * stays in the table as `noCrash`): operationId → case labels, with the source.
 */
const DOCUMENTED_SUCCESS: Record<string, { labels: RegExp; why: string }> = {
  'audiences/get-contact': { labels: /^path audience_id=(all-zero|unknown) UUID/, why: 'legacy path: contacts are team-wide, the audience id is ignored (docs/reference/resources.md#contacts; contacts/legacy.ts)' },
  'audiences/update-contact': { labels: /^path audience_id=(all-zero|unknown) UUID/, why: 'legacy path: the audience id is ignored (docs/reference/resources.md#contacts)' },
  'audiences/remove-contact': { labels: /^path (audience_id|id)=(all-zero|unknown) UUID/, why: 'legacy DELETE of an unknown contact → 200 deleted:true (docs/reference/resources.md#contacts; docs/reference/interface-spec.md#where-the-spec-and-the-service-differ)' },
  'segments/remove': { labels: /^path id=(all-zero|unknown) UUID/, why: 'DELETE of an unknown segment → 200 deleted:true (docs/reference/interface-spec.md#where-the-spec-and-the-service-differ)' },
  'audiences/remove': { labels: /^path id=(all-zero|unknown) UUID/, why: 'DELETE of an unknown segment → 200 deleted:true (docs/reference/interface-spec.md#where-the-spec-and-the-service-differ)' },
  'contacts/create-import': {
    labels: /^multipart (file (not CSV|empty|header only|without an email column|unbalanced quotes)|column_map="\{\\"email\\": ?\\"(nope|a+))/,
    why: 'the CSV is read by the asynchronous import job: 201 `queued`, then `failed` (docs/reference/resources.md#contact-imports)',
  },
};

// ---------------------------------------------------------------- cases
interface Case {
  label: string;
  path: string;
  query?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  expect: 'reject' | 'noCrash';
}

function buildPath(op: Operation, values: Record<string, string>): string {
  return op.path.replace(/\{([^}]+)\}/g, (_m, n: string) => values[n]!);
}

function casesFor(op: Operation, made: Record<string, string>): Case[] {
  const rnd = mulberry32(SEED ^ [...op.operationId].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
  const v = compileOperation(op);
  const cases: Case[] = [];
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const goodPath: Record<string, string> = {};
  for (const p of pathParams) goodPath[p.name] = encodeURIComponent(existingId(op, p.name, made) ?? seededUuid(rnd));
  const baseQuery: Record<string, string> = {};
  for (const p of queryParams) if (p.required) baseQuery[p.name] = String(sample(p.schema));
  const qs = (q: Record<string, string | string[]>) =>
    Object.entries(q).flatMap(([k, val]) => (Array.isArray(val) ? val : [val]).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(x)}`)).join('&');
  const paramsValid = (q: Record<string, string | string[]>, pp: Record<string, string> = goodPath) => {
    if (!v.params) return true;
    const decoded: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(pp)) decoded[k] = decodeURIComponent(x);
    return v.params(structuredClone({ ...q, ...decoded }));
  };
  const jsonBody = op.body && op.body.mediaType === 'application/json';
  const baseBody = jsonBody ? (BASE_BODIES[op.operationId] ?? sample(op.body!.schema)) : undefined;
  const baseBodyText = baseBody === undefined ? undefined : JSON.stringify(baseBody);
  const jsonHeaders = { 'content-type': 'application/json' };

  // Path parameters: garbage and unknown ids always name nothing → 4xx.
  for (const p of pathParams) {
    const garbage: [string, string][] = [
      ['x', 'x'],
      ['malformed %-encoding', '%E0%A4%A'],
      ['300 chars', 'z'.repeat(300)],
      ['../../etc raw', '../../etc'],
      ['../../etc encoded', '..%2F..%2Fetc'],
      ['all-zero UUID', ZERO_UUID],
      ['unknown UUID', seededUuid(rnd)],
      ['unknown UUID upper-case', seededUuid(rnd).toUpperCase()],
    ];
    for (const [what, raw] of garbage) {
      cases.push({
        label: `path ${p.name}=${what}`,
        path: buildPath(op, { ...goodPath, [p.name]: raw }),
        query: qs(baseQuery),
        headers: baseBodyText ? jsonHeaders : undefined,
        body: baseBodyText,
        expect: 'reject',
      });
    }
  }

  // Query parameters.
  const path0 = buildPath(op, goodPath);
  const queryCase = (label: string, q: Record<string, string | string[]>, forceReject = false) => {
    cases.push({
      label: `query ${label}`,
      path: path0,
      query: qs(q),
      headers: baseBodyText ? jsonHeaders : undefined,
      body: baseBodyText,
      expect: forceReject || !paramsValid(q) ? 'reject' : 'noCrash',
    });
  };
  for (const p of queryParams) {
    const s = p.schema;
    const values: string[] = ['', '%E0%A4%A', 'z'.repeat(300), 'nonsense,,', '[object Object]'];
    if (s.type === 'integer' || s.type === 'number') {
      values.push('abc', '1.5', '-1', '0', '1e3', '99999999999999999999', 'NaN', 'Infinity', '0x10');
      if (s.minimum !== undefined) values.push(String(s.minimum - 1));
      if (s.maximum !== undefined) values.push(String(s.maximum + 1));
    }
    if (s.enum) values.push('nonsense', String(s.enum[0]).toUpperCase());
    for (const val of values) queryCase(`${p.name}=${JSON.stringify(val.slice(0, 20))}`, { ...baseQuery, [p.name]: val });
    queryCase(`${p.name} repeated`, { ...baseQuery, [p.name]: [String(sample(s)), String(sample(s))] });
    if (p.required) {
      const { [p.name]: _drop, ...rest } = baseQuery;
      queryCase(`${p.name} missing`, rest, true);
    }
  }
  const names = queryParams.map((p) => p.name);
  if (names.includes('after') && names.includes('before')) {
    const id = seededUuid(rnd);
    queryCase('after+before', { ...baseQuery, after: id, before: id }, true);
  }
  for (const c of ['after', 'before']) {
    if (names.includes(c)) {
      queryCase(`${c}=unknown UUID`, { ...baseQuery, [c]: seededUuid(rnd) }, true);
      queryCase(`${c}=garbage`, { ...baseQuery, [c]: "x' OR 1=1 --" }, true);
    }
  }

  // Bodies. Malformed JSON text is refused by every operation.
  if (op.operationId !== 'admin/events') {
    cases.push({ label: 'body malformed JSON', path: path0, query: qs(baseQuery), headers: jsonHeaders, body: '{"a": ', expect: 'reject' });
  }
  if (jsonBody && !op.body!.rawMediaTypes) {
    const validator = v.body!;
    const bodyCase = (label: string, value: unknown, forceReject = false) => {
      const text = JSON.stringify(value);
      // What the validation step checks: the body without what the document drops (`pruneBody`: undeclared keys, `x-absent-values`).
      const schemaValid = validator(v.prune(structuredClone(value)));
      // The app refuses a non-object, non-array top-level value before the schema.
      const topOk = (typeof value === 'object' && value !== null) || Array.isArray(value);
      cases.push({ label: `body ${label}`, path: path0, query: qs(baseQuery), headers: jsonHeaders, body: text, expect: forceReject || !schemaValid || !topOk ? 'reject' : 'noCrash' });
    };
    for (const [label, value] of [['null', null], ['[]', []], ['"str"', 'str'], ['42', 42], ['{}', {}], ['true', true]] as const) bodyCase(label, value);
    cases.push({
      label: 'body text/plain',
      path: path0,
      query: qs(baseQuery),
      headers: { 'content-type': 'text/plain' },
      body: baseBodyText ?? 'hello',
      expect: 'reject',
    });
    const isArray = op.body!.schema.type === 'array';
    const target = isArray ? op.body!.schema.items ?? {} : op.body!.schema;
    const base = (isArray ? (baseBody as unknown[])[0] : baseBody) as Record<string, unknown>;
    const wrap = (obj: unknown) => (isArray ? [obj] : obj);
    for (const [prop, ps] of Object.entries(bodyProperties(target))) {
      const mutations: [string, unknown][] = [
        ['number', 42],
        ['negative float', -1.5],
        ['string', 'str'],
        ['array', ['str', 1]],
        ['object', { a: 1 }],
        ['null', null],
        ['boolean', false],
        ['empty string', ''],
        ['100 000-char string', LONG],
        ['nested garbage', nestedGarbage()],
      ];
      for (const [what, value] of mutations) bodyCase(`${prop}=${what}`, wrap({ ...(base ?? {}), [prop]: value }));
      // One level deeper: each property of an object (or of an array's object items).
      const isList = ps.type === 'array' || (Array.isArray(ps.type) && ps.type.includes('array'));
      const inner: Schema | undefined = isList ? ps.items : ps;
      const innerProps = inner ? bodyProperties(inner) : {};
      if (!Object.keys(innerProps).length) continue;
      const container = sample(isList ? inner : ps);
      for (const sub of Object.keys(innerProps)) {
        for (const [what, value] of [['number', 42], ['string', 'str'], ['null', null], ['empty string', ''], ['object', { a: [] }], ['10 000-char string', LONG.slice(0, 10_000)]] as const) {
          const item = { ...((container && typeof container === 'object' ? container : {}) as object), [sub]: value };
          bodyCase(`${prop}${isList ? '[0]' : ''}.${sub}=${what}`, wrap({ ...(base ?? {}), [prop]: isList ? [item] : item }));
        }
      }
    }
  }
  if (op.body?.mediaType === 'multipart/form-data') cases.push(...multipartCases(op, path0));

  // Headers.
  if (op.operationId === 'emails/send' || op.operationId === 'emails/send-batch') {
    for (const [what, key] of [['empty', ''], ['300 chars', 'k'.repeat(300)]]) {
      cases.push({ label: `Idempotency-Key ${what}`, path: path0, headers: { ...jsonHeaders, 'idempotency-key': key! }, body: baseBodyText, expect: 'reject' });
    }
  }
  if (op.operationId === 'emails/send-batch') {
    cases.push({ label: 'x-batch-validation: nonsense', path: path0, headers: { ...jsonHeaders, 'x-batch-validation': 'nonsense' }, body: baseBodyText, expect: 'reject' });
    cases.push({ label: 'x-batch-validation: empty', path: path0, headers: { ...jsonHeaders, 'x-batch-validation': '' }, body: baseBodyText, expect: 'reject' });
  }
  const documented = DOCUMENTED_SUCCESS[op.operationId];
  if (documented) for (const c of cases) if (documented.labels.test(c.label)) c.expect = 'noCrash';
  return cases;
}

/** A multipart/form-data body by hand (fields and files), with a fixed boundary. */
function multipart(parts: { name: string; value: string | Buffer; filename?: string; type?: string }[], opts: { truncate?: boolean } = {}) {
  const boundary = '----robustness0123456789';
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `Content-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    const type = p.filename ? `\r\nContent-Type: ${p.type ?? 'text/csv'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\n${disp}${type}\r\n\r\n`), Buffer.from(p.value), Buffer.from('\r\n'));
  }
  if (!opts.truncate) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: Buffer.concat(chunks) };
}

function multipartCases(op: Operation, path: string): Case[] {
  const csv = { name: 'file', value: 'email,first_name\nimport-robust@example.com,Ann\n', filename: 'contacts.csv' };
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  const cases: Case[] = [];
  const add = (label: string, parts: Parameters<typeof multipart>[0], expectation: Case['expect'] = 'reject', opts = {}) => {
    const m = multipart(parts, opts);
    cases.push({ label: `multipart ${label}`, path, headers: m.headers, body: m.body, expect: expectation });
  };
  add('missing file', [{ name: 'on_conflict', value: 'skip' }]);
  add('no parts at all', []);
  add('file not CSV (PNG bytes)', [{ name: 'file', value: png, filename: 'x.png', type: 'image/png' }]);
  add('file not CSV (binary zeros)', [{ name: 'file', value: Buffer.alloc(64), filename: 'contacts.csv' }]);
  add('file empty', [{ name: 'file', value: '', filename: 'contacts.csv' }]);
  add('file header only', [{ name: 'file', value: 'email\n', filename: 'contacts.csv' }]);
  add('file without an email column', [{ name: 'file', value: 'name\nAnn\n', filename: 'contacts.csv' }]);
  add('file unbalanced quotes', [{ name: 'file', value: 'email\n"a@example.com\n', filename: 'contacts.csv' }]);
  add('file as a text field', [{ name: 'file', value: 'email\na@example.com\n' }]);
  add('two files', [csv, { ...csv, filename: 'b.csv' }]);
  add('unexpected file field', [csv, { name: 'other', value: 'x', filename: 'other.csv' }]);
  const jsonFields: [string, string][] = [
    ['column_map', '{not json'], ['column_map', '[]'], ['column_map', '"str"'], ['column_map', '42'], ['column_map', 'null'],
    ['column_map', '{"email": 42}'], ['column_map', '{"email": "nope"}'], ['column_map', JSON.stringify({ email: LONG })],
    ['segments', 'not json'], ['segments', '{"a":1}'], ['segments', '[1,2]'], ['segments', '["not-a-uuid"]'], ['segments', `["${ZERO_UUID}"]`],
    ['topics', 'not json'], ['topics', '{"a":1}'], ['topics', '[1,2]'], ['topics', '[{"id":"x","subscription":"maybe"}]'],
    ['on_conflict', 'nonsense'], ['on_conflict', ''], ['on_conflict', LONG],
  ];
  for (const [name, value] of jsonFields) add(`${name}=${JSON.stringify(value.slice(0, 30))}`, [csv, { name, value }]);
  add('truncated multipart', [csv], 'reject', { truncate: true });
  cases.push({ label: 'multipart as JSON body', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ file: 'email\na@b.co\n' }), expect: 'reject' });
  cases.push({ label: 'multipart without boundary', path, headers: { 'content-type': 'multipart/form-data' }, body: 'x', expect: 'reject' });
  cases.push({ label: 'multipart as text/plain', path, headers: { 'content-type': 'text/plain' }, body: 'email\na@b.co\n', expect: 'reject' });
  return cases;
}

// ---------------------------------------------------------------- transport and state: ./store-state.ts

/** Operations the spec documents without any JSON response (HTML / SSE admin pages). */
const nonJson = (op: Operation) => Object.keys(op.responses).length === 0;

// ---------------------------------------------------------------- the sweep
const totals = { operations: 0, cases: 0, rejected: 0 };

describe('robustness: bad input never yields a 500, a crash, an HTML page or half-written state', () => {
  for (const op of operations) {
    it(`${op.method} ${op.path} (${op.operationId})`, async () => {
      const emu = await startServer({ validateResponses: true, webhooks: 'record', fixtures: 'demo' });
      try {
        const made: Record<string, string> = {};
        if (op.path.includes('{webhook_id}')) {
          const r = await send(emu.url, 'POST', '/webhooks', { 'content-type': 'application/json' }, JSON.stringify({ endpoint: 'http://127.0.0.1:9/hook', events: ['email.sent'] }));
          made.webhook_id = JSON.parse(r.text).id;
        }
        // Warm up (sets the key's last_used_at) so the state compares only what the case does.
        await send(emu.url, 'GET', '/domains');
        const cases = casesFor(op, made);
        const failures: string[] = [];
        for (const c of cases) {
          const before = storeState(emu);
          const path = c.query ? `${c.path}?${c.query}` : c.path;
          let ans: Answer;
          try {
            ans = await send(emu.url, op.method, path, c.headers, c.body);
          } catch (err) {
            failures.push(`${c.label}: no answer (${(err as Error).message})`);
            continue;
          }
          const what = `${c.label} → ${ans.status} ${ans.text.slice(0, 160)}`;
          if (ans.status >= 500) failures.push(`5xx: ${what}`);
          else if (c.expect === 'reject' && !(ans.status >= 400 && ans.status < 500)) failures.push(`not 4xx: ${what}`);
          if (ans.status >= 400) {
            if (!/^application\/json/.test(ans.contentType)) {
              if (!nonJson(op)) failures.push(`not JSON (${ans.contentType}): ${what}`);
            } else {
              let body: any;
              try { body = JSON.parse(ans.text); } catch { body = undefined; }
              if (!body || JSON.stringify(Object.keys(body)) !== '["statusCode","message","name"]') failures.push(`wrong keys: ${what}`);
              else if (body.statusCode !== ans.status || typeof body.message !== 'string' || !body.message || typeof body.name !== 'string') failures.push(`wrong shape: ${what}`);
            }
            if (ans.status < 500) {
              const changed = diffState(before, storeState(emu));
              if (changed.length) failures.push(`half-written (${changed.join('; ')}): ${what}`);
            }
            totals.rejected++;
          }
          totals.cases++;
        }
        // Jobs scheduled by odd-but-accepted input must run without crashing either.
        await emu.clock.advance('2h');
        const crashed = storeOf(emu).prepare(`SELECT type, error FROM jobs WHERE status = 'failed'`).all() as { type: string; error: string }[];
        for (const j of crashed) failures.push(`job ${j.type} crashed: ${j.error.split('\n')[0]}`);
        if (op.operationId === 'contacts/create-import') {
          const list = JSON.parse((await send(emu.url, 'GET', '/contacts/imports')).text);
          for (const imp of list.data) if (!['completed', 'failed'].includes(imp.status)) failures.push(`import ${imp.id} still ${imp.status} after 2h`);
        }
        const health = await send(emu.url, 'GET', '/_emulator/health');
        expect(health.status).toBe(200);
        totals.operations++;
        expect(failures).toEqual([]);
      } finally {
        await emu.close();
      }
    });
  }

  it('swept every operation of the spec', () => {
    expect(totals.operations).toBe(operations.length);
    expect(totals.cases).toBeGreaterThan(operations.length * 5);
    console.log(`robustness: ${totals.operations} operations, ${totals.cases} cases, ${totals.rejected} answered 4xx`);
  });
});
