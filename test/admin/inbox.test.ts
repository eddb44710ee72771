/**
 * The inbox page's server side: the HTML page, the team list, the
 * server-sent events stream, and the webhook-deliveries admin operations.
 */
import http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURES, useFreshEmulatorPerTest, type TestEmulator } from '../helpers.js';
import { startReceiver, type Receiver } from '../deliveries/receiver.js';
import { busOf } from '../../src/internals.js';

const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

/** Opens the SSE stream; `next(name)` resolves with the data of the next unread event of that name. */
function openStream(t: TestEmulator) {
  const queues: Record<string, any[]> = {};
  const waiters: Record<string, ((d: any) => void)[]> = {};
  let buffer = '';
  let headers: http.IncomingHttpHeaders = {};
  let req: http.ClientRequest;
  const ready = new Promise<void>((resolve, reject) => {
    req = http.get(`${t.emu.url}/_emulator/events`, (res) => {
      headers = res.headers;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let i;
        while ((i = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          if (!event) continue;
          const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null');
          const w = waiters[event]?.shift();
          if (w) w(data);
          else (queues[event] ??= []).push(data);
          if (event === 'hello') resolve();
        }
      });
      res.on('error', () => {});
    });
    req.on('error', reject);
  });
  return {
    ready,
    get headers() { return headers; },
    next(name: string): Promise<any> {
      if (queues[name]?.length) return Promise.resolve(queues[name].shift());
      return new Promise((resolve) => (waiters[name] ??= []).push(resolve));
    },
    close: () => req.destroy(),
  };
}

describe('inbox page', () => {
  const t = useFreshEmulatorPerTest();

  it('serves the page as HTML with a base path and nothing external', async () => {
    const res = await t.anon.get('/_emulator/').expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const html = res.text;
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<base href="/_emulator/">');
    expect(html).toContain('<link rel="stylesheet" href="assets/inbox.css">');
    expect(html).toContain('<script type="module" src="assets/inbox.js"></script>');
    expect(html).not.toContain('%BASE%');
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=["']?https?:/i);
  });

  it('serves the page without the trailing slash too, with the same base', async () => {
    expect((await t.anon.get('/_emulator').expect(200)).text).toContain('<base href="/_emulator/">');
  });

  it('serves the script as a cacheable file of its own (ETag, 304), with nothing external', async () => {
    const js = await t.anon.get('/_emulator/assets/inbox.js').expect(200);
    expect(js.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(js.headers['cache-control']).toBe('public, max-age=3600');
    expect(js.headers.etag).toBeTruthy();
    expect(js.headers['last-modified']).toBeTruthy();
    await t.anon.get('/_emulator/assets/inbox.js').set('If-None-Match', js.headers.etag).expect(304);
  });

  it('serves every module the entry module imports, transitively, each with nothing external', async () => {
    const seen = new Map<string, string>();
    const visit = async (file: string): Promise<void> => {
      if (seen.has(file)) return;
      const res = await t.anon.get(`/_emulator/assets/${file}`).expect(200);
      expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
      seen.set(file, res.text);
      expect(res.text, file).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
      for (const m of res.text.matchAll(/^import [^'"]*'\.\/([a-z-]+\.js)';$/gm)) await visit(m[1]);
    };
    await visit('inbox.js');
    expect([...seen.keys()]).toEqual(expect.arrayContaining(['store.js', 'live.js', 'message.js', 'list.js', 'detail.js', 'checks.js']));
    expect(seen.get('live.js')).toContain("new EventSource('events')");
    expect(seen.get('message.js')).toContain("sandbox: ''");
  });

  it('serves the stylesheet as a file of its own', async () => {
    const css = await t.anon.get('/_emulator/assets/inbox.css').expect(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.text).toContain(':root');
  });

  it('answers 404 for an unknown asset and for a path out of the assets folder', async () => {
    const missing = await t.anon.get('/_emulator/assets/secrets.txt').expect(404);
    expect(missing.body).toEqual({ statusCode: 404, name: 'not_found', message: 'Asset not found' });
    await t.anon.get('/_emulator/assets/..%2Fpackage.json').expect(404);
  });

  it('lists the teams for the switcher', async () => {
    const created = (await t.anon.post('/_emulator/teams').send({ name: 'Third', owner_email: 'third@example.org' }).expect(201)).body;
    const res = await t.anon.get('/_emulator/teams').expect(200);
    expect(res.body.object).toBe('list');
    expect(res.body.data.map((x: any) => x.id)).toEqual([FIXTURES.defaultTeamId, FIXTURES.secondTeamId, created.id]);
    expect(res.body.data[0]).toEqual({ id: FIXTURES.defaultTeamId, name: expect.any(String), owner_email: FIXTURES.ownerEmail, created_at: expect.any(String) });
    expect(res.body.data[2]).toMatchObject({ name: 'Third', owner_email: 'third@example.org' });
  });
});

describe('server-sent events', () => {
  const t = useFreshEmulatorPerTest();
  let s: ReturnType<typeof openStream>;
  beforeEach(async () => {
    s = openStream(t);
    await s.ready;
  });
  afterEach(() => s.close());

  it('opens an event stream with hello: the emulated time and the clock mode', async () => {
    expect(s.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(await s.next('hello')).toEqual({ now: t.emu.clock.now().toISOString(), mode: 'manual' });
  });

  it('notifies delivery when a webhook delivery is recorded and again when it is attempted', async () => {
    const rx = await startReceiver();
    receivers.push(rx);
    await t.api.post('/webhooks').send({ endpoint: rx.url, events: ['domain.created'] }).expect(201);
    await t.api.post('/domains').send({ name: 'sse.dev' }).expect(201);
    const [d] = t.emu.webhookDeliveries();
    expect(await s.next('delivery')).toEqual({ id: d.id }); // recorded, pending
    await t.anon.post('/_emulator/clock/advance').send({ ms: 1000 }).expect(200);
    expect(await s.next('delivery')).toEqual({ id: d.id }); // attempted
  });

  it('notifies clock with the new time when the clock is advanced, over HTTP or from code', async () => {
    const adv = (await t.anon.post('/_emulator/clock/advance').send({ ms: 1000 }).expect(200)).body;
    expect(await s.next('clock')).toEqual({ now: adv.now, mode: 'manual' });
    await t.emu.clock.advance('1m');
    expect((await s.next('clock')).now).toBe(t.emu.clock.now().toISOString());
  });

  it('notifies email with the email id', async () => {
    busOf(t.emu).emit('email', 'email-id-1');
    expect(await s.next('email')).toEqual({ id: 'email-id-1' });
  });

  it('notifies reset', async () => {
    await t.anon.post('/_emulator/reset').expect(200);
    expect(await s.next('reset')).toEqual({});
  });

  it('stops listening when the client goes away', async () => {
    const names = ['email', 'delivery', 'clock', 'reset'] as const;
    const counts = () => names.map((n) => busOf(t.emu).listenerCount(n));
    const withStream = counts();
    const other = openStream(t);
    await other.ready;
    expect(counts()).toEqual(withStream.map((n) => n + 1));
    other.close();
    await expect.poll(counts).toEqual(withStream);
  });
});

describe('webhook deliveries admin API', () => {
  const t = useFreshEmulatorPerTest();
  let rx: Receiver;
  let a: { id: string };
  let b: { id: string };

  // Two webhooks on one endpoint that fails its first request: a's domain.created fails (pending retry), b's succeeds, b's domain.deleted is not attempted yet.
  beforeEach(async () => {
    rx = await startReceiver((n) => (n === 1 ? 500 : 200));
    receivers.push(rx);
    a = (await t.api.post('/webhooks').send({ endpoint: rx.url, events: ['domain.created'] }).expect(201)).body;
    b = (await t.api.post('/webhooks').send({ endpoint: rx.url, events: ['domain.created', 'domain.deleted'] }).expect(201)).body;
    const dom = (await t.api.post('/domains').send({ name: 'admin-deliveries.dev' }).expect(201)).body;
    await t.emu.clock.advance(0);
    await t.api.delete(`/domains/${dom.id}`).expect(200);
  });

  it('lists deliveries oldest first with their status, attempts and headers (none before the first attempt)', async () => {
    const all = (await t.anon.get('/_emulator/webhook-deliveries').expect(200)).body.data;
    expect(all.map((d: any) => [d.webhook_id, d.event_type, d.status])).toEqual([
      [a.id, 'domain.created', 'pending'],
      [b.id, 'domain.created', 'succeeded'],
      [b.id, 'domain.deleted', 'pending'],
    ]);
    expect(all[0].attempts[0]).toMatchObject({ status_code: 500, error: 'endpoint answered 500', replay: false });
    expect(all[0].headers['svix-id']).toBe(all[0].id);
    expect(all[2].attempts).toEqual([]);
    expect(all[2].headers).toBeNull();
  });

  it('filters the list by webhook_id, event_type, status and team_id', async () => {
    expect((await t.anon.get(`/_emulator/webhook-deliveries?webhook_id=${b.id}`).expect(200)).body.data).toHaveLength(2);
    expect((await t.anon.get('/_emulator/webhook-deliveries?event_type=domain.deleted').expect(200)).body.data).toHaveLength(1);
    expect((await t.anon.get('/_emulator/webhook-deliveries?status=succeeded').expect(200)).body.data).toHaveLength(1);
    expect((await t.anon.get(`/_emulator/webhook-deliveries?team_id=${FIXTURES.secondTeamId}`).expect(200)).body.data).toHaveLength(0);
  });

  it('answers 422 for an unknown status filter', async () => {
    await t.anon.get('/_emulator/webhook-deliveries?status=bogus').expect(422);
  });

  it('emu.webhookDeliveries() filters as the admin API does', () => {
    expect(t.emu.webhookDeliveries({ webhook_id: b.id, status: 'pending' }).map((d) => d.event_type)).toEqual(['domain.deleted']);
  });

  it('gets one delivery as listed; 404 for an unknown one', async () => {
    const all = (await t.anon.get('/_emulator/webhook-deliveries').expect(200)).body.data;
    const one = (await t.anon.get(`/_emulator/webhook-deliveries/${all[0].id}`).expect(200)).body;
    expect(one).toEqual(all[0]);
    await t.anon.get('/_emulator/webhook-deliveries/msg_nope').expect(404);
  });

  it('replays a delivery now with the same svix-id, recorded as a replay attempt', async () => {
    const [first] = t.emu.webhookDeliveries();
    const res = (await t.anon.post(`/_emulator/webhook-deliveries/${first.id}/replay`).expect(200)).body;
    expect(res.status).toBe('succeeded');
    expect(res.next_attempt_at).toBeNull();
    expect(res.attempts.map((x: any) => [x.status_code, x.replay])).toEqual([[500, false], [200, true]]);
    expect(rx.withId(first.id)).toHaveLength(2);
  });

  it('drops the scheduled retry of a delivery a replay settled', async () => {
    const [first] = t.emu.webhookDeliveries();
    await t.anon.post(`/_emulator/webhook-deliveries/${first.id}/replay`).expect(200);
    await t.emu.clock.advance('1h');
    expect(rx.withId(first.id)).toHaveLength(2);
  });

  it('answers 404 to a replay of an unknown delivery', async () => {
    await t.anon.post('/_emulator/webhook-deliveries/msg_nope/replay').expect(404);
  });

  it('refuses to replay a delivery whose webhook was deleted', async () => {
    await t.api.delete(`/webhooks/${a.id}`).expect(200);
    const [first] = t.emu.webhookDeliveries({ webhook_id: a.id });
    expect(first.status).toBe('cancelled');
    const res = await t.anon.post(`/_emulator/webhook-deliveries/${first.id}/replay`).expect(422);
    expect(res.body.name).toBe('validation_error');
  });
});
