/**
 * Fuzzing from the documents (issue 13, "Build"): requests generated from
 * this project's `spec/openapi.yaml` and from the real service's document
 * (`../shared/reference/resend-openapi.yaml` beside the clone, or
 * `RESEND_OPENAPI`; skipped with a log line when absent, nothing of it is
 * copied here). Each request starts valid by the operation's schema (values
 * drawn from the schema: enums, formats, patterns, bounds; ids from the
 * fixtures), then a seeded mutation may break it: a wrong JSON type, a
 * missing required field, an extra field, a huge or odd string (NUL, RTL,
 * emoji, lone surrogates escaped), a non-JSON or non-object body, odd ids in
 * the path, odd query values. Checked for every answer:
 * - never a status of 500 or more;
 * - every error is JSON with exactly `{statusCode, message, name}` and
 *   `statusCode` equal to the status (operations documented without any
 *   JSON response, the HTML/SSE admin pages, excepted);
 * - a 4xx changes no table (`storeState`, as the robustness sweep).
 * A run is a sequence of `REQUESTS_PER_RUN` requests on a freshly reset
 * emulator (so successful requests build state the next ones hit).
 *
 * Extra keys on valid bodies (issue 27): every operation with a JSON body,
 * a few valid bodies each (its required keys only, then drawn as above; the path's ids those of the
 * fixtures' resources so updates reach their handlers), sent once as drawn
 * and once with keys the document does not declare: the SDKs' repeated ids
 * (`id`, `<resource>_id`), `constructor`, `__proto__`, `toString` and a
 * random name, at the top and in each nested object the document
 * describes key by key (not in maps such as `headers`). Never 5xx, and in the
 * public API the same status with and without them (undeclared keys are
 * ignored: `pruneBody`, src/http/validate.ts).
 * Seeded (`FUZZ_SEED`); `npm test` runs a bounded slice, `npm run fuzz`
 * (FUZZ=full) the long run (`FUZZ_RUNS` sequences).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { specDir, type Document, type Schema } from '../../src/http/spec.js';
import { diffState, send, storeState } from '../http/store-state.js';
import { FIXTURES } from '../helpers.js';
import { fuzzSettings } from './settings.js';
import { storeOf } from '../../src/internals.js';

const REQUESTS_PER_RUN = 12;

interface FuzzOp {
  source: 'ours' | 'real';
  method: string;
  path: string;
  params: { name: string; in: string; required: boolean; schema: Schema }[];
  body: Schema | null;
  /** Documented with at least one JSON response (errors must then be JSON). */
  json: boolean;
}

/** The operations of a dereferenced document, flattened as src/http/spec.ts does. */
function operationsOf(document: Document, source: FuzzOp['source']): FuzzOp[] {
  const out: FuzzOp[] = [];
  for (const [p, item] of Object.entries<any>(document.paths ?? {})) {
    for (const m of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[m];
      if (!op) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])]
        // `wait` (admin long-poll, up to minutes of wall time) is left out: it is a wait, not an input to fuzz.
        .filter((prm: any) => prm && (prm.in === 'path' || (prm.in === 'query' && prm.name !== 'wait')))
        .map((prm: any) => ({ name: prm.name, in: prm.in, required: prm.in === 'path' || Boolean(prm.required), schema: prm.schema ?? { type: 'string' } }));
      const content = op.requestBody?.content ?? {};
      const body = content['application/json']?.schema ?? null;
      const json = Object.values<any>(op.responses ?? {}).some((r) => r?.content?.['application/json']);
      out.push({ source, method: m.toUpperCase(), path: p, params, body, json });
    }
  }
  return out;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** `RESEND_OPENAPI`, else `shared/reference/resend-openapi.yaml` beside the clone (or beside a folder above it, for worktrees). */
const REAL_DOC =
  process.env.RESEND_OPENAPI ??
  [1, 2, 3].map((up) => path.resolve(here, '../..', ...Array(up).fill('..'), 'shared/reference/resend-openapi.yaml')).find((f) => fs.existsSync(f)) ??
  path.resolve(here, '../../../shared/reference/resend-openapi.yaml');

const ours = operationsOf((await $RefParser.dereference(path.join(specDir(), 'openapi.yaml'))) as Document, 'ours');
let real: FuzzOp[] = [];
if (fs.existsSync(REAL_DOC)) {
  real = operationsOf((await $RefParser.dereference(REAL_DOC)) as Document, 'real');
} else {
  console.log(`[reliability] fuzz: the real service's document is not at ${REAL_DOC}: fuzzing from spec/openapi.yaml only`);
}
/**
 * Operations fuzzed: never the ones that wipe or replace the whole store, nor
 * adding a fault rule, which makes the next requests fail (5xx) or wait on
 * purpose (they are fuzzed by the robustness sweep, one emulator each), nor
 * an email's link check, which would reach the network.
 */
const OPERATIONS = [...ours, ...real].filter(
  (o) =>
    !/^\/_emulator\/(reset|snapshot|events)$/.test(o.path) &&
    !(o.path === '/_emulator/clock' && o.method !== 'GET') &&
    !(o.path === '/_emulator/faults' && o.method === 'POST') &&
    // The link check requests an email's links (the fixtures' are https://example.com/...): tests stay off the network
    // (test/admin/checks.test.ts checks it against a local server).
    !o.path.endsWith('/link-check'),
);

// ---------------------------------------------------------------- values from schemas
const FIXTURE_IDS = [
  FIXTURES.verifiedDomainId, '0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b', 'a1b2c3d4-0001-4a5b-8c6d-7e8f9a0b1c2d',
  '1a2b3c4d-5e6f-4a7b-8c8d-9e0f1a2b3c4d', '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b', 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
  '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d', '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f', '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
  '7e1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b', '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
];
const ODD_STRINGS = ['', ' ', '\u0000', 'nul\u0000byte', '\u202eRTL', '😀'.repeat(50), 'a'.repeat(100_000), '../../etc/passwd', '%00%zz', '<script>alert(1)</script>', "' OR 1=1 --", '{{{contact.first_name}}}', '\r\nX-Injected: 1', 'ÿ'.repeat(300), '\ud800'];
const ODD_IDS = ['x', '%', '%zz', '..%2F..%2Fetc', 'a'.repeat(300), '00000000-0000-0000-0000-000000000000', '%00', '%F0%9F%98%80', '-1', '1e309', 'null', '[]', 'undefined'];
const WRONG_TYPES: unknown[] = [0, -1, 1.5, 1e308, true, false, null, [], [1, 'a'], {}, { nested: { deep: [null] } }, 'str'];

const email = fc.constantFrom('delivered@resend.dev', 'bounced@resend.dev', `fuzz@${FIXTURES.verifiedDomain}`, FIXTURES.ownerEmail, 'Fuzz <fuzz@example.com>', 'alice@example.org');

function typeOf(schema: Schema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t: string) => t !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  return undefined;
}

/** A value valid for simple schemas (good enough to start from; mutated afterwards). */
function arb(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 5) return fc.constant('x');
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...schema.enum);
  const branches = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(branches) && branches.length && !schema.properties) return fc.oneof(...branches.slice(0, 6).map((b: Schema) => arb(b, depth + 1)));
  if (Array.isArray(schema.allOf) && schema.allOf.length) {
    const merged = { type: 'object' as const, properties: {} as Record<string, Schema>, required: [] as string[] };
    for (const part of schema.allOf) {
      Object.assign(merged.properties, part.properties ?? {});
      merged.required.push(...(part.required ?? []));
    }
    return arb({ ...merged, ...schema, allOf: undefined, properties: { ...merged.properties, ...(schema.properties ?? {}) }, required: [...merged.required, ...(schema.required ?? [])] }, depth + 1);
  }
  const examples = [schema.example, ...(Array.isArray(schema.examples) ? schema.examples : [])].filter((x) => x !== undefined);
  const fromType = (): fc.Arbitrary<unknown> => {
    switch (typeOf(schema)) {
      case 'object': {
        const props = (schema.properties ?? {}) as Record<string, Schema>;
        const entries = Object.entries(props).slice(0, 25);
        if (!entries.length) return fc.constant({});
        const required = (schema.required ?? []).filter((k: string) => k in props);
        return fc.record(Object.fromEntries(entries.map(([k, s]) => [k, arb(s, depth + 1)])), { requiredKeys: required });
      }
      case 'array':
        return fc.array(arb(schema.items, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)) });
      case 'integer':
        return fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 1000, 1_000_000) });
      case 'number':
        return fc.double({ min: schema.minimum ?? 0, max: schema.maximum ?? 1000, noNaN: true });
      case 'boolean':
        return fc.boolean();
      case 'string': {
        switch (schema.format) {
          case 'email': return email;
          case 'uuid': return fc.constantFrom(...FIXTURE_IDS);
          case 'date-time': return fc.constantFrom('2030-01-01T00:00:00.000Z', '2026-11-24T12:00:00Z', 'in 1 min');
          case 'date': return fc.constant('2030-01-01');
          case 'uri': case 'url': return fc.constantFrom('https://example.com/hook', 'http://127.0.0.1:9/x');
        }
        if (schema.pattern) {
          try {
            return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length <= (schema.maxLength ?? 200) && s.length >= (schema.minLength ?? 0));
          } catch {
            /* a pattern JS cannot compile: plain strings */
          }
        }
        return fc.string({ minLength: Math.max(1, schema.minLength ?? 1), maxLength: Math.min(schema.maxLength ?? 24, 24) });
      }
      default:
        return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
    }
  };
  return examples.length ? fc.oneof(fc.constantFrom(...examples), fromType()) : fromType();
}

// ---------------------------------------------------------------- requests
interface FuzzRequest {
  op: FuzzOp;
  path: string;
  query: string;
  body: string | undefined;
  contentType: string;
  mutation: string;
}

type Mutation =
  | { kind: 'none' }
  | { kind: 'wrongType'; key: number; value: unknown }
  | { kind: 'dropRequired'; key: number }
  | { kind: 'extra'; value: unknown }
  | { kind: 'oddString'; key: number; value: string }
  | { kind: 'rawBody'; text: string; contentType: string }
  | { kind: 'oddPath'; id: string }
  | { kind: 'oddQuery'; key: number; value: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('wrongType' as const), key: fc.nat(), value: fc.constantFrom(...WRONG_TYPES) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('dropRequired' as const), key: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('extra' as const), value: fc.constantFrom(...WRONG_TYPES, ...ODD_STRINGS.slice(0, 6)) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('oddString' as const), key: fc.nat(), value: fc.constantFrom(...ODD_STRINGS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rawBody' as const), text: fc.constantFrom('{', 'null', '[]', '"str"', '42', 'not json', '{"a":1}{"b":2}', '\u0000'), contentType: fc.constantFrom('application/json', 'text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1') }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('oddPath' as const), id: fc.constantFrom(...ODD_IDS) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('oddQuery' as const), key: fc.nat(), value: fc.constantFrom(...ODD_IDS, '0', '101', '-5', 'true') }) },
);

/** Serialises JSON with lone surrogates escaped (JSON.stringify does that already). */
const json = (v: unknown) => JSON.stringify(v);

const requestArb: fc.Arbitrary<FuzzRequest> = fc
  .constantFrom(...OPERATIONS)
  .chain((op) =>
    fc.record({
      op: fc.constant(op),
      pathValues: fc.tuple(...op.params.filter((p) => p.in === 'path').map((p) => (p.schema.format === 'uuid' || /id$/.test(p.name) ? fc.constantFrom(...FIXTURE_IDS) : arb(p.schema)))),
      queryValues: fc.tuple(...op.params.filter((p) => p.in === 'query').map((p) => fc.option(arb(p.schema), { nil: undefined, freq: 3 }))),
      body: op.body ? arb(op.body) : fc.constant(undefined),
      mutation,
    }),
  )
  .map(({ op, pathValues, queryValues, body, mutation: mu }) => {
    const pathParams = op.params.filter((p) => p.in === 'path');
    const queryParams = op.params.filter((p) => p.in === 'query');
    let label = 'valid';
    let b: unknown = body === undefined ? undefined : structuredClone(body);
    const obj = b !== null && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : null;
    const keys = obj ? Object.keys(obj) : [];
    const q = queryParams.map((p, i) => [p.name, queryValues[i]] as [string, unknown]).filter(([, v]) => v !== undefined);
    let pathValuesOut = pathValues.map(String);
    let raw: { text: string; contentType: string } | null = null;
    switch (mu.kind) {
      case 'wrongType': if (obj && keys.length) { const k = keys[mu.key % keys.length]!; obj[k] = mu.value; label = `${k}: ${json(mu.value)}`; } break;
      case 'dropRequired': {
        const req = (op.body?.required ?? []) as string[];
        if (obj && req.length) { const k = req[mu.key % req.length]!; delete obj[k]; label = `without ${k}`; }
        break;
      }
      case 'extra': if (obj) { obj.zz_unknown_field = mu.value; label = 'extra field'; } break;
      case 'oddString': {
        const strs = keys.filter((k) => typeof obj![k] === 'string');
        if (strs.length) { const k = strs[mu.key % strs.length]!; obj![k] = mu.value; label = `${k}: odd string (${mu.value.length} chars)`; }
        break;
      }
      case 'rawBody': raw = { text: mu.text, contentType: mu.contentType }; label = `raw body ${json(mu.text)} as ${mu.contentType}`; break;
      case 'oddPath': if (pathValuesOut.length) { pathValuesOut = pathValuesOut.map((v, i) => (i === pathValuesOut.length - 1 ? mu.id : v)); label = `path id ${mu.id.slice(0, 30)}`; } break;
      case 'oddQuery': if (queryParams.length) { const p = queryParams[mu.key % queryParams.length]!; q.push([p.name, mu.value]); label = `?${p.name}=${mu.value.slice(0, 30)}`; } break;
    }
    let i = 0;
    const p = op.path.replace(/\{[^}]+\}/g, () => {
      const v = pathValuesOut[i++] ?? 'x';
      return ODD_IDS.includes(v) ? v : encodeURIComponent(v);
    });
    const query = q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : json(v))}`).join('&');
    const sendsBody = op.method !== 'GET' && op.method !== 'DELETE';
    return {
      [fc.toStringMethod]: () => `${op.source} ${op.method} ${p}${query ? `?${query}` : ''} (${label})`,
      op, path: p, query, mutation: label,
      body: raw ? raw.text : sendsBody && b !== undefined ? json(b) : undefined,
      contentType: raw ? raw.contentType : 'application/json',
    };
  });

// ---------------------------------------------------------------- extra keys on valid bodies
/** The id of a fixture resource of the default team, by the path's first segment: an update then reaches its handler. */
const FIXTURE_BY_RESOURCE: Record<string, string> = {
  broadcasts: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d', // the draft
  domains: FIXTURES.verifiedDomainId,
  'contact-properties': '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d',
  topics: '7c8d9e0f-1a2b-4c3d-8e4f-5a6b7c8d9e0f',
  segments: '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b',
  audiences: '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b',
  contacts: '1a2b3c4d-5e6f-4a7b-8c8d-9e0f1a2b3c4d',
  emails: 'a1b2c3d4-0001-4a5b-8c6d-7e8f9a0b1c2d',
  templates: '7e1a2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  automations: '2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d',
  events: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e',
  inboxes: '6d7e8f90-1a2b-4c3d-8e4f-5a6b7c8d9e01',
  'api-keys': '0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b',
};

/** Keys no body declares, added to a valid body (`id` and `<resource>_id` carry the path's id, as the SDKs send them). */
function extraKeys(op: FuzzOp, pathId: string, random: string, top: boolean): [string, unknown][] {
  const resource = op.path.split('/')[1]!.replace(/-/g, '_').replace(/s$/, '');
  const declared = new Set(Object.keys((op.body?.properties ?? {}) as object));
  const ids: [string, unknown][] = top ? [['id', pathId], [`${resource}_id`, pathId]] : [];
  return [...ids.filter(([k]) => !declared.has(k)), ['constructor', 'x'], ['__proto__', { polluted: true }], ['toString', 'x'], [random, { deep: [random] }]];
}

/** `body` with the extra keys at the top and in each nested object (one level down, array items included); JSON text. */
function withExtraKeys(op: FuzzOp, body: unknown, pathId: string, random: string): string {
  const add = (o: Record<string, unknown>, top: boolean) => {
    // defineProperty: `__proto__` must be an own key of the JSON text, not the object's prototype.
    for (const [k, v] of extraKeys(op, pathId, random, top)) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  };
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  // A nested object gets them where its schema describes its keys (not a map such as `headers`, whose keys are the caller's).
  const described = (schema: Schema | undefined) => Boolean(schema?.properties && schema.additionalProperties === undefined);
  const copy = structuredClone(body);
  const top = (Array.isArray(copy) ? op.body!.items : op.body) as Schema | undefined;
  const tops = Array.isArray(copy) ? copy.filter(isObject) : isObject(copy) ? [copy] : [];
  for (const o of tops) {
    for (const [k, v] of Object.entries(o)) {
      const schema = top?.properties?.[k] as Schema | undefined;
      if (isObject(v) && described(schema)) add(v, false);
      else if (Array.isArray(v) && described(schema?.items as Schema | undefined)) for (const item of v) if (isObject(item)) add(item, false);
    }
    add(o, true);
  }
  return JSON.stringify(copy);
}

describe('valid bodies of every operation with extra keys (issue 27): never 5xx, ignored in the public API', () => {
  let emu: EmulatorServer;
  beforeAll(async () => {
    emu = await startServer({ validateResponses: false, webhooks: 'record' });
  });
  afterAll(async () => {
    await emu?.close();
  });

  const s = fuzzSettings('fuzz-extra-keys', { quickRuns: 2, fullRuns: 20 });
  const withBody = OPERATIONS.filter((o) => o.body && o.method !== 'GET' && o.method !== 'DELETE');
  it(`${withBody.length} operations, ${s.runs + 1} valid bodies each, sent without and with extra keys (seed ${s.seed})`, async () => {
    const figures = { requests: 0, '2xx': 0, '4xx': 0, 'same status': 0 };
    const failures: string[] = [];
    for (const [n, op] of withBody.entries()) {
      const drawn = fc.sample(arb(op.body!), { numRuns: s.runs, seed: s.seed + n });
      // First the smallest valid body (its required keys only: an update with nothing else reaches the handler's write).
      const required = new Set((op.body!.required ?? []) as string[]);
      const smallest = drawn[0] !== null && typeof drawn[0] === 'object' && !Array.isArray(drawn[0]) ? Object.fromEntries(Object.entries(drawn[0]).filter(([k]) => required.has(k))) : drawn[0];
      const bodies = [smallest, ...drawn];
      const randomNames = fc.sample(fc.stringMatching(/^[a-z][a-z0-9_]{2,11}$/), { numRuns: bodies.length, seed: s.seed + n });
      for (const [i, body] of bodies.entries()) {
        const ids: string[] = [];
        const target = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
          const id = ids.length === 0 ? (FIXTURE_BY_RESOURCE[op.path.split('/')[1]!] ?? FIXTURE_IDS[0]!) : name === 'segment_id' ? FIXTURE_BY_RESOURCE.segments! : FIXTURE_IDS[1]!;
          ids.push(id);
          return encodeURIComponent(id);
        });
        const pathId = ids[ids.length - 1] ?? FIXTURE_IDS[0]!;
        const answers = [];
        for (const text of [JSON.stringify(body), withExtraKeys(op, body, pathId, randomNames[i]!)]) {
          await emu.reset();
          const ans = await send(emu.url, op.method, target, { 'content-type': 'application/json' }, text);
          figures.requests++;
          if (ans.status < 300) figures['2xx']++;
          else if (ans.status < 500) figures['4xx']++;
          if (ans.status >= 500) failures.push(`5xx: [${op.source}] ${op.method} ${target} ${text.slice(0, 300)} → ${ans.status} ${ans.text.slice(0, 200)}`);
          answers.push(ans);
        }
        const [plain, extra] = answers as unknown as [{ status: number; text: string }, { status: number; text: string }];
        if (plain.status === extra.status) figures['same status']++;
        else if (!op.path.startsWith('/_emulator')) {
          failures.push(`extra keys changed the answer: [${op.source}] ${op.method} ${target} ${plain.status} ${plain.text.slice(0, 150)} → ${extra.status} ${extra.text.slice(0, 150)}`);
        }
      }
    }
    s.report(figures);
    expect(failures.slice(0, 10)).toEqual([]);
    expect(figures['2xx']).toBeGreaterThan(0);
  }, s.testTimeoutMs);
});

// ---------------------------------------------------------------- the fuzz run
describe('fuzzing from the OpenAPI documents: never 5xx, errors in the service shape, no change by a 4xx', () => {
  let emu: EmulatorServer;
  beforeAll(async () => {
    emu = await startServer({ validateResponses: false, webhooks: 'record', fixtures: 'demo' });
  });
  afterAll(async () => {
    await emu?.close();
  });

  const s = fuzzSettings('fuzz', { quickRuns: 300, fullRuns: 5_000, quickTimeMs: 20_000 });
  it(`generated and mutated requests (${ours.length} + ${real.length} operations, ${s.runs} sequences of ${REQUESTS_PER_RUN}, seed ${s.seed})`, async () => {
    const figures = { sequences: 0, requests: 0, '2xx': 0, '4xx': 0, failures: 0 };
    const fromReal = { requests: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(requestArb, { minLength: 1, maxLength: REQUESTS_PER_RUN }), async (reqs) => {
        await emu.reset();
        // Warm up (sets the key's last_used_at) so the store compares only what each request does.
        await send(emu.url, 'GET', '/domains');
        figures.sequences++;
        for (const r of reqs) {
          const before = storeState(emu);
          const full = r.query ? `${r.path}?${r.query}` : r.path;
          const ans = await send(emu.url, r.op.method, full, r.body !== undefined ? { 'content-type': r.contentType } : {}, r.body);
          figures.requests++;
          if (r.op.source === 'real') fromReal.requests++;
          const what = `[${r.op.source}] ${r.op.method} ${full.slice(0, 200)} (${r.mutation}) → ${ans.status} ${ans.text.slice(0, 200)}`;
          const fail = (why: string) => {
            figures.failures++;
            throw new Error(`${why}: ${what}`);
          };
          if (ans.status >= 500) fail('5xx');
          if (ans.status < 300) figures['2xx']++;
          if (ans.status >= 400) {
            figures['4xx']++;
            if (/^application\/json/.test(ans.contentType)) {
              let body: any;
              try { body = JSON.parse(ans.text); } catch { body = undefined; }
              if (!body || JSON.stringify(Object.keys(body)) !== '["statusCode","message","name"]') fail('error not in {statusCode, message, name}');
              if (body.statusCode !== ans.status || typeof body.message !== 'string' || !body.message || typeof body.name !== 'string') fail('wrong error shape');
            } else if (r.op.json || r.op.source === 'real') {
              fail(`error not JSON (${ans.contentType})`);
            }
            const changed = diffState(before, storeState(emu));
            if (changed.length) fail(`4xx changed the store (${changed.join('; ')})`);
          }
          // The clock moved: the key's last_used_at will move with the next request whatever it is; warm up again.
          if (r.op.path.startsWith('/_emulator/clock')) await send(emu.url, 'GET', '/domains');
        }
        // Jobs that accepted requests scheduled must run without crashing.
        await emu.clock.advance('2h');
        const crashed = storeOf(emu).prepare(`SELECT type, error FROM jobs WHERE status = 'failed'`).all() as { type: string; error: string }[];
        if (crashed.length) {
          figures.failures++;
          throw new Error(`job ${crashed[0]!.type} crashed: ${crashed[0]!.error.split('\n')[0]} after ${reqs.map((r) => `${r.op.method} ${r.path}`).join(', ')}`);
        }
      }),
      { numRuns: s.runs, seed: s.seed, interruptAfterTimeLimit: s.timeLimitMs },
    );
    s.report({ ...figures, 'requests from the real document': fromReal.requests });
    expect(figures.requests).toBeGreaterThan(0);
    expect(figures.failures).toBe(0);
  }, s.testTimeoutMs);
});
