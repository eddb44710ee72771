/**
 * The event bus (src/bus.ts): every event is emitted after the transaction
 * of its change commits, so a listener finds the committed row it is about,
 * and a transaction that rolls back emits nothing.
 */
import { describe, expect, it, vi } from 'vitest';
import { FIXTURES, useFreshEmulatorPerTest } from './helpers.js';
import { emitEvent } from '../src/deliveries/emit.js';
import { busOf, contextOf, storeOf } from '../src/internals.js';

describe('ctx.bus', () => {
  // `record`: deliveries are recorded, never POSTed (the endpoint below listens nowhere).
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });

  async function domainHook() {
    await t.api.post('/webhooks').send({ endpoint: 'http://127.0.0.1:9/hooks', events: ['domain.created'] }).expect(201);
  }

  it('a delivery event reaches its listener after the commit, and the listener finds the delivery', async () => {
    await domainHook();
    const heard: { inTransaction: boolean; found: string | undefined }[] = [];
    busOf(t.emu).on('delivery', (id) => {
      heard.push({ inTransaction: storeOf(t.emu).inTransaction, found: t.emu.webhookDeliveries().find((d) => d.id === id)?.event_type });
    });
    await t.api.post('/domains').send({ name: 'bus.example' }).expect(201);
    expect(heard).toEqual([{ inTransaction: false, found: 'domain.created' }]);
  });

  it('an email event reaches its listener after the commit, and the listener finds the email', async () => {
    const heard: { inTransaction: boolean; subject: string | undefined }[] = [];
    busOf(t.emu).on('email', (id) => {
      heard.push({ inTransaction: storeOf(t.emu).inTransaction, subject: t.emu.emails().find((e) => e.id === id)?.subject });
    });
    const sent = await t.api.post('/emails').send({ from: 'Acme <hi@example.com>', to: 'delivered@resend.dev', subject: 'on the bus', html: '<p>x</p>' }).expect(200);
    expect(heard.length).toBeGreaterThan(0);
    expect(heard.every((h) => !h.inTransaction && h.subject === 'on the bus')).toBe(true);
    expect(t.emu.emails().map((e) => e.id)).toEqual([sent.body.id]);
  });

  it('a rolled-back transaction emits nothing (and records nothing)', async () => {
    await domainHook();
    const heard: string[] = [];
    busOf(t.emu).on('delivery', (id) => heard.push(id));
    const ctx = contextOf(t.emu);
    expect(() =>
      ctx.db.transaction(() => {
        expect(emitEvent(ctx, FIXTURES.defaultTeamId, 'domain.created', { id: 'd', name: 'rolled.example' })).toHaveLength(1);
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(heard).toEqual([]);
    expect(t.emu.webhookDeliveries()).toEqual([]);
  });

  it('a rolled-back savepoint emits nothing; the rest of its transaction emits once committed', async () => {
    await domainHook();
    const heard: { id: string; inTransaction: boolean }[] = [];
    busOf(t.emu).on('delivery', (id) => heard.push({ id, inTransaction: storeOf(t.emu).inTransaction }));
    const ctx = contextOf(t.emu);
    let kept: string[] = [];
    ctx.db.transaction(() => {
      kept = emitEvent(ctx, FIXTURES.defaultTeamId, 'domain.created', { id: 'd1', name: 'kept.example' });
      try {
        ctx.db.transaction(() => {
          emitEvent(ctx, FIXTURES.defaultTeamId, 'domain.created', { id: 'd2', name: 'lost.example' });
          throw new Error('savepoint rolled back');
        })();
      } catch {
        // the outer transaction goes on
      }
      expect(heard).toEqual([]);
    })();
    expect(heard).toEqual([{ id: kept[0], inTransaction: false }]);
    expect(t.emu.webhookDeliveries().map((d) => d.id)).toEqual(kept);
  });

  it('outside a transaction, emit calls the listeners at once; off removes one', () => {
    const heard: number[] = [];
    const onClock = (now: number) => heard.push(now);
    busOf(t.emu).on('clock', onClock);
    busOf(t.emu).emit('clock', 42);
    expect(heard).toEqual([42]);
    busOf(t.emu).off('clock', onClock);
    busOf(t.emu).emit('clock', 43);
    expect(heard).toEqual([42]);
  });

  it('a listener that throws: the write answers as committed, the other listeners still hear it, and the error is logged with the event', async () => {
    const heard: string[] = [];
    busOf(t.emu).on('email', () => {
      throw new Error('listener broke');
    });
    busOf(t.emu).on('email', (id) => heard.push(id));
    const once: string[] = [];
    busOf(t.emu).once('email', (id) => once.push(id));
    const lines: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: any) => (lines.push(String(chunk)), true));
    let sent;
    try {
      sent = await t.api.post('/emails').send({ from: 'Acme <hi@example.com>', to: 'delivered@resend.dev', subject: 'still sent', html: '<p>x</p>' });
    } finally {
      stderr.mockRestore();
    }
    expect(sent.status).toBe(200);
    expect(t.emu.emails().map((e) => e.id)).toEqual([sent.body.id]);
    expect(heard[0]).toBe(sent.body.id);
    expect(once).toEqual([sent.body.id]); // `once` still removes itself
    expect(busOf(t.emu).listenerCount('email')).toBe(2);
    const logged = lines.filter((l) => l.includes('listener broke'));
    expect(logged.length).toBeGreaterThan(0);
    expect(logged[0]).toMatch(new RegExp(`^\\[resend-emulator\\] error: a listener of the bus event email \\["${sent.body.id}"\\] failed: Error: listener broke`));
  });
});

