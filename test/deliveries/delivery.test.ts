/**
 * Webhook delivery end to end: real HTTP receivers on 127.0.0.1, signatures
 * checked with the official SDK's `webhooks.verify()`, retries on the
 * emulated clock (docs/reference/webhooks.md). No sleeps: awaiting `clock.advance()`
 * awaits the delivery job, which awaits the HTTP attempt.
 */
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Resend } from 'resend';
import { FIXTURES, useFreshEmulatorPerTest, type TestEmulator } from '../helpers.js';
import { RETRY_DELAYS_MS } from '../../src/deliveries/jobs.js';
import { startReceiver, verifyInput, type Receiver } from './receiver.js';
import { busOf, contextOf, storeOf } from '../../src/internals.js';
import { insertWebhook } from '../../src/resources/webhooks/store.js';

const receivers: Receiver[] = [];
async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

function sdk(t: TestEmulator) {
  return new Resend(t.emu.apiKey, { baseUrl: t.emu.url });
}

/** Registers a webhook through the API; returns id and secret. */
async function hook(t: TestEmulator, endpoint: string, events: string[]) {
  const res = await t.api.post('/webhooks').send({ endpoint, events }).expect(201);
  return res.body as { id: string; signing_secret: string };
}

async function createDomain(t: TestEmulator, name = 'acme-hooks.dev') {
  return (await t.api.post('/domains').send({ name }).expect(201)).body as { id: string };
}

describe('webhook delivery (acceptance)', () => {
  const t = useFreshEmulatorPerTest();

  it('delivers domain events to a real receiver, each accepted by the SDK verify()', async () => {
    const rx = await receiver();
    const resend = sdk(t);
    const { data: created, error } = await resend.webhooks.create({ endpoint: rx.url, events: ['domain.created', 'domain.updated'] });
    expect(error).toBeNull();
    const t0 = t.emu.clock.now().toISOString();
    const { data: domain } = await resend.domains.create({ name: 'acme-hooks.dev' });
    await resend.domains.verify(domain!.id);
    // Delivery is a clock job: nothing is sent while the request runs.
    expect(rx.requests).toHaveLength(0);

    await t.emu.clock.advance('5s');
    const bodies = rx.requests.map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => [b.type, b.data.status])).toEqual([
      ['domain.created', 'not_started'],
      ['domain.updated', 'pending'],
      ['domain.updated', 'verified'],
    ]);
    // Payload times are emulated; the verified event comes 5 s later.
    expect(bodies[0].created_at).toBe(t0);
    expect(Date.parse(bodies[2].created_at) - Date.parse(t0)).toBe(5000);
    for (const r of rx.requests) {
      const verified = resend.webhooks.verify(verifyInput(r, created!.signing_secret));
      expect(verified).toEqual(JSON.parse(r.body));
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['svix-id']).toMatch(/^msg_[A-Za-z0-9]{27}$/);
      // The signature time is the wall clock (verifiers allow ±5 min).
      expect(Math.abs(Number(r.headers['svix-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    }
    // A tampered body or another secret fails verification.
    const first = rx.requests[0];
    expect(() => resend.webhooks.verify({ ...verifyInput(first, created!.signing_secret), payload: first.body.replace('acme', 'acmf') })).toThrow();
    expect(() => resend.webhooks.verify(verifyInput(first, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'))).toThrow();

    const deliveries = t.emu.webhookDeliveries({ webhook_id: created!.id });
    expect(deliveries.map((d) => d.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(deliveries.map((d) => d.id)).toEqual(rx.requests.map((r) => r.headers['svix-id']));
    expect(deliveries.map((d) => d.body)).toEqual(rx.requests.map((r) => r.body));
    expect(deliveries[0].attempts).toHaveLength(1);
    expect(deliveries[0].attempts[0]).toMatchObject({ status_code: 200, error: null, endpoint: rx.url, replay: false, response: 'ok' });
    expect(deliveries[0].headers!['svix-signature']).toBe(rx.requests[0].headers['svix-signature']);
  });

  it('delivers email events of a sent email, each accepted by the SDK verify()', async () => {
    const rx = await receiver();
    const resend = sdk(t);
    const { data: created } = await resend.webhooks.create({ endpoint: rx.url, events: ['email.sent', 'email.delivered'] });
    const { data: sent, error } = await resend.emails.send({
      from: `Acme <hello@${FIXTURES.verifiedDomain}>`,
      to: ['delivered@resend.dev'],
      subject: 'Webhook test',
      html: '<p>Hello</p>',
    });
    expect(error).toBeNull();
    await t.emu.clock.advance('1m');
    const types = rx.requests.map((r) => JSON.parse(r.body).type);
    expect(types).toEqual(expect.arrayContaining(['email.sent', 'email.delivered']));
    for (const r of rx.requests) {
      const p = resend.webhooks.verify(verifyInput(r, created!.signing_secret)) as any;
      expect(p.data.email_id).toBe(sent!.id);
      expect(p.data.subject).toBe('Webhook test');
    }
  });

  it('retries a 500 exactly after the first interval (5 s), not before', async () => {
    const rx = await receiver(() => 500);
    await hook(t, rx.url, ['domain.created']);
    await createDomain(t);
    await t.emu.clock.advance(0);
    expect(rx.requests).toHaveLength(1);
    const id = String(rx.requests[0].headers['svix-id']);

    await t.emu.clock.advance(4999);
    expect(rx.withId(id)).toHaveLength(1);
    await t.emu.clock.advance(1);
    expect(rx.withId(id)).toHaveLength(2);
    const [d] = t.emu.webhookDeliveries();
    expect(d.status).toBe('pending');
    expect(d.attempts.map((a) => a.status_code)).toEqual([500, 500]);
    expect(d.attempts[0].error).toBe('endpoint answered 500');
    expect(d.attempts[0].response).toBe('nope 500');
    expect(Date.parse(d.next_attempt_at!) - t.emu.clock.now().getTime()).toBe(RETRY_DELAYS_MS[1]);
  });

  it('follows the whole schedule (8 attempts: 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then fails', async () => {
    const rx = await receiver(() => 503);
    await hook(t, rx.url, ['domain.created']);
    const start = t.emu.clock.now().getTime();
    await createDomain(t);
    await t.emu.clock.advance(0);
    for (const wait of RETRY_DELAYS_MS) {
      const before = rx.requests.length;
      await t.emu.clock.advance(wait - 1);
      expect(rx.requests).toHaveLength(before);
      await t.emu.clock.advance(1);
      expect(rx.requests).toHaveLength(before + 1);
    }
    expect(rx.requests).toHaveLength(8);
    expect(new Set(rx.requests.map((r) => r.headers['svix-id'])).size).toBe(1);
    const [d] = t.emu.webhookDeliveries();
    expect(d.status).toBe('failed');
    expect(d.next_attempt_at).toBeNull();
    const offsets = d.attempts.map((a) => Date.parse(a.at) - start);
    expect(offsets).toEqual([0, 5_000, 305_000, 2_105_000, 9_305_000, 27_305_000, 63_305_000, 99_305_000]);
    await t.emu.clock.advance('3d');
    expect(rx.requests).toHaveLength(8);
    expect(t.emu.webhookDeliveries({ status: 'failed' })).toHaveLength(1);
  });

  it('stops retrying once the endpoint answers 2xx', async () => {
    const rx = await receiver((n) => (n <= 2 ? 500 : 204));
    await hook(t, rx.url, ['domain.created']);
    await createDomain(t);
    await t.emu.clock.advance('10m');
    expect(rx.requests).toHaveLength(3);
    const [d] = t.emu.webhookDeliveries();
    expect(d.status).toBe('succeeded');
    expect(d.attempts.map((a) => a.status_code)).toEqual([500, 500, 204]);
    await t.emu.clock.advance('2d');
    expect(rx.requests).toHaveLength(3);
  });

  it('counts a redirect as a failure (not followed)', async () => {
    const rx = await receiver(() => 302);
    await hook(t, rx.url, ['domain.created']);
    await createDomain(t);
    await t.emu.clock.advance(0);
    const [d] = t.emu.webhookDeliveries();
    expect(d.attempts[0]).toMatchObject({ status_code: 302, error: 'endpoint answered 302' });
    expect(d.status).toBe('pending');
  });

  it('counts a refused connection as a failed attempt and retries it', async () => {
    const rx = await receiver();
    const url = rx.url;
    await rx.close();
    await hook(t, url, ['domain.created']);
    await createDomain(t);
    await t.emu.clock.advance(0);
    const [d] = t.emu.webhookDeliveries();
    expect(d.status).toBe('pending');
    expect(d.attempts[0].status_code).toBeNull();
    expect(d.attempts[0].error).toMatch(/ECONNREFUSED/);
    await t.emu.clock.advance('5s');
    expect(t.emu.webhookDeliveries()[0].attempts).toHaveLength(2);
  });

  it('goes to the new endpoint and secret on the next attempt, and signs with both secrets for 24 h after a rotation', async () => {
    const a = await receiver(() => 500);
    const b = await receiver(() => 200);
    const resend = sdk(t);
    const h = await hook(t, a.url, ['domain.created']);
    await createDomain(t);
    await t.emu.clock.advance(0);
    expect(a.requests).toHaveLength(1);
    await t.api.patch(`/webhooks/${h.id}`).send({ endpoint: b.url }).expect(200);
    const rotated = (await t.api.post(`/webhooks/${h.id}/signing-secret/rotate`).expect(200)).body;
    expect(rotated.signing_secret).not.toBe(h.signing_secret);
    await t.emu.clock.advance('5s');
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(1);
    const retry = b.requests[0];
    expect(retry.headers['svix-id']).toBe(a.requests[0].headers['svix-id']);
    expect(String(retry.headers['svix-signature']).split(' ')).toHaveLength(2);
    expect(resend.webhooks.verify(verifyInput(retry, rotated.signing_secret))).toEqual(JSON.parse(retry.body));
    expect(resend.webhooks.verify(verifyInput(retry, h.signing_secret))).toEqual(JSON.parse(retry.body));
    // After 24 h only the new secret signs.
    await t.emu.clock.advance('24h');
    await createDomain(t, 'later.dev');
    await t.emu.clock.advance(0);
    const later = b.requests[1];
    expect(String(later.headers['svix-signature']).split(' ')).toHaveLength(1);
    expect(() => resend.webhooks.verify(verifyInput(later, rotated.signing_secret))).not.toThrow();
    expect(() => resend.webhooks.verify(verifyInput(later, h.signing_secret))).toThrow();
  });

  it('makes no more attempts once the webhook is disabled or deleted', async () => {
    const rx = await receiver(() => 500);
    const h1 = await hook(t, rx.url, ['domain.created']);
    const h2 = await hook(t, rx.url, ['domain.created']);
    await createDomain(t);
    await t.emu.clock.advance(0);
    expect(rx.requests).toHaveLength(2);
    const emitted: string[] = [];
    const onDelivery = (id: string) => emitted.push(id);
    busOf(t.emu).on('delivery', onDelivery);
    await t.api.patch(`/webhooks/${h1.id}`).send({ status: 'disabled' }).expect(200);
    await t.api.delete(`/webhooks/${h2.id}`).expect(200);
    busOf(t.emu).off('delivery', onDelivery);
    expect(t.emu.webhookDeliveries().map((d) => d.status)).toEqual(['cancelled', 'cancelled']);
    // The inbox hears of each cancellation.
    expect(emitted).toEqual([t.emu.webhookDeliveries({ webhook_id: h1.id })[0].id, t.emu.webhookDeliveries({ webhook_id: h2.id })[0].id]);
    expect(t.emu.webhookDeliveries().every((d) => d.next_attempt_at === null)).toBe(true);
    await t.emu.clock.advance('2d');
    expect(rx.requests).toHaveLength(2);
    // Re-enabling does not revive the cancelled delivery, but new events flow again.
    await t.api.patch(`/webhooks/${h1.id}`).send({ status: 'enabled' }).expect(200);
    await t.emu.clock.advance('1h');
    expect(rx.requests).toHaveLength(2);
    await createDomain(t, 'again.dev');
    await t.emu.clock.advance(0);
    expect(rx.requests).toHaveLength(3);
  });

  it('raises events only for enabled webhooks of the team subscribed to the type', async () => {
    const rx = await receiver();
    await hook(t, rx.url, ['domain.created']);
    await hook(t, rx.url, ['domain.deleted']);
    const off = await hook(t, rx.url, ['domain.created']);
    await t.api.patch(`/webhooks/${off.id}`).send({ status: 'disabled' }).expect(200);
    await t.as(FIXTURES.secondTeamKey).post('/webhooks').send({ endpoint: rx.url, events: ['domain.created'] }).expect(201);
    await createDomain(t);
    await t.emu.clock.advance(0);
    expect(rx.requests).toHaveLength(1);
    expect(t.emu.webhookDeliveries({ team_id: FIXTURES.secondTeamId })).toHaveLength(0);
    expect(t.emu.webhookDeliveries({ team_id: FIXTURES.defaultTeamId, event_type: 'domain.created' })).toHaveLength(1);
  });
});

describe('the subscriptions an event reaches (kept per store between webhook changes)', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });
  const created = () => t.emu.webhookDeliveries({ team_id: FIXTURES.defaultTeamId, event_type: 'domain.created' }).length;

  it('an event after a webhook is created reaches it, though the same event type was raised before', async () => {
    await createDomain(t, 'before.dev');
    const h = await hook(t, 'http://127.0.0.1:9/hook', ['domain.created']);
    await createDomain(t, 'after.dev');
    expect(t.emu.webhookDeliveries({ team_id: FIXTURES.defaultTeamId, event_type: 'domain.created' }).map((d) => d.webhook_id)).toEqual([h.id]);
  });

  it('an event after a webhook is disabled or deleted no longer reaches it', async () => {
    const off = await hook(t, 'http://127.0.0.1:9/off', ['domain.created']);
    const gone = await hook(t, 'http://127.0.0.1:9/gone', ['domain.created']);
    await createDomain(t, 'first.dev');
    expect(created()).toBe(2);
    await t.api.patch(`/webhooks/${off.id}`).send({ status: 'disabled' }).expect(200);
    await t.api.delete(`/webhooks/${gone.id}`).expect(200);
    await createDomain(t, 'second.dev');
    expect(created()).toBe(2);
  });

  it('an event after a webhook written by the room itself (no API request) reaches it', async () => {
    await createDomain(t, 'before.dev');
    const h = insertWebhook(contextOf(t.emu), { teamId: FIXTURES.defaultTeamId, endpoint: 'http://127.0.0.1:9/direct', events: ['domain.created'] });
    await createDomain(t, 'after.dev');
    expect(t.emu.webhookDeliveries({ team_id: FIXTURES.defaultTeamId, event_type: 'domain.created' }).map((d) => d.webhook_id)).toEqual([h.id]);
  });

  it('an event after a reset reaches only the webhooks of the new state', async () => {
    await hook(t, 'http://127.0.0.1:9/hook', ['domain.created']);
    await createDomain(t, 'first.dev');
    await t.anon.post('/_emulator/reset').expect(200);
    await createDomain(t, 'second.dev');
    expect(created()).toBe(0);
  });
});

describe('webhook delivery timeout', () => {
  const t = useFreshEmulatorPerTest({ webhookTimeoutMs: 150 });

  it('counts an endpoint that does not answer in time as a failed attempt', async () => {
    const rx = await receiver(() => 'hang');
    await hook(t, rx.url, ['domain.created']);
    await createDomain(t);
    await t.emu.clock.advance(0);
    const [d] = t.emu.webhookDeliveries();
    expect(rx.requests).toHaveLength(1);
    expect(d.status).toBe('pending');
    expect(d.attempts[0]).toMatchObject({ status_code: null, error: 'timed out after 150 ms' });
    expect(d.attempts[0].duration_ms).toBeGreaterThanOrEqual(100);
  });
});

describe('webhook delivery in --webhooks record mode', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });

  it('records the signed delivery without sending it', async () => {
    const rx = await receiver();
    const h = await hook(t, rx.url, ['domain.created']);
    await createDomain(t);
    await t.emu.clock.advance('1h');
    expect(rx.requests).toHaveLength(0);
    const [d] = t.emu.webhookDeliveries();
    expect(d.status).toBe('recorded');
    expect(d.attempts).toHaveLength(1);
    expect(d.attempts[0].error).toMatch(/record/);
    const resend = sdk(t);
    const payload = resend.webhooks.verify({
      payload: d.body,
      headers: { id: d.headers!['svix-id'], timestamp: d.headers!['svix-timestamp'], signature: d.headers!['svix-signature'] },
      webhookSecret: h.signing_secret,
    });
    expect(payload).toEqual(d.payload);
  });
});

describe('webhook delivery with a malformed secret', () => {
  const t = useFreshEmulatorPerTest();

  it('records a failed attempt (nothing sent) and keeps retrying', async () => {
    const rx = await receiver();
    const h = await hook(t, rx.url, ['domain.created']);
    storeOf(t.emu).prepare('UPDATE webhooks SET signing_secret = ? WHERE id = ?').run('whsec_!!not base64!!', h.id);
    await createDomain(t);
    await t.emu.clock.advance(0);
    expect(rx.requests).toHaveLength(0);
    const [d] = t.emu.webhookDeliveries();
    expect(d.status).toBe('pending');
    expect(d.attempts[0].error).toMatch(/^cannot sign/);
  });
});

describe('webhook delivery with the real clock', () => {
  const t = useFreshEmulatorPerTest({ clock: 'real' });

  it('delivers in the background, without any advance', async () => {
    let arrived!: () => void;
    const got = new Promise<void>((resolve) => (arrived = resolve));
    const rx = await receiver(() => {
      arrived();
      return 200;
    });
    const h = await hook(t, rx.url, ['domain.created']);
    await createDomain(t);
    await got;
    const resend = sdk(t);
    expect(resend.webhooks.verify(verifyInput(rx.requests[0], h.signing_secret))).toMatchObject({ type: 'domain.created' });
    await expect.poll(() => t.emu.webhookDeliveries()[0].status).toBe('succeeded');
  });
});

describe('webhook delivery: a receiver answering a huge body (issue 13, defect 2)', () => {
  const t = useFreshEmulatorPerTest();

  it('reads at most the excerpt, then drops the connection before the receiver finishes writing', async () => {
    const TOTAL = 256 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let written = 0;
    let finished = false;
    let closedEarly: Promise<boolean> = Promise.resolve(false);
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(TOTAL) });
        closedEarly = new Promise((resolve) => {
          res.on('close', () => resolve(!finished));
          res.on('finish', () => { finished = true; });
        });
        const pump = () => {
          while (written < TOTAL && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (written >= TOTAL) res.end();
        };
        pump();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
      await hook(t, url, ['domain.created']);
      await createDomain(t);
      await t.emu.clock.advance(0);
      const [d] = t.emu.webhookDeliveries();
      expect(d.status).toBe('succeeded');
      expect(d.attempts).toHaveLength(1);
      expect(d.attempts[0]).toMatchObject({ status_code: 200, error: null });
      expect(d.attempts[0].response!.length).toBe(4096);
      expect(await closedEarly).toBe(true);
      expect(finished).toBe(false);
      expect(written).toBeLessThan(TOTAL / 4);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
