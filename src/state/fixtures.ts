/**
 * Fixtures: the JSON a fresh or reset store is seeded from (default
 * `fixtures/default.json`), keyed by module name; each module's `seed` reads
 * its own part (see `src/state/reset.ts`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { specDir } from '../http/spec.js';

/** Path of the bundled default fixtures. */
export function defaultFixturesPath(): string {
  return path.join(path.dirname(specDir()), 'fixtures', 'default.json');
}

/** Reads a fixtures file. Throws a plain Error naming the file if it is missing or not JSON. */
export function loadFixtures(file: string): Record<string, any> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read fixtures ${file}: ${(err as Error).message}`);
  }
}
