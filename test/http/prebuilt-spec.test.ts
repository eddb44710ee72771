import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadSpec } from '../../src/http/spec.js';

/** The build's dist/openapi.json (written by scripts/build-spec.mjs in the global setup). */
const root = path.resolve(import.meta.dirname, '..', '..');

describe('the document dereferenced at build time', () => {
  it('dist/ reads dist/openapi.json, and it yields the same operations as the YAML of spec/', async () => {
    const json = path.join(root, 'dist', 'openapi.json');
    expect(fs.existsSync(json)).toBe(true);
    const compiled = (await import(pathToFileURL(path.join(root, 'dist', 'src', 'http', 'spec.js')).href)) as typeof import('../../src/http/spec.js');
    expect(compiled.prebuiltSpecFile()).toBe(json);
    const fromYaml = await loadSpec();
    const fromJson = await compiled.loadSpec();
    expect(fromJson.operations.length).toBeGreaterThan(80);
    expect(JSON.parse(JSON.stringify(fromJson.operations))).toEqual(JSON.parse(JSON.stringify(fromYaml.operations)));
  });

  it('from src/ (tests, development) there is no prebuilt file, so edits of spec/ apply at once', async () => {
    const { prebuiltSpecFile } = await import('../../src/http/spec.js');
    expect(fs.existsSync(prebuiltSpecFile())).toBe(false);
  });
});
