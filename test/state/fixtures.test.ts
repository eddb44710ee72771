/**
 * The bundled fixture sets (src/state/fixtures.ts, docs/fixtures.md):
 * `default` is an account as a team sets it up, with no activity, so
 * nothing seeded satisfies a test's assertion on what happened (issue 28);
 * `demo` is the same account with some history. A set is named wherever a
 * fixtures file is; any other value is a path.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp, startServer } from '../../src/index.js';
import { defaultFixturesPath, fixtureSetPath, loadFixtures, resolveFixtures } from '../../src/state/fixtures.js';

const byId = (rows: any[]) => new Map(rows.map((r) => [r.id, r]));

describe('the bundled fixture sets', () => {
  const def = loadFixtures('default');
  const demo = loadFixtures('demo');

  it('default holds what a team sets up and no activity: no sent email, no sent broadcast, no inbox mail', () => {
    expect(def.emails).toEqual([]);
    expect(def.broadcasts.map((b: any) => b.status)).toEqual(['draft']);
    for (const inbox of def.inboxes) expect(inbox.threads ?? []).toEqual([]);
    expect(def.webhooks).toEqual([]);
    // What a team sets up is all there.
    for (const section of ['teams', 'api_keys', 'domains', 'contact_properties', 'topics', 'segments', 'contacts', 'templates', 'events', 'automations', 'inboxes', 'oauth_grants']) {
      expect(def[section].length, section).toBeGreaterThan(0);
    }
  });

  it('demo is default plus history: every default row as it is, and only sent emails, sent broadcasts and inbox threads besides', () => {
    expect(Object.keys(demo).sort()).toEqual(Object.keys(def).sort());
    for (const [section, rows] of Object.entries(def) as [string, any[]][]) {
      const theirs = byId(demo[section]);
      for (const row of rows) {
        const other = theirs.get(row.id);
        expect(other, `${section} ${row.id}`).toBeDefined();
        // An inbox differs only by its threads.
        expect(section === 'inboxes' ? { ...other, threads: undefined } : other, `${section} ${row.id}`).toEqual(section === 'inboxes' ? { ...row, threads: undefined } : row);
      }
      const extra = demo[section].filter((r: any) => !byId(rows).has(r.id));
      if (section === 'emails') expect(extra).toHaveLength(3);
      else if (section === 'broadcasts') expect(extra.map((b: any) => b.status)).toEqual(['sent']);
      else expect(extra, section).toEqual([]);
    }
    expect(demo.inboxes.flatMap((i: any) => i.threads ?? []).map((t: any) => t.subject)).toEqual(['Where is my order?']);
  });

  it('a set is named by its name alone; anything else is a path', () => {
    expect(resolveFixtures('default')).toBe(defaultFixturesPath());
    expect(resolveFixtures('demo')).toBe(fixtureSetPath('demo'));
    expect(path.basename(fixtureSetPath('demo'))).toBe('demo.json');
    expect(resolveFixtures('./demo')).toBe('./demo');
    expect(resolveFixtures('fixtures/demo.json')).toBe('fixtures/demo.json');
    expect(() => loadFixtures('./no-such-set')).toThrow('cannot read fixtures ./no-such-set: ENOENT');
  });

  it('startServer() and createApp() seed the default set; { fixtures: "demo" } the demo set, and reset() keeps to it', async () => {
    const plain = await createApp();
    try {
      expect(plain.emails()).toEqual([]);
      expect(plain.inboxThreads()).toEqual([]);
    } finally {
      await plain.close();
    }
    const emu = await startServer({ fixtures: 'demo' });
    try {
      expect(emu.emails()).toHaveLength(3);
      await emu.reset();
      expect(emu.emails().map((e) => e.subject)).toEqual(["What's new in January", 'Your invoice for December', 'Welcome to Acme']);
      expect(emu.inboxThreads()).toHaveLength(1);
    } finally {
      await emu.close();
    }
  });

  it('a file of your own is read as before (a path, even one named like a set in another folder)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emu-fixtures-'));
    try {
      const file = path.join(dir, 'demo');
      const def = loadFixtures('default');
      fs.writeFileSync(file, JSON.stringify({ ...def, api_keys: def.api_keys.map((k: any) => (k.default ? { ...k, token: 're_mine' } : k)) }));
      const app = await createApp({ fixtures: file });
      try {
        expect(app.apiKey).toBe('re_mine');
      } finally {
        await app.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a bundled set is read once a process and frozen through, by its name or its path: every emulator seeds from the same copy and none can change it', async () => {
    const def = loadFixtures('default');
    expect(loadFixtures(defaultFixturesPath())).toBe(def);
    expect(loadFixtures('demo')).toBe(loadFixtures(fixtureSetPath('demo')));
    const frozenThrough = (v: unknown): boolean => v === null || typeof v !== 'object' || (Object.isFrozen(v) && Object.values(v).every(frozenThrough));
    expect(frozenThrough(def)).toBe(true);
    expect(() => {
      def.api_keys[0].token = 're_changed';
    }).toThrow(TypeError);
    // Seeding, resetting and a second emulator leave the shared set as it was.
    const before = JSON.stringify(def);
    const a = await createApp();
    const b = await createApp();
    try {
      await a.reset();
      expect(b.apiKey).toBe(a.apiKey);
    } finally {
      await a.close();
      await b.close();
    }
    expect(JSON.stringify(loadFixtures('default'))).toBe(before);
  });
});
