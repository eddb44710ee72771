import { describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest } from '../helpers.js';
import { openDatabase } from '../../src/store/db.js';
import { paginate, type PageOrder, type PageQuery } from '../../src/http/pagination.js';
import { storeOf } from '../../src/internals.js';

describe('pagination (docs/reference/interface-spec.md#pagination)', () => {
  const t = useFreshEmulatorPerTest();

  async function makeKeys(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push((await t.api.post('/api-keys').send({ name: `k${i}` })).body.id);
    return ids; // oldest first
  }

  it('returns every item, newest first, when limit is omitted (rule 3)', async () => {
    const ids = await makeKeys(25);
    const res = await t.api.get('/api-keys');
    expect(res.body.has_more).toBe(false);
    expect(res.body.data.length).toBe(26); // + the fixture key
    expect(res.body.data.slice(0, 25).map((k: any) => k.id)).toEqual([...ids].reverse());
  });

  it('rule 3 on each list it names that is made by one request (domains, segments, audiences, webhooks, broadcasts): limit omitted, every item', async () => {
    const segment = (await t.api.post('/segments').send({ name: 'for broadcasts' })).body.id as string;
    const lists: [string, (i: number) => Record<string, unknown>][] = [
      ['/domains', (i) => ({ name: `rule3-${i}.example.com` })],
      ['/segments', (i) => ({ name: `rule 3 #${i}` })],
      ['/audiences', (i) => ({ name: `rule 3 #${i}` })],
      ['/webhooks', (i) => ({ endpoint: `https://hooks.example.test/${i}`, events: ['email.sent'] })],
      ['/broadcasts', (i) => ({ name: `rule 3 #${i}`, segment_id: segment, from: 'Acme <news@example.com>', subject: 's', html: '<p>x</p>' })],
    ];
    const seen: Record<string, { count: number; has_more: boolean }> = {};
    const want: Record<string, { count: number; has_more: boolean }> = {};
    for (const [path, body] of lists) {
      const before = (await t.api.get(`${path}?limit=100`)).body.data.length as number;
      for (let i = 0; i < 21; i++) {
        const made = await t.api.post(path).send(body(i));
        expect(made.status, `${path} ${JSON.stringify(made.body)}`).toBeLessThan(300);
      }
      const res = await t.api.get(path);
      seen[path] = { count: res.body.data.length, has_more: res.body.has_more };
      want[path] = { count: before + 21, has_more: false };
    }
    expect(seen).toEqual(want);
  });

  it('rule 2: the topics list, limit omitted, answers 20 items', async () => {
    for (let i = 0; i < 21; i++) {
      expect((await t.api.post('/topics').send({ name: `rule 2 #${i}`, default_subscription: 'opt_in' })).status).toBe(201);
    }
    const res = await t.api.get('/topics');
    expect({ count: res.body.data.length, has_more: res.body.has_more }).toEqual({ count: 20, has_more: true });
  });

  it('pages forward with after and back with before, cursors excluded', async () => {
    const ids = [...(await makeKeys(7))].reverse(); // newest first
    const p1 = await t.api.get('/api-keys?limit=3');
    expect(p1.body.data.map((k: any) => k.id)).toEqual(ids.slice(0, 3));
    expect(p1.body.has_more).toBe(true);
    const p2 = await t.api.get(`/api-keys?limit=3&after=${ids[2]}`);
    expect(p2.body.data.map((k: any) => k.id)).toEqual(ids.slice(3, 6));
    expect(p2.body.has_more).toBe(true);
    const p3 = await t.api.get(`/api-keys?limit=3&after=${ids[5]}`);
    expect(p3.body.data.length).toBe(2); // ids[6] and the fixture key
    expect(p3.body.has_more).toBe(false);
    const back = await t.api.get(`/api-keys?limit=2&before=${ids[3]}`);
    expect(back.body.data.map((k: any) => k.id)).toEqual(ids.slice(1, 3));
    expect(back.body.has_more).toBe(true);
    const backAll = await t.api.get(`/api-keys?limit=5&before=${ids[3]}`);
    expect(backAll.body.data.map((k: any) => k.id)).toEqual(ids.slice(0, 3));
    expect(backAll.body.has_more).toBe(false);
  });

  it.each([['0'], ['101'], ['abc'], ['-1']])('rejects limit=%s with 422 validation_error', async (limit) => {
    const res = await t.api.get(`/domains?limit=${limit}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      statusCode: 422,
      name: 'validation_error',
      message: 'The pagination limit must be a number between 1 and 100. See https://resend.com/docs/pagination for more information.',
    });
  });

  it('accepts limit 1 and 100', async () => {
    expect((await t.api.get('/domains?limit=1')).status).toBe(200);
    expect((await t.api.get('/domains?limit=100')).status).toBe(200);
  });

  it('rejects after and before together (rule 1)', async () => {
    const ids = await makeKeys(2);
    const res = await t.api.get(`/api-keys?after=${ids[0]}&before=${ids[1]}`);
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('validation_error');
    expect(res.body.message).toContain('`after` or `before`');
  });

  it('rejects a cursor that is not an item of the list', async () => {
    const res = await t.api.get('/api-keys?after=00000000-0000-4000-8000-000000000000');
    expect(res.status).toBe(422);
    expect(res.body.name).toBe('validation_error');
  });

  it('costs one indexed scan: a page at 20 000 rows answers like one at 20', async () => {
    const db = storeOf(t.emu);
    const teamId = '8f3a1c2e-0b4d-4e6f-9a1b-2c3d4e5f6a7b';
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT * FROM domains WHERE (team_id = ?) AND seq < ? ORDER BY seq DESC LIMIT ?").all(teamId, 10, 11) as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING INDEX domains_team|USING INTEGER PRIMARY KEY/);
    expect(plan.map((p) => p.detail).join(' ')).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
  });

  it('pages in a given order: oldest first, after → newer, before → older, cursors excluded, 422 for an unknown cursor', () => {
    const db = openDatabase();
    db.exec('CREATE TABLE items (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, grp TEXT NOT NULL)');
    const ids = Array.from({ length: 7 }, (_, i) => `i${i}`);
    for (const id of ids) db.prepare('INSERT INTO items (id, grp) VALUES (?, ?)').run(id, 'a');
    db.prepare("INSERT INTO items (id, grp) VALUES ('other', 'b')").run();
    const oldestFirst: PageOrder = { column: 'seq', direction: 'asc' };
    const page = (query: PageQuery, order?: PageOrder) => {
      const p = paginate<{ id: string }, string>(db, { table: 'items', where: 'grp = ?', params: ['a'], query, defaultLimit: 3, map: (r) => r.id, ...(order ? { order } : {}) });
      return [p.data, p.has_more];
    };
    expect(page({}, oldestFirst)).toEqual([ids.slice(0, 3), true]);
    expect(page({ after: 'i2' }, oldestFirst)).toEqual([ids.slice(3, 6), true]);
    expect(page({ after: 'i5' }, oldestFirst)).toEqual([['i6'], false]);
    expect(page({ before: 'i5' }, oldestFirst)).toEqual([ids.slice(2, 5), true]);
    expect(page({ before: 'i2', limit: 5 }, oldestFirst)).toEqual([ids.slice(0, 2), false]);
    // No order given: newest first, as every other list.
    expect(page({})).toEqual([['i6', 'i5', 'i4'], true]);
    expect(page({ after: 'i4' })).toEqual([['i3', 'i2', 'i1'], true]);
    expect(() => page({ after: 'other' }, oldestFirst)).toThrow(/`after` cursor `other` does not match any item/);
    db.close();
  });

  it('pages by a column other than seq, tie-broken by seq: cursors exact across equal values, the column may change between reads', () => {
    const db = openDatabase();
    db.exec('CREATE TABLE items (seq INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, grp TEXT NOT NULL, activity INTEGER NOT NULL)');
    // activity: i0..i2 share 1, i3..i5 share 2, i6 is 3.
    const ids = Array.from({ length: 7 }, (_, i) => `i${i}`);
    ids.forEach((id, i) => db.prepare('INSERT INTO items (id, grp, activity) VALUES (?, ?, ?)').run(id, 'a', i < 3 ? 1 : i < 6 ? 2 : 3));
    const byActivity: PageOrder = { column: 'activity', direction: 'desc' };
    const page = (query: PageQuery, order: PageOrder = byActivity) => {
      const p = paginate<{ id: string }, string>(db, { table: 'items', where: 'grp = ?', params: ['a'], query, defaultLimit: 2, map: (r) => r.id, order });
      return [p.data, p.has_more];
    };
    // Newest activity first, equal activity newest seq first.
    const all = ['i6', 'i5', 'i4', 'i3', 'i2', 'i1', 'i0'];
    expect(page({ limit: 7 })).toEqual([all, false]);
    expect(page({})).toEqual([all.slice(0, 2), true]);
    expect(page({ after: 'i5' })).toEqual([['i4', 'i3'], true]);
    expect(page({ after: 'i4' })).toEqual([['i3', 'i2'], true]);
    expect(page({ after: 'i1' })).toEqual([['i0'], false]);
    expect(page({ before: 'i2' })).toEqual([['i4', 'i3'], true]);
    expect(page({ before: 'i4' })).toEqual([['i6', 'i5'], false]);
    // Ascending: oldest activity first, equal activity oldest seq first.
    expect(page({ after: 'i1', limit: 3 }, { column: 'activity', direction: 'asc' })).toEqual([['i2', 'i3', 'i4'], true]);
    expect(page({ before: 'i3', limit: 3 }, { column: 'activity', direction: 'asc' })).toEqual([['i0', 'i1', 'i2'], false]);
    // i0 becomes the most active: it leads the list, and a cursor on it reads its new place.
    db.prepare("UPDATE items SET activity = 4 WHERE id = 'i0'").run();
    expect(page({})).toEqual([['i0', 'i6'], true]);
    expect(page({ after: 'i0' })).toEqual([['i6', 'i5'], true]);
    expect(page({ after: 'i2' })).toEqual([['i1'], false]);
    db.close();
  });
});
