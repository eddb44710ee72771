/**
 * `toHaveDeliveredWebhook` means delivered (issue 35 item 2;
 * src/testing/matchers.ts): a delivery matches only once its endpoint
 * accepted it (2xx, status `succeeded`), unless the filter names another
 * status; a failure lists each candidate's attempts with their answer and
 * error. Every endpoint is on this machine: a receiver the test starts on
 * 127.0.0.1 (test/deliveries/receiver.ts), or a loopback port nothing
 * listens on; under `webhooks: 'record'` nothing is sent at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEmulator } from '../../src/vitest.js';
import { startReceiver, type Receiver } from '../deliveries/receiver.js';
import { failure } from './failure.js';

describe('sent to the endpoint (webhooks: send, the default)', () => {
  const emu = useEmulator();
  let rx: Receiver;
  // Paths pick the answer: /ok answers 200, /busy 500.
  beforeAll(async () => {
    rx = await startReceiver((_n, r) => (r.path.startsWith('/busy') ? 500 : 200), '/ok');
  });
  afterAll(() => rx.close());
  const endpoint = (path: '/ok' | '/busy') => rx.url.replace(/\/ok$/, path);

  async function sendWelcome(): Promise<string> {
    const { data, error } = await emu.resend.emails.send({ from: 'Acme <hello@example.com>', to: 'ada@example.net', subject: 'Welcome', html: '<p>Hi</p>' });
    expect(error).toBeNull();
    return data!.id;
  }

  it('passes once the endpoint answered 2xx', async () => {
    const { data: hook } = await emu.resend.webhooks.create({ endpoint: endpoint('/ok'), events: ['email.sent'] });
    const id = await sendWelcome();
    await emu.clock.advance('10s');
    expect(rx.requests.filter((r) => r.path === '/ok')).not.toHaveLength(0);
    expect(emu).toHaveDeliveredWebhook({ event_type: 'email.sent', webhook_id: hook!.id, data: { email_id: id } });
  });

  it('fails while the delivery is pending after a 500, listing the attempt with its answer and error and the next one due', async () => {
    await emu.resend.webhooks.create({ endpoint: endpoint('/busy'), events: ['email.sent'] });
    await sendWelcome();
    await emu.clock.advance('1s');
    expect(emu.webhookDeliveries()[0].status).toBe('pending');
    const message = failure(() => expect(emu).toHaveDeliveredWebhook({ event_type: 'email.sent' }));
    expect(message).toContain('expected a webhook delivery matching {"event_type":"email.sent"} and accepted by its endpoint (status "succeeded"), but none of the 1 recorded delivery matches. Closest:');
    expect(message).toMatch(/1\. msg_\S+ email\.sent to webhook \S+ \(pending\)\n {5}- status: "pending", expected "succeeded"/);
    expect(message).toMatch(/\n {7}attempt 1 at \S+: answered 500, endpoint answered 500\n {7}next attempt at \S+ \(emulated time: advance the clock to run it\)/);
  });

  it('fails on a delivery the endpoint never answered (connection refused), naming the error', async () => {
    // A receiver closed at once: nothing listens on its port, the attempt is refused on this machine.
    const gone = await startReceiver();
    await gone.close();
    await emu.resend.webhooks.create({ endpoint: gone.url, events: ['email.sent'] });
    await sendWelcome();
    await emu.clock.advance('1s');
    const message = failure(() => expect(emu).toHaveDeliveredWebhook({ event_type: 'email.sent' }));
    expect(message).toMatch(/attempt 1 at \S+: no answer, ECONNREFUSED/);
  });

  it('fails once every retry failed, listing the eight attempts', async () => {
    await emu.resend.webhooks.create({ endpoint: endpoint('/busy'), events: ['email.sent'] });
    await sendWelcome();
    await emu.clock.advance('30h');
    expect(emu.webhookDeliveries()[0].status).toBe('failed');
    const message = failure(() => expect(emu).toHaveDeliveredWebhook({ event_type: 'email.sent' }));
    expect(message).toContain('(failed)\n     - status: "failed", expected "succeeded"');
    expect(message.match(/attempt \d at \S+: answered 500, endpoint answered 500/g)).toHaveLength(8);
    expect(message).not.toContain('next attempt at');
  });

  it('.not passes when no attempt was accepted (nothing was delivered)', async () => {
    await emu.resend.webhooks.create({ endpoint: endpoint('/busy'), events: ['email.sent'] });
    await sendWelcome();
    await emu.clock.advance('1s');
    expect(emu).not.toHaveDeliveredWebhook({ event_type: 'email.sent' });
  });

  it('passes for a pending delivery when the filter names status pending', async () => {
    await emu.resend.webhooks.create({ endpoint: endpoint('/busy'), events: ['email.sent'] });
    await sendWelcome();
    await emu.clock.advance('1s');
    expect(emu).toHaveDeliveredWebhook({ event_type: 'email.sent', status: 'pending' });
  });

  it('passes for a failed delivery when the filter names status failed', async () => {
    await emu.resend.webhooks.create({ endpoint: endpoint('/busy'), events: ['email.sent'] });
    await sendWelcome();
    await emu.clock.advance('30h');
    expect(emu).toHaveDeliveredWebhook({ event_type: 'email.sent', status: 'failed' });
  });

  it('passes once a later retry is accepted', async () => {
    let answers = 0;
    const flaky = await startReceiver(() => (++answers === 1 ? 503 : 204));
    try {
      await emu.resend.webhooks.create({ endpoint: flaky.url, events: ['email.sent'] });
      await sendWelcome();
      await emu.clock.advance('1s');
      expect(emu).not.toHaveDeliveredWebhook({ event_type: 'email.sent' });
      await emu.clock.advance('5s');
      expect(emu).toHaveDeliveredWebhook({ event_type: 'email.sent' });
    } finally {
      await flaky.close();
    }
  });
});

describe("recorded, not sent (webhooks: 'record')", () => {
  const emu = useEmulator({ webhooks: 'record' });

  it("a recorded delivery matches only when the filter names status 'recorded'; without it the failure says why", async () => {
    // Nothing is sent in record mode: the endpoint is never reached.
    await emu.resend.webhooks.create({ endpoint: 'http://127.0.0.1:9/hooks', events: ['email.sent'] });
    await emu.resend.emails.send({ from: 'Acme <hello@example.com>', to: 'ada@example.net', subject: 'Welcome', html: '<p>Hi</p>' });
    await emu.clock.advance('1s');
    expect(emu).toHaveDeliveredWebhook({ event_type: 'email.sent', status: 'recorded' });
    const message = failure(() => expect(emu).toHaveDeliveredWebhook({ event_type: 'email.sent' }));
    expect(message).toMatch(/- status: "recorded", expected "succeeded"[^\n]*\n {7}attempt 1 at \S+: no answer, not sent: --webhooks record\n/);
    expect(message).toContain("The emulator runs with webhooks: 'record' (--webhooks record): nothing is sent, so nothing is accepted. Add status: 'recorded' to the filter to match what was recorded.");
  });
});
