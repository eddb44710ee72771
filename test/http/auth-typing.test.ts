/**
 * Auth typed from the document (src/http/document-types.ts `AuthOf`): a
 * handler of an operation whose document requires a key gets `req.auth` as
 * `Auth`, one of an operation with `security: []` gets `null`. The types
 * rest on two facts held here: the document's keyless operations are
 * exactly those under `admin/` (`KeylessOperation`: openapi-typescript
 * emits no `security`), and at run time no call of a keyed operation
 * reaches its handler without a caller (the pipeline's first step,
 * `authenticateCaller`). The compile-time half is in document-types.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/http/spec.js';
import { useFreshEmulatorPerTest } from '../helpers.js';

describe('auth typed from the document', () => {
  it('the operations without a key are exactly the admin/ ones (the rule KeylessOperation names)', async () => {
    const { operations } = await loadSpec();
    expect(operations.length).toBeGreaterThan(150);
    const misnamed = operations.filter((o) => o.requiresAuth === o.operationId.startsWith('admin/')).map((o) => o.operationId);
    expect(misnamed).toEqual([]);
  });

  describe('at run time', () => {
    const t = useFreshEmulatorPerTest();

    it('every operation that needs a key refuses a call without one (401) before its handler runs', async () => {
      const { operations } = await loadSpec();
      const keyed = operations.filter((o) => o.requiresAuth);
      const answers = new Map<string, string>();
      for (const op of keyed) {
        // Path parameters that name nothing: a handler reached would answer 404 or 422, not 401.
        const url = op.path.replace(/\{[^}]+\}/g, 'nothing');
        const method = op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
        const res = await t.anon[method](url);
        answers.set(op.operationId, `${res.status} ${res.body?.name}`);
      }
      expect(keyed.length).toBeGreaterThan(100);
      expect([...answers].filter(([, a]) => a !== '401 missing_api_key')).toEqual([]);
    });
  });
});
