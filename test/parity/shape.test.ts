import { describe, expect, it } from 'vitest';
import { compareShapes, shapeOf, stringKind } from '../../src/parity/shape.js';
import { compareAnswers, maskMessage } from '../../src/parity/compare.js';
import type { ReceivedResponse } from '../../src/parity/exchange.js';
import type { Schema } from '../../src/http/spec.js';

const answer = (status: number, json: unknown): ReceivedResponse => ({ status, statusText: '', headers: {}, body: JSON.stringify(json), json });

describe('the normaliser (src/parity/shape.ts)', () => {
  it.each([
    ['4f9d2b0e-5c1a-4a8e-9f3b-2d7c6e1a0b9c', 'string<uuid>'],
    ['2025-10-21 17:47:59.123456+00', 'string<time:sql>'],
    ['2025-10-21T17:47:59.123Z', 'string<time:iso>'],
    ['hello', 'string'],
  ])('reads %s as %s', (value, kind) => {
    expect(stringKind(value)).toBe(kind);
  });

  it('compares ids and times by format only', () => {
    const a = shapeOf({ id: '4f9d2b0e-5c1a-4a8e-9f3b-2d7c6e1a0b9c', created_at: '2025-10-21 17:47:59.1+00' });
    const b = shapeOf({ id: '0a1b2c3d-5c1a-4a8e-9f3b-2d7c6e1a0b9c', created_at: '2026-01-01 00:00:00.999999+00' });
    expect(compareShapes(a, b)).toEqual([]);
  });

  it('compares a string the schema declares an enum for by its value', () => {
    const schema: Schema = { type: 'object', properties: { status: { type: 'string', enum: ['sent', 'delivered'] } } };
    const diff = compareShapes(shapeOf({ status: 'sent' }, schema), shapeOf({ status: 'delivered' }, schema));
    expect(diff).toEqual([{ path: '$.status', upstream: ['enum:"sent"'], emulator: ['enum:"delivered"'] }]);
  });

  it('compares a string without an enum by type only', () => {
    expect(compareShapes(shapeOf({ name: 'a' }), shapeOf({ name: 'b' }))).toEqual([]);
  });

  it('compares a loose path by type only', () => {
    const schema: Schema = { type: 'object', properties: { last_event: { type: 'string', enum: ['queued', 'delivered'] } } };
    expect(compareShapes(shapeOf({ last_event: 'delivered' }, schema), shapeOf({ last_event: 'queued' }, schema), ['$.last_event'])).toEqual([]);
  });

  it('reports a key one side lacks', () => {
    expect(compareShapes(shapeOf({ a: 1, b: null }), shapeOf({ a: 1 }))).toEqual([{ path: '$.b', upstream: ['null'], emulator: [] }]);
  });

  it('reports a value of another type', () => {
    expect(compareShapes(shapeOf({ a: 1 }), shapeOf({ a: '1' }))).toEqual([{ path: '$.a', upstream: ['number'], emulator: ['string'] }]);
  });

  it('accepts list items whose kinds overlap (the data are the account’s)', () => {
    const a = shapeOf({ data: [{ last_used_at: null }, { last_used_at: '2025-10-21 17:47:59.1+00' }] });
    const b = shapeOf({ data: [{ last_used_at: null }] });
    expect(compareShapes(a, b)).toEqual([]);
  });

  it('compares nothing under the items of a list empty on one side', () => {
    expect(compareShapes(shapeOf({ data: [{ id: 'x' }] }), shapeOf({ data: [] }))).toEqual([]);
  });

  it('compares a map’s values, not its keys (they are data)', () => {
    const schema: Schema = { type: 'object', properties: { properties: { type: 'object', additionalProperties: { type: 'object', properties: { value: { type: 'string' } } } } } };
    expect(compareShapes(shapeOf({ properties: { company: { value: 'x' } } }, schema), shapeOf({ properties: { country: { value: 'y' } } }, schema))).toEqual([]);
  });

  it('reports a map’s values of another shape', () => {
    const schema: Schema = { type: 'object', properties: { properties: { type: 'object', additionalProperties: { type: 'object' } } } };
    expect(compareShapes(shapeOf({ properties: { a: { value: 'x' } } }, schema), shapeOf({ properties: { b: { value: 1 } } }, schema))).toEqual([{ path: '$.properties{}.value', upstream: ['string'], emulator: ['number'] }]);
  });

  it('reports a key list items lack on one side', () => {
    expect(compareShapes(shapeOf({ data: [{ id: 'x', name: 'n' }] }), shapeOf({ data: [{ id: 'y' }] }))).toEqual([{ path: '$.data[].name', upstream: ['string'], emulator: [] }]);
  });
});

describe('comparing two answers (src/parity/compare.ts)', () => {
  it('masks ids in messages', () => {
    expect(maskMessage('Email 4f9d2b0e-5c1a-4a8e-9f3b-2d7c6e1a0b9c not found')).toBe('Email <id> not found');
  });

  it('reports status, name and message of differing errors', async () => {
    const diff = await compareAnswers('GET', '/domains/x', answer(404, { statusCode: 404, message: 'Domain not found', name: 'not_found' }), answer(422, { statusCode: 422, message: 'Bad id', name: 'validation_error' }));
    expect(diff).toEqual(['status 404 / 422', 'name not_found / validation_error', 'message "Domain not found" / "Bad id"']);
  });

  it('reads no error name from a success body', async () => {
    const diff = await compareAnswers('GET', '/topics/x', answer(200, { object: 'topic', name: 'mine' }), answer(503, { statusCode: 503, message: 'down', name: 'service_unavailable' }));
    expect(diff).toEqual(['status 200 / 503', 'name - / service_unavailable', 'message null / "down"']);
  });

  it('reads enums from the operation’s response schema in spec/openapi.yaml', async () => {
    const email = (last_event: string) => answer(200, { object: 'email', id: '4f9d2b0e-5c1a-4a8e-9f3b-2d7c6e1a0b9c', last_event });
    const diff = await compareAnswers('GET', '/emails/4f9d2b0e-5c1a-4a8e-9f3b-2d7c6e1a0b9c', email('delivered'), email('bounced'));
    expect(diff).toEqual(['$.last_event: upstream enum:"delivered", emulator enum:"bounced"']);
  });
});

describe('an error named differently with the same status', () => {
  it('is one name line, not a shape line too', async () => {
    const diff = await compareAnswers('GET', '/domains', answer(403, { statusCode: 403, message: 'API key is invalid', name: 'invalid_api_key' }), answer(403, { statusCode: 403, message: 'API key is invalid', name: 'restricted_api_key' }));
    expect(diff).toEqual(['name invalid_api_key / restricted_api_key']);
  });
});
