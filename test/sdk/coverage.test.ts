/**
 * Keeps SDK coverage from regressing: runs the check of
 * `scripts/sdk-coverage.mjs` (also `npm run sdk:coverage`). Every method of
 * the official SDK that maps to an operation of spec/openapi.yaml must be
 * called by some test/sdk/*.test.ts; methods we do not serve are listed with
 * their reason. (The script as a command: test/scripts.test.ts, full tier.)
 */
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error plain ESM script without type declarations
import { checkSdkCoverage, sdkMethods } from '../../scripts/sdk-coverage.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('SDK coverage (scripts/sdk-coverage.mjs)', () => {
  it('every served SDK method is called by a test/sdk test', () => {
    const { problems, rows, summary } = checkSdkCoverage(root);
    expect(problems).toEqual([]);
    expect(summary.covered).toBe(summary.served);
    // Every method the SDK declares is served.
    const notServed = rows.filter((r: any) => r.status === 'not served');
    expect(notServed.map((r: any) => r.method)).toEqual([]);
  });

  it('finds the SDK classes reachable from class Resend, nested ones included', () => {
    const dts = [
      'declare class B {',
      '  private readonly resend;',
      '  constructor(resend: Resend);',
      '  list(options?: X): Promise<Y>;',
      '  private hidden;',
      '}',
      'declare class A {',
      '  private readonly resend;',
      '  readonly sub: B;',
      '  constructor(resend: Resend);',
      '  get(id: string): Promise<Z>;',
      '  send<Options extends O>(payload: P): Promise<Q>;',
      '}',
      'export declare class Resend {',
      '  readonly key?: string | undefined;',
      '  readonly a: A;',
      '  readonly alias: A;',
      '  post<T>(path: string): Promise<T>;',
      '}',
      '',
    ].join('\n');
    expect(sdkMethods(dts).map((m: any) => m.method).sort()).toEqual(['a.get', 'a.send', 'a.sub.list', 'alias.get', 'alias.send', 'alias.sub.list']);
  });
});
