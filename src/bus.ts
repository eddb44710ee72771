/**
 * The in-process event bus of one emulator (`ctx.bus`): notifications for
 * what waits on the emulator's state in the same process (the inbox page's
 * server-sent events, `GET /_emulator/events`; `waitForEmail` and the
 * `wait` long-poll; caches emptied on reset). Not the webhook events
 * (src/deliveries/) nor the custom events of the events resource.
 *
 * Every event is emitted after the transaction of its change commits
 * (src/store/after-commit.ts): `emit` inside `db.transaction(...)` waits for
 * the outermost commit, and a transaction (or savepoint) that rolls back
 * emits nothing, so a listener always finds the committed state the event
 * is about. Outside a transaction `emit` calls the listeners at once.
 */
import { EventEmitter } from 'node:events';
import { afterCommit, type TransactionState } from './store/after-commit.js';

/**
 * Every event of the bus: name → the listener's arguments. The one list:
 * `emit`, `on`, `once` and `off` take only these names and their payloads.
 */
export interface BusEvents {
  /** An email was created or changed (sent by the API, SMTP, a broadcast, an inbox, or a step of its delivery): its id (`notifyEmail`, src/resources/emails/store.ts). */
  email: [id: string];
  /** A webhook delivery was recorded, attempted or cancelled: its id (src/deliveries/emit.ts, src/deliveries/jobs.ts). */
  delivery: [id: string];
  /** A received email was stored (API, SMTP or an admin inbound post): its id, one event per receiving team's copy (src/resources/receiving/receive.ts). */
  inbound: [id: string];
  /** An API write (not GET) was answered with success: the caller's team and the operationId (the inbox page reloads its views; src/admin/inbox.ts). */
  change: [change: { team_id: string; operation: string }];
  /** The emulated clock moved (advance, or jobs run with the real clock): now, in ms since the epoch (src/clock/scheduler.ts). */
  clock: [nowMs: number];
  /** The state was replaced as a whole: a reset (src/state/reset.ts) or a snapshot import (src/state/snapshot.ts). */
  reset: [];
  /** The emulator is closing: waiters end, streams close (src/server.ts). */
  close: [];
}

/** The name of an event of the bus. */
export type BusEvent = keyof BusEvents;

/** A listener of event `K`: called with that event's payload. */
export type BusListener<K extends BusEvent> = (...args: BusEvents[K]) => void;

/** Told of a listener that threw: the event's name, its payload and the error (the emulator logs it: src/server.ts). */
export type ListenerErrorReport = (event: BusEvent, args: unknown[], err: unknown) => void;

/** The line logged for a listener that threw: the event with its payload, then the error's stack. */
export function listenerErrorText(event: BusEvent, args: unknown[], err: unknown): string {
  let payload: string;
  try {
    payload = JSON.stringify(args);
  } catch {
    payload = String(args);
  }
  return `a listener of the bus event ${event} ${payload} failed: ${(err as Error)?.stack ?? err}`;
}

/**
 * A typed emitter over node's `EventEmitter` (no listener limit), whose
 * `emit` waits for the commit of the transaction open on `db`, if any
 * (`afterCommit`). A listener that throws never fails the write that
 * emitted (it committed, and answers as committed): the error goes to
 * `onListenerError` with the event, and the other listeners still hear it.
 */
export class EventBus {
  private readonly emitter = new EventEmitter();

  /**
   * `db`: the emulator's store connection (only its `inTransaction` is read);
   * `onListenerError`: told of a listener that threw (default: one line on stderr).
   */
  constructor(
    private readonly db: TransactionState,
    private readonly onListenerError: ListenerErrorReport = (event, args, err) => void process.stderr.write(`[resend-emulator] error: ${listenerErrorText(event, args, err)}\n`),
  ) {
    this.emitter.setMaxListeners(0);
  }

  /** Emits `name` with `args` once the current transaction commits (at once outside one; never if it rolls back). */
  emit<K extends BusEvent>(name: K, ...args: BusEvents[K]): void {
    afterCommit(this.db, () => {
      // Each listener on its own (EventEmitter.emit stops at the first that throws); `rawListeners` keeps `once`'s removal.
      for (const listener of this.emitter.rawListeners(name) as ((...a: unknown[]) => void)[]) {
        try {
          listener(...args);
        } catch (err) {
          try {
            this.onListenerError(name, args, err);
          } catch {
            // A failing report must not fail the write either.
          }
        }
      }
    });
  }

  /** Adds a listener of `name`. */
  on<K extends BusEvent>(name: K, listener: BusListener<K>): this {
    this.emitter.on(name, listener as (...args: unknown[]) => void);
    return this;
  }

  /** Adds a listener of the next `name` only. */
  once<K extends BusEvent>(name: K, listener: BusListener<K>): this {
    this.emitter.once(name, listener as (...args: unknown[]) => void);
    return this;
  }

  /** Removes a listener added by `on` or `once`. */
  off<K extends BusEvent>(name: K, listener: BusListener<K>): this {
    this.emitter.off(name, listener as (...args: unknown[]) => void);
    return this;
  }

  /** How many listeners `name` has. */
  listenerCount(name: BusEvent): number {
    return this.emitter.listenerCount(name);
  }
}
