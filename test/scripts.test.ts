/**
 * The repository's scripts as commands (child processes, so the full tier:
 * vitest.config.ts): `scripts/endpoint-table.mjs --check` (docs/endpoints.md's
 * endpoint table matches spec/openapi.yaml) and `scripts/sdk-coverage.mjs`
 * (`npm run sdk:coverage`; its checks in-process are test/sdk/coverage.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

describe('scripts/ as commands', () => {
  it("docs/endpoints.md's endpoint table is up to date (npm run docs:endpoints)", () => {
    expect(() => execFileSync(process.execPath, [path.join(root, 'scripts', 'endpoint-table.mjs'), '--check'], { cwd: root, stdio: 'pipe' })).not.toThrow();
  });

  it('scripts/sdk-coverage.mjs exits 0 and prints the summary', () => {
    const out = execFileSync(process.execPath, [path.join(root, 'scripts', 'sdk-coverage.mjs')], { cwd: root, encoding: 'utf8' });
    expect(out).toMatch(/resend@\d+\.\d+\.\d+: \d+ methods/);
    expect(out).toMatch(/^covered\s+usage\.get\s+GET \/usage \(usage\/get\)/m);
    expect(out).toMatch(/^covered\s+inboxes\.create\s/m);
    expect(out).toMatch(/0 not served/);
  });
});
