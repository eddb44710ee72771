/**
 * The README's endpoint table matches spec/openapi.yaml, and every operation
 * of the document has a handler (a route without a handler would answer 501).
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../src/http/spec.js';
import { compileOperation } from '../src/http/validate.js';
import { modules } from '../src/modules.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('documentation and coverage of the spec', () => {
  it('every operation in spec/openapi.yaml has exactly one handler', async () => {
    const { operations } = await loadSpec();
    const handled = modules.flatMap((m) => Object.keys(m.operations ?? {}));
    expect(new Set(handled).size).toBe(handled.length);
    const missing = operations.map((o) => o.operationId).filter((id) => !handled.includes(id));
    expect(missing).toEqual([]);
  });

  it('every operation compiles: parameters, body and response schemas are valid JSON Schema', async () => {
    const { operations } = await loadSpec();
    for (const op of operations) {
      expect(() => compileOperation(op), op.operationId).not.toThrow();
      for (const status of Object.keys(op.responses)) expect(compileOperation(op).response(status), `${op.operationId} ${status}`).not.toBeNull();
    }
  });

  it("README's endpoint table is up to date (npm run docs:endpoints)", () => {
    expect(() => execFileSync(process.execPath, [path.join(root, 'scripts', 'endpoint-table.mjs'), '--check'], { cwd: root, stdio: 'pipe' })).not.toThrow();
  });
});
