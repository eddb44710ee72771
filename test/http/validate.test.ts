/**
 * The one rule for body keys the document does not declare (issue 27,
 * `pruneBody` in src/http/validate.ts): dropped in the validation step,
 * before the schema check and the handler, in every operation; kept (and
 * refused by the schema) only where the document closes the object.
 */
import { describe, expect, it } from 'vitest';
import { pruneBody } from '../../src/http/validate.js';
import { loadSpec, type Schema } from '../../src/http/spec.js';
import { useFreshEmulatorPerTest } from '../helpers.js';

const BODY: Schema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    when: { type: 'string', 'x-absent-values': [''] },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    items: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } },
    either: { oneOf: [{ type: 'object', properties: { a: { type: 'string' } } }, { type: 'object', properties: { b: { type: 'string' } } }] },
    closed: { type: 'object', additionalProperties: false, properties: { x: { type: 'string' } } },
    free: { type: 'object' },
  },
};

describe('pruneBody', () => {
  it('drops undeclared keys at every level the document describes key by key, prototype names included', () => {
    const body = JSON.parse('{"name":"n","id":"1","constructor":"x","__proto__":{"p":1},"toString":"x","items":[{"id":"i","extra":1}],"either":{"a":"1","b":"2","c":"3"}}');
    expect(pruneBody(body, [BODY])).toEqual({ name: 'n', items: [{ id: 'i' }], either: { a: '1', b: '2' } });
    expect(({} as any).p).toBeUndefined();
  });

  it('keeps every key of a map, of a schema without properties and of a closed object (whose schema refuses the stranger)', () => {
    const body = JSON.parse('{"headers":{"X-A":"1","__proto__":"2","constructor":"3"},"free":{"k":1},"closed":{"x":"1","y":"2"}}');
    const out = pruneBody(body, [BODY]) as any;
    expect(out).toBe(body);
    expect(Object.keys(out.headers)).toEqual(['X-A', '__proto__', 'constructor']);
    expect(Object.getPrototypeOf(out.headers)).toBe(Object.prototype);
  });

  it('drops a declared key whose value its x-absent-values lists, only that value', () => {
    expect(pruneBody({ name: 'n', when: '' }, [BODY])).toEqual({ name: 'n' });
    expect(pruneBody({ name: 'n', when: 'in 1 min' }, [BODY])).toEqual({ name: 'n', when: 'in 1 min' });
  });

  it('returns the same object when nothing is dropped and never mutates its argument', () => {
    const body = { name: 'n', items: [{ id: 'i' }] };
    expect(pruneBody(body, [BODY])).toBe(body);
    const extra = { name: 'n', id: 'x', items: [{ id: 'i', more: 1 }] };
    const copy = structuredClone(extra);
    expect(pruneBody(extra, [BODY])).not.toBe(extra);
    expect(extra).toEqual(copy);
  });

  it('no operation of the public API closes its request body: every undeclared key is ignored there', async () => {
    const { operations } = await loadSpec();
    const closed: string[] = [];
    const walk = (s: Schema | undefined, where: string, seen: Set<Schema>) => {
      if (!s || typeof s !== 'object' || seen.has(s)) return;
      seen.add(s);
      if (s.additionalProperties === false) closed.push(where);
      for (const [k, p] of Object.entries(s.properties ?? {})) walk(p, `${where}.${k}`, seen);
      for (const m of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) walk(m, where, seen);
      if (s.items && typeof s.items === 'object') walk(s.items, `${where}[]`, seen);
    };
    for (const op of operations) if (op.body && !op.path.startsWith('/_emulator')) walk(op.body.schema, op.operationId, new Set());
    // Only the Node Buffer form of an attachment's content is a closed object: `{"type":"Buffer","data":[...]}` exactly.
    expect(closed.filter((w) => !/attachments\[\]\.content$/.test(w))).toEqual([]);
  });
});

/** A body with one field of each kind the absent-values rule tells apart (issue 37). */
const ABSENT: Schema = {
  type: 'object',
  required: ['to', 'name'],
  properties: {
    to: { type: ['string', 'array'], items: { type: 'string' } },
    name: { type: 'string' },
    subject: { type: 'string' },
    cc: { type: ['string', 'array'], items: { type: 'string' } },
    tags: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, note: { type: 'string' } } } },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    clears: { type: ['string', 'null'] },
    either: { oneOf: [{ type: 'string' }, { type: 'null' }] },
    email: { allOf: [{ type: 'string', format: 'email' }] },
    kept: { type: 'string', 'x-absent-values': [] },
    listed: { type: 'string', 'x-absent-values': [''] },
  },
};

describe('pruneBody: absent values, one rule from the schema (issue 37)', () => {
  const base = { to: 'a@example.com', name: 'n' };

  it('drops null on an optional field whose schema does not take null, however the schema is composed', () => {
    expect(pruneBody({ ...base, subject: null, cc: null, headers: null, email: null }, [ABSENT])).toEqual(base);
  });

  it('keeps null on a required field, for the schema check to refuse', () => {
    expect(pruneBody({ to: null, name: null }, [ABSENT])).toEqual({ to: null, name: null });
  });

  it('keeps null where the schema takes it (it clears or means none there)', () => {
    expect(pruneBody({ ...base, clears: null, either: null }, [ABSENT])).toEqual({ ...base, clears: null, either: null });
  });

  it('drops "" on an optional list field only, and keeps it on a required one or a plain string', () => {
    expect(pruneBody({ ...base, cc: '', tags: '' }, [ABSENT])).toEqual(base);
    expect(pruneBody({ to: '', name: 'n', subject: '' }, [ABSENT])).toEqual({ to: '', name: 'n', subject: '' });
  });

  it('drops [] on an optional map (PHP\'s empty array), and keeps [] on a list', () => {
    expect(pruneBody({ ...base, headers: [] }, [ABSENT])).toEqual(base);
    expect(pruneBody({ ...base, tags: [], cc: [] }, [ABSENT])).toEqual({ ...base, tags: [], cc: [] });
    expect(pruneBody({ ...base, headers: ['x'] }, [ABSENT])).toEqual({ ...base, headers: ['x'] });
  });

  it('applies inside arrays of objects too: an optional key of an item, not a required one', () => {
    expect(pruneBody({ ...base, tags: [{ name: 'a', note: null }, { name: null }] }, [ABSENT])).toEqual({ ...base, tags: [{ name: 'a' }, { name: null }] });
  });

  it('lets a node list its own values: `x-absent-values: []` opts out, a list replaces the derived one', () => {
    expect(pruneBody({ ...base, kept: null }, [ABSENT])).toEqual({ ...base, kept: null });
    expect(pruneBody({ ...base, listed: '' }, [ABSENT])).toEqual(base);
    expect(pruneBody({ ...base, listed: null }, [ABSENT])).toEqual({ ...base, listed: null });
  });
});

describe('the document\'s schemas', () => {
  // The validation step compiles them without checking them against the meta-schema (src/http/validate.ts
  // `makeAjv`: that check cost ~300 ms on a process's first request), so this is where a bad schema is caught.
  it('are valid JSON Schema 2020-12, every parameter, body, multipart JSON field and response', async () => {
    const { createRequire } = await import('node:module');
    const { Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    const ajv = new Ajv2020({ strict: false });
    const { operations } = await loadSpec();
    const bad: string[] = [];
    let checked = 0;
    const check = (schema: unknown, where: string) => {
      checked++;
      if (!ajv.validateSchema(schema as object)) bad.push(`${where}: ${ajv.errorsText(ajv.errors)}`);
    };
    for (const op of operations) {
      for (const p of op.parameters) check(p.schema, `${op.operationId} ${p.in} ${p.name}`);
      if (op.body) {
        check(op.body.schema, `${op.operationId} body`);
        for (const [k, p] of Object.entries(op.body.schema.properties ?? {})) {
          const field = (p as Record<string, unknown>)['x-json-schema'];
          if (field) check(field, `${op.operationId} body ${k} x-json-schema`);
        }
      }
      for (const [status, schema] of Object.entries(op.responses)) if (schema) check(schema, `${op.operationId} ${status}`);
    }
    expect(checked).toBeGreaterThan(operations.length);
    expect(bad).toEqual([]);
    // The check itself refuses a schema that is not one.
    expect(ajv.validateSchema({ type: 'strng' })).toBe(false);
  });
});

describe('the validation step', () => {
  const t = useFreshEmulatorPerTest();

  it('answers PATCH /broadcasts with any undeclared key as without it, and logs the body as sent', async () => {
    const seg = (await t.api.post('/segments').send({ name: 'S' })).body.id;
    const b = (await t.api.post('/broadcasts').send({ segment_id: seg, from: 'hello@example.com', subject: 'A', html: '<p>A</p>' })).body.id;
    const text = `{"constructor":"x","__proto__":{"admin":true},"toString":"y","hasOwnProperty":"z","valueOf":1,"broadcast_id":"${b}","subject":"B"}`;
    const res = await t.api.patch(`/broadcasts/${b}`).set('Content-Type', 'application/json').send(text);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.api.get(`/broadcasts/${b}`)).body.subject).toBe('B');
    const logs = (await t.api.get('/logs')).body.data;
    const patch = logs.find((l: any) => l.method === 'PATCH');
    const log = (await t.api.get(`/logs/${patch.id}`)).body;
    expect(log.request_body).toEqual(JSON.parse(text));
  });

  it('keeps refusing what the document refuses by name: `key` on PATCH /contact-properties, an undeclared admin field', async () => {
    const prop = (await t.api.post('/contact-properties').send({ key: 'plan', type: 'string' })).body.id;
    const res = await t.api.patch(`/contact-properties/${prop}`).send({ id: prop, type: 'number' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ statusCode: 422, name: 'validation_error', message: 'Only the `fallback_value` field of a contact property can be updated.' });
    const admin = await t.anon.post('/_emulator/faults').send({ nope: 1 });
    expect(admin.status).toBe(400);
    expect(admin.body.message).toMatch(/`nope` field is not allowed/);
  });
});
