/**
 * Fixtures: the JSON a fresh or reset store is seeded from, keyed by module
 * name; each module's `seed` reads its own part (see `src/state/reset.ts`).
 *
 * Two sets are bundled (docs/fixtures.md "Two bundled sets"):
 * - `default` (`fixtures/default.json`): an account as a team has set it
 *   up (teams, keys, domains, contacts, segments, topics, templates,
 *   events, automations, a draft broadcast, an inbox) and no activity: no
 *   sent or received email, no delivery, no run, no sent broadcast. What
 *   `startServer()`, `createApp()`, the test entries and `emulator start`
 *   seed unless told otherwise, so nothing seeded can satisfy a test's
 *   assertion on what happened (a test that sent nothing must not pass on seeded mail).
 * - `demo` (`fixtures/demo.json`): the same account with some history
 *   (three sent emails, a sent broadcast, an inbox thread), to look around
 *   the dashboard (`emulator start --fixtures demo`).
 * Any other value is the path of a fixtures file of one's own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { specDir } from '../http/spec.js';

/** Names of the bundled fixture sets (`fixtures/<name>.json`), usable wherever a fixtures file is. */
export const FIXTURE_SETS = ['default', 'demo'] as const;

/** A bundled fixture set's name. */
export type FixtureSetName = (typeof FIXTURE_SETS)[number];

/** Path of the bundled fixture set `name` (`fixtures/<name>.json` in the package). */
export function fixtureSetPath(name: FixtureSetName): string {
  return path.join(path.dirname(specDir()), 'fixtures', `${name}.json`);
}

/** Path of the bundled default fixtures (`fixtures/default.json`: set up, no activity). */
export function defaultFixturesPath(): string {
  return fixtureSetPath('default');
}

/**
 * The file `fixtures` names: a bundled set's file for `default` or `demo`
 * (exactly those words: `./demo` is a file of that name), else `fixtures`
 * itself, a path.
 */
export function resolveFixtures(fixtures: string): string {
  return (FIXTURE_SETS as readonly string[]).includes(fixtures) ? fixtureSetPath(fixtures as FixtureSetName) : fixtures;
}

/**
 * Reads a fixtures file, or a bundled set by name (`resolveFixtures`).
 * Throws a plain Error naming the file if it is missing or not JSON.
 */
export function loadFixtures(fixtures: string): Record<string, any> {
  const file = resolveFixtures(fixtures);
  const set = FIXTURE_SETS.find((name) => fixtureSetPath(name) === file);
  if (set) return bundledSet(set);
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read fixtures ${file}: ${(err as Error).message}`);
  }
}

/** The bundled sets as read, by name: read once per process and frozen (seeding only reads them), so an emulator started for every test keeps no copy of its own. */
const bundledSets = new Map<FixtureSetName, Record<string, any>>();

/** A bundled set, read and deep-frozen on first use (`loadFixtures`). */
function bundledSet(name: FixtureSetName): Record<string, any> {
  const known = bundledSets.get(name);
  if (known) return known;
  const file = fixtureSetPath(name);
  let set: Record<string, any>;
  try {
    set = deepFreeze(JSON.parse(fs.readFileSync(file, 'utf8')));
  } catch (err) {
    throw new Error(`cannot read fixtures ${file}: ${(err as Error).message}`);
  }
  bundledSets.set(name, set);
  return set;
}

/** Freezes a parsed JSON value and everything in it; returns it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
