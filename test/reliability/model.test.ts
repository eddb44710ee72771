/**
 * Model-based state tests (issue 13, "Build"): fast-check generates random
 * sequences of create / update / delete / get / list-with-cursors over
 * contacts, segments, topics, contact-segment membership and API keys, made
 * by two teams at once, and checks every answer step by step against a plain
 * in-memory model of what the service should hold:
 * - lists newest first (insertion order: the emulator orders by `seq`, so
 *   items created in the same emulated millisecond keep their creation order,
 *   src/http/pagination.ts), `after` / `before` exclusive, `has_more` exact,
 *   `limit` omitted → all items (contacts, segments, API keys) or 20 (topics),
 *   an unknown cursor (deleted, another team's) → 422 (docs/reference/formats.md);
 * - another team's id → 404, as does a deleted one (except DELETE
 *   /segments/{id}: `deleted: true` for any id, nothing changed, as recorded
 *   from the service);
 * - a contact created again with the same email (any case) is the same
 *   contact, fields unchanged, segments added (docs/reference/resources.md#contact-properties);
 * - deleting a contact or a segment removes its memberships.
 * Seeded (`FUZZ_SEED`) and shrinking: a failure prints the shortest sequence
 * that breaks and the seed/path to replay it. `npm test` runs a fast slice;
 * `npm run fuzz` (FUZZ=full) runs 3 000 sequences (`FUZZ_RUNS` overrides).
 * One server for the file; `emu.reset()` before each sequence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startServer, type EmulatorServer } from '../../src/index.js';
import { client, FIXTURES } from '../helpers.js';
import { fuzzSettings } from './settings.js';

type Api = ReturnType<typeof client>;
interface Real {
  api: [Api, Api];
}

interface MContact { id: string; email: string; first_name: string | null; unsubscribed: boolean }
interface MTopic { id: string; name: string; description: string | null; default_subscription: string }
interface MTeam {
  contacts: MContact[];
  segments: { id: string; name: string }[];
  topics: MTopic[];
  keys: { id: string; name: string }[];
  /** Memberships in insertion order. */
  members: { contact_id: string; segment_id: string }[];
}
interface Model {
  teams: [MTeam, MTeam];
  /** Every id seen per kind (both teams, deleted ones too), for picking targets. */
  known: Record<Kind, string[]>;
  counter: number;
  /** The fixtures' API keys per team (listed, never deleted). */
  fixtureKeys: [{ id: string }[], { id: string }[]];
}
type Kind = 'contacts' | 'segments' | 'topics' | 'keys';

const UNKNOWN_ID = '6f0c3b1e-2d4a-4b5c-8d6e-7f8091a2b3c4';
const LOCALS = ['ada', 'bob', 'cy', 'dee', 'eve', 'fay'];
const newestFirst = <T>(xs: T[]) => [...xs].reverse();

function pick(m: Model, kind: Kind, n: number): string {
  const pool = [...m.known[kind], UNKNOWN_ID];
  return pool[n % pool.length]!;
}
const byId = <T extends { id: string }>(xs: T[], id: string) => xs.find((x) => x.id === id);

/** Expected page of a newest-first list (pagination.ts semantics). */
function page<T extends { id: string }>(all: T[], q: { limit?: number; after?: string; before?: string }, defaultLimit: number | null): { status: 200; data: T[]; has_more: boolean } | { status: 422 } {
  const list = newestFirst(all);
  const limit = q.limit ?? defaultLimit;
  const cursor = q.after ?? q.before;
  if (cursor !== undefined && !byId(list, cursor)) return { status: 422 };
  if (q.before !== undefined) {
    const i = list.findIndex((x) => x.id === q.before);
    const newer = list.slice(0, i);
    const take = limit === null ? newer : newer.slice(Math.max(0, newer.length - limit));
    return { status: 200, data: take, has_more: limit !== null && newer.length > limit };
  }
  const i = q.after !== undefined ? list.findIndex((x) => x.id === q.after) + 1 : 0;
  const older = list.slice(i);
  return { status: 200, data: limit === null ? older : older.slice(0, limit), has_more: limit !== null && older.length > limit };
}

function expectStatus(res: { status: number; body: any }, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  if (status >= 400) expect(Object.keys(res.body)).toEqual(['statusCode', 'message', 'name']);
}

/** A command: `label` for the printed counterexample, `run` checks and updates the model. */
function cmd(label: string, run: (m: Model, r: Real) => Promise<void>): fc.AsyncCommand<Model, Real> {
  return { check: () => true, run, toString: () => label };
}

const team = fc.constantFrom(0 as const, 1 as const);
const target = fc.nat(40);
const limitArb = fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined });
const cursorKind = fc.constantFrom('none', 'after', 'before');
const name = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim().length > 0);

const commands = [
  // ---- contacts
  fc.record({ t: team, local: fc.nat(LOCALS.length - 1), upper: fc.boolean(), first: fc.option(name, { nil: null }), unsub: fc.boolean(), seg: fc.option(target, { nil: undefined }) }).map(({ t, local, upper, first, unsub, seg }) =>
    cmd(`createContact(t${t}, ${LOCALS[local]}${upper ? '↑' : ''}, seg=${seg})`, async (m, r) => {
      const email = `${upper ? LOCALS[local]!.toUpperCase() : LOCALS[local]}@model.test`;
      const segId = seg === undefined ? undefined : pick(m, 'segments', seg);
      const body: Record<string, unknown> = { email, first_name: first, unsubscribed: unsub };
      if (segId) body.segments = [{ id: segId }];
      const res = await r.api[t].post('/contacts').send(body);
      const T = m.teams[t];
      if (segId && !byId(T.segments, segId)) return expectStatus(res, 404, 'create contact with another team\'s segment');
      expectStatus(res, 201, 'create contact');
      const existing = T.contacts.find((c) => c.email.toLowerCase() === email.toLowerCase());
      if (existing) expect(res.body.id).toBe(existing.id);
      else {
        T.contacts.push({ id: res.body.id, email, first_name: first, unsubscribed: unsub });
        m.known.contacts.push(res.body.id);
      }
      if (segId && !T.members.some((x) => x.contact_id === res.body.id && x.segment_id === segId)) T.members.push({ contact_id: res.body.id, segment_id: segId });
    })),
  fc.record({ t: team, n: target, first: fc.option(name, { nil: null }), unsub: fc.option(fc.boolean(), { nil: undefined }) }).map(({ t, n, first, unsub }) =>
    cmd(`patchContact(t${t}, #${n})`, async (m, r) => {
      const id = pick(m, 'contacts', n);
      const body: Record<string, unknown> = { first_name: first };
      if (unsub !== undefined) body.unsubscribed = unsub;
      const res = await r.api[t].patch(`/contacts/${id}`).send(body);
      const c = byId(m.teams[t].contacts, id);
      if (!c) return expectStatus(res, 404, 'patch unknown contact');
      expectStatus(res, 200, 'patch contact');
      c.first_name = first;
      if (unsub !== undefined) c.unsubscribed = unsub;
    })),
  fc.record({ t: team, n: target }).map(({ t, n }) =>
    cmd(`deleteContact(t${t}, #${n})`, async (m, r) => {
      const id = pick(m, 'contacts', n);
      const res = await r.api[t].delete(`/contacts/${id}`);
      const T = m.teams[t];
      if (!byId(T.contacts, id)) return expectStatus(res, 404, 'delete unknown contact');
      expectStatus(res, 200, 'delete contact');
      T.contacts = T.contacts.filter((c) => c.id !== id);
      T.members = T.members.filter((x) => x.contact_id !== id);
    })),
  fc.record({ t: team, n: target, byEmail: fc.boolean() }).map(({ t, n, byEmail }) =>
    cmd(`getContact(t${t}, #${n}, byEmail=${byEmail})`, async (m, r) => {
      const id = pick(m, 'contacts', n);
      const all = [...m.teams[0].contacts, ...m.teams[1].contacts];
      const ref = byEmail ? (byId(all, id)?.email.toLowerCase() ?? 'nobody@model.test') : id;
      const res = await r.api[t].get(`/contacts/${encodeURIComponent(ref)}`);
      const c = byEmail ? m.teams[t].contacts.find((x) => x.email.toLowerCase() === ref) : byId(m.teams[t].contacts, id);
      if (!c) return expectStatus(res, 404, 'get unknown contact');
      expectStatus(res, 200, 'get contact');
      expect(res.body).toMatchObject({ object: 'contact', id: c.id, email: c.email, first_name: c.first_name, unsubscribed: c.unsubscribed });
    })),
  // ---- segments and membership
  fc.record({ t: team, nm: name }).map(({ t, nm }) =>
    cmd(`createSegment(t${t})`, async (m, r) => {
      const res = await r.api[t].post('/segments').send({ name: nm });
      expectStatus(res, 201, 'create segment');
      m.teams[t].segments.push({ id: res.body.id, name: nm });
      m.known.segments.push(res.body.id);
    })),
  fc.record({ t: team, n: target }).map(({ t, n }) =>
    cmd(`deleteSegment(t${t}, #${n})`, async (m, r) => {
      const id = pick(m, 'segments', n);
      const res = await r.api[t].delete(`/segments/${id}`);
      const T = m.teams[t];
      // The service answers `deleted: true` for any id, changing nothing (REC:SEG-remove-appears-to-remove).
      expectStatus(res, 200, 'delete segment');
      expect(res.body).toEqual({ object: 'segment', id, deleted: true });
      T.segments = T.segments.filter((s) => s.id !== id);
      T.members = T.members.filter((x) => x.segment_id !== id);
    })),
  fc.record({ t: team, n: target }).map(({ t, n }) =>
    cmd(`getSegment(t${t}, #${n})`, async (m, r) => {
      const id = pick(m, 'segments', n);
      const res = await r.api[t].get(`/segments/${id}`);
      const s = byId(m.teams[t].segments, id);
      if (!s) return expectStatus(res, 404, 'get unknown segment');
      expectStatus(res, 200, 'get segment');
      expect(res.body).toMatchObject({ object: 'segment', id, name: s.name });
    })),
  fc.record({ t: team, c: target, s: target, add: fc.boolean() }).map(({ t, c, s, add }) =>
    cmd(`${add ? 'add' : 'remove'}Member(t${t}, c#${c}, s#${s})`, async (m, r) => {
      const cid = pick(m, 'contacts', c);
      const sid = pick(m, 'segments', s);
      const path = `/contacts/${cid}/segments/${sid}`;
      const res = add ? await r.api[t].post(path) : await r.api[t].delete(path);
      const T = m.teams[t];
      if (!byId(T.contacts, cid) || !byId(T.segments, sid)) return expectStatus(res, 404, 'membership of unknown contact or segment');
      expectStatus(res, 200, add ? 'add member' : 'remove member');
      const has = T.members.some((x) => x.contact_id === cid && x.segment_id === sid);
      if (add && !has) T.members.push({ contact_id: cid, segment_id: sid });
      if (!add) T.members = T.members.filter((x) => !(x.contact_id === cid && x.segment_id === sid));
    })),
  // ---- topics
  fc.record({ t: team, nm: name, def: fc.constantFrom('opt_in', 'opt_out') }).map(({ t, nm, def }) =>
    cmd(`createTopic(t${t}, ${def})`, async (m, r) => {
      const topicName = `${nm} ${m.counter++}`;
      const res = await r.api[t].post('/topics').send({ name: topicName, default_subscription: def });
      expectStatus(res, 201, 'create topic');
      m.teams[t].topics.push({ id: res.body.id, name: topicName, description: null, default_subscription: def });
      m.known.topics.push(res.body.id);
    })),
  fc.record({ t: team, n: target, desc: fc.option(name, { nil: null }) }).map(({ t, n, desc }) =>
    cmd(`patchTopic(t${t}, #${n})`, async (m, r) => {
      const id = pick(m, 'topics', n);
      const res = await r.api[t].patch(`/topics/${id}`).send({ description: desc });
      const tp = byId(m.teams[t].topics, id);
      if (!tp) return expectStatus(res, 404, 'patch unknown topic');
      expectStatus(res, 200, 'patch topic');
      tp.description = desc;
    })),
  fc.record({ t: team, n: target }).map(({ t, n }) =>
    cmd(`deleteTopic(t${t}, #${n})`, async (m, r) => {
      const id = pick(m, 'topics', n);
      const res = await r.api[t].delete(`/topics/${id}`);
      const T = m.teams[t];
      if (!byId(T.topics, id)) return expectStatus(res, 404, 'delete unknown topic');
      expectStatus(res, 200, 'delete topic');
      T.topics = T.topics.filter((x) => x.id !== id);
    })),
  fc.record({ t: team, n: target }).map(({ t, n }) =>
    cmd(`getTopic(t${t}, #${n})`, async (m, r) => {
      const id = pick(m, 'topics', n);
      const res = await r.api[t].get(`/topics/${id}`);
      const tp = byId(m.teams[t].topics, id);
      if (!tp) return expectStatus(res, 404, 'get unknown topic');
      expectStatus(res, 200, 'get topic');
      // A topic without a description leaves the key out (the SDK's `description?: string`).
      expect({ ...res.body, description: res.body.description ?? null }).toMatchObject({ object: 'topic', ...tp });
      if (tp.description === null) expect(res.body).not.toHaveProperty('description');
    })),
  // ---- API keys (the fixtures' keys are never picked: each team keeps its own to act with)
  fc.record({ t: team, nm: name }).map(({ t, nm }) =>
    cmd(`createKey(t${t})`, async (m, r) => {
      const res = await r.api[t].post('/api-keys').send({ name: nm });
      expectStatus(res, 201, 'create key');
      expect(res.body.token).toMatch(/^re_/);
      m.teams[t].keys.push({ id: res.body.id, name: nm });
      m.known.keys.push(res.body.id);
    })),
  fc.record({ t: team, n: target }).map(({ t, n }) =>
    cmd(`deleteKey(t${t}, #${n})`, async (m, r) => {
      const id = pick(m, 'keys', n);
      const res = await r.api[t].delete(`/api-keys/${id}`);
      const T = m.teams[t];
      if (!byId(T.keys, id)) return expectStatus(res, 404, 'delete unknown key');
      expectStatus(res, 200, 'delete key');
      T.keys = T.keys.filter((k) => k.id !== id);
    })),
  // ---- lists with cursors
  fc.record({
    t: team, what: fc.constantFrom('contacts', 'segments', 'topics', 'keys', 'segmentContacts', 'contactSegments'),
    limit: limitArb, cursor: cursorKind, n: target, of: target,
  }).map(({ t, what, limit, cursor, n, of }) =>
    cmd(`list(t${t}, ${what}, limit=${limit}, ${cursor} #${n}, of #${of})`, async (m, r) => {
      const T = m.teams[t];
      let path: string;
      let all: { id: string }[];
      let defaultLimit: number | null = null;
      let parent: string | undefined;
      let parentExists = true;
      switch (what) {
        case 'contacts': path = '/contacts'; all = T.contacts; break;
        case 'segments': path = '/segments'; all = T.segments; break;
        case 'topics': path = '/topics'; all = T.topics; defaultLimit = 20; break;
        case 'keys': path = '/api-keys'; all = [...m.fixtureKeys[t], ...T.keys]; break;
        case 'segmentContacts': {
          parent = pick(m, 'segments', of);
          parentExists = Boolean(byId(T.segments, parent));
          path = `/contacts?segment_id=${parent}`;
          const ids = new Set(T.members.filter((x) => x.segment_id === parent).map((x) => x.contact_id));
          all = T.contacts.filter((c) => ids.has(c.id));
          break;
        }
        default: {
          parent = pick(m, 'contacts', of);
          parentExists = Boolean(byId(T.contacts, parent));
          path = `/contacts/${parent}/segments`;
          all = T.members.filter((x) => x.contact_id === parent).map((x) => byId(T.segments, x.segment_id)!);
        }
      }
      const q: { limit?: number; after?: string; before?: string } = {};
      if (limit !== undefined) q.limit = limit;
      if (cursor !== 'none') {
        // Mostly a cursor from the list itself; sometimes any known id (another team's, deleted: 422).
        const own = newestFirst(all);
        q[cursor] = n % 4 !== 0 && own.length ? own[n % own.length]!.id : pick(m, what === 'keys' ? 'keys' : what === 'topics' ? 'topics' : what === 'segments' || what === 'contactSegments' ? 'segments' : 'contacts', n);
      }
      const qs = Object.entries(q).map(([k, v]) => `${k}=${v}`).join('&');
      const res = await r.api[t].get(qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path);
      if (!parentExists) return expectStatus(res, 404, `list of unknown parent ${what}`);
      const want = page(all, q, defaultLimit);
      if (want.status === 422) return expectStatus(res, 422, `list ${what} with unknown cursor`);
      expectStatus(res, 200, `list ${what}`);
      expect(res.body.object).toBe('list');
      expect(res.body.data.map((x: any) => x.id), `${what} ids`).toEqual(want.data.map((x) => x.id));
      expect(res.body.has_more, `${what} has_more`).toBe(want.has_more);
      if (what === 'contacts' || what === 'segmentContacts') {
        expect(res.body.data.map((x: any) => [x.email, x.first_name, x.unsubscribed])).toEqual((want.data as MContact[]).map((c) => [c.email, c.first_name, c.unsubscribed]));
      }
    })),
];

/** The model of the fixtures, read through the API right after a reset. */
async function initialModel(api: [Api, Api]): Promise<Model> {
  const teams = [] as unknown as [MTeam, MTeam];
  const fixtureKeys = [] as unknown as [{ id: string }[], { id: string }[]];
  const known: Record<Kind, string[]> = { contacts: [], segments: [], topics: [], keys: [] };
  for (const a of api) {
    const contacts = newestFirst((await a.get('/contacts')).body.data as any[]).map((c) => ({ id: c.id, email: c.email, first_name: c.first_name, unsubscribed: c.unsubscribed }));
    const segments = newestFirst((await a.get('/segments')).body.data as any[]).map((s) => ({ id: s.id, name: s.name }));
    const topics = newestFirst((await a.get('/topics?limit=100')).body.data as any[]).map((x) => ({ id: x.id, name: x.name, description: x.description ?? null, default_subscription: x.default_subscription }));
    const members: MTeam['members'] = [];
    for (const c of contacts) {
      for (const s of newestFirst((await a.get(`/contacts/${c.id}/segments`)).body.data as any[])) members.push({ contact_id: c.id, segment_id: s.id });
    }
    fixtureKeys.push(newestFirst((await a.get('/api-keys')).body.data as any[]).map((k) => ({ id: k.id })));
    teams.push({ contacts, segments, topics, keys: [], members });
    known.contacts.push(...contacts.map((c) => c.id));
    known.segments.push(...segments.map((s) => s.id));
    known.topics.push(...topics.map((x) => x.id));
  }
  return { teams, known, counter: 0, fixtureKeys };
}

describe('model-based state: contacts, segments, topics, membership and API keys by two teams', () => {
  let emu: EmulatorServer;
  let api: [Api, Api];
  beforeAll(async () => {
    emu = await startServer({ validateResponses: true, webhooks: 'record' });
    api = [client(emu.url, FIXTURES.defaultKey), client(emu.url, FIXTURES.secondTeamKey)];
  });
  afterAll(async () => {
    await emu?.close();
  });

  const s = fuzzSettings('model', { quickRuns: 100, fullRuns: 3_000 });
  it(`random command sequences agree with the model step by step (${s.runs} runs, seed ${s.seed})`, async () => {
    let sequences = 0;
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: s.maxCommands, size: 'max' }), async (cmds) => {
        await emu.reset();
        const model = await initialModel(api);
        sequences++;
        await fc.asyncModelRun(() => ({ model, real: { api } }), cmds);
        steps += [...cmds].length;
      }),
      { numRuns: s.runs, seed: s.seed, endOnFailure: false, interruptAfterTimeLimit: s.timeLimitMs },
    );
    s.report({ sequences, steps });
  }, s.testTimeoutMs);
});
