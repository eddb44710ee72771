/**
 * Fault rules as data (src/faults/rules.ts, prng.ts): naming operations,
 * defaults, and the seeded generator.
 */
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/http/spec.js';
import { compileOperation } from '../../src/http/validate.js';
import { normalizeRule, OperationIndex, SMTP_CODES } from '../../src/faults/rules.js';
import { checkFaultInputs } from '../../src/faults/store.js';
import { mulberry32 } from '../../src/faults/prng.js';

const { operations } = await loadSpec();
const ops = new OperationIndex(operations);
const validate = compileOperation(operations.find((o) => o.operationId === 'admin/create-fault')!).body!;
const rule = (input: unknown, rateLimit = 0) => normalizeRule(input, validate, ops, rateLimit);

describe('fault rules', () => {
  it('names every public operation by operationId and by METHOD /path (parameter names, case of the method and a trailing slash do not matter)', () => {
    const publicOps = operations.filter((o) => !o.path.startsWith('/_emulator'));
    expect(publicOps.length).toBeGreaterThan(80);
    for (const op of publicOps) {
      expect(ops.resolve(op.operationId)).toBe(op);
      expect(ops.resolve(`${op.method} ${op.path}`)).toBe(op);
    }
    expect(ops.resolve('get /emails/{x}/').operationId).toBe('emails/get');
    expect(ops.resolve('  DELETE /domains/{id}  ').operationId).toBe('domains/remove');
    expect(() => ops.resolve('admin/health')).toThrow(/admin API/);
    expect(() => ops.resolve('GET /emails/{a}/{b}/{c}')).toThrow(/Unknown `operation`/);
  });

  it('fills in the defaults of each kind', () => {
    expect(rule({})).toMatchObject({ kind: 'api', status: 500, name: 'application_error', latency_ms: 0, probability: 1, seed: 0, times: null });
    expect(rule({ status: 404 })).toMatchObject({ name: 'not_found', message: 'The requested endpoint does not exist.' });
    expect(rule({ status: 429 }, 5).message).toBe('Too many requests. You can only make 5 requests per second. See rate limit response headers for more information.');
    expect(rule({ name: 'invalid_api_key' })).toMatchObject({ status: 403, message: 'API key is invalid' });
    expect(rule({ latency_ms: 20 })).toMatchObject({ status: null, name: null, message: null, latency_ms: 20 });
    expect(rule({ smtp: 'connect' })).toMatchObject({ kind: 'smtp', status: 421, message: SMTP_CODES[421], name: null });
    expect(rule({ smtp: 'auth' }).status).toBe(535);
    expect(rule({ smtp: 'rcpt' }).status).toBe(451);
    expect(rule({ smtp: 'data', latency_ms: 5 })).toMatchObject({ status: null, message: null });
    expect(rule({ outcome: 'failed' })).toMatchObject({ kind: 'outcome', reason: 'reached_daily_quota', status: null });
    expect(rule({ outcome: 'bounced', to: 'x@' })).toMatchObject({ reason: null, to: 'x@' });
  });

  it('checks a --faults list before start: an array of rules, each named by its position', async () => {
    await expect(checkFaultInputs([{ operation: 'emails/send' }, { smtp: 'mail', status: 551 }])).rejects.toThrow(/^rule 2: The `status` of an SMTP rule/);
    await expect(checkFaultInputs({ operation: 'emails/send' })).rejects.toThrow('not a JSON array of rules');
    await expect(checkFaultInputs([42])).rejects.toThrow('rule 1: A fault rule must be a JSON object.');
    await expect(checkFaultInputs([])).resolves.toBeUndefined();
  });

  it('mulberry32: the same seed gives the same draws in [0, 1), another seed others', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(Array.from({ length: 1000 }, () => b())).toEqual(xs);
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.45);
    expect(mean).toBeLessThan(0.55);
    expect(mulberry32(43)()).not.toBe(xs[0]);
  });
});
