/**
 * Every operation of the document has a handler (a route without a handler
 * would answer 501), and every relative link of the docs resolves. (That
 * docs/endpoints.md's endpoint table matches spec/openapi.yaml runs the
 * script, a child process: test/scripts.test.ts, full tier.)
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSpec } from '../src/http/spec.js';
import { compileOperation } from '../src/http/validate.js';
import { modules } from '../src/modules.js';
import { anchorsIn } from './markdown-anchors.js';

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
});

describe('README and docs/ links', () => {
  const mdIn = (dir: string) => fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.md')).map((f) => `${dir}/${f}`);
  const pages = ['README.md', 'CONTRIBUTING.md', ...mdIn('docs'), ...mdIn('docs/reference')];
  it.each(pages)('every relative link of %s resolves, anchors included', (page) => {
    const text = fs.readFileSync(path.join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split('#');
      const resolved = file ? path.resolve(path.dirname(path.join(root, page)), file) : path.join(root, page);
      if (!fs.existsSync(resolved)) { broken.push(target); continue; }
      if (anchor && resolved.endsWith('.md') && !anchorsIn(fs.readFileSync(resolved, 'utf8')).has(anchor)) broken.push(target);
    }
    expect(broken).toEqual([]);
  });
});
