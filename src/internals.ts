/**
 * The internals of an emulator made in this process, out of its public type.
 *
 * `startServer()` and `createApp()` (src/index.ts) hand out an
 * `EmulatorInstance`: named methods only, whose declarations name no
 * internal interface (the store, the bus, the scheduler), so the package's
 * published types need none of its internals' type packages. What reaches
 * further in is here, looked up by the instance: this repository's tests
 * import these functions from `src/internals.ts` directly (no package entry
 * exports them), and `interceptResendApi` (src/intercept.ts) ends an
 * interception when its emulator closes. Grouped by what they reach:
 *
 * | accessor | gives | for |
 * |---|---|---|
 * | `storeOf(emu)` | the store (`DB`, src/store/db.ts) | reading or writing a table, PRAGMAs |
 * | `busOf(emu)` | the event bus (`EventBus`, src/bus.ts) | `listenerAdded` (test/helpers.ts), listening to `email`, `delivery`, `clock`, ... |
 * | `schedulerOf(emu)` | the scheduler (src/clock/scheduler.ts) | the pending jobs, `exclusive` |
 * | `contextOf(emu)` | the whole `Emulator` (src/context.ts) | calling a room's own function (`loadEmail(ctx, id)`), its `config` and `runtime` |
 *
 * The emulated time and its advance are public (`emu.clock`), as is the
 * base of handed-out URLs (`emu.baseUrl()`).
 */
import type { EventBus } from './bus.js';
import type { Scheduler } from './clock/scheduler.js';
import type { Emulator } from './context.js';
import type { DB } from './store/db.js';

/** Each instance handed out by `startServer()` / `createApp()` → its context (weakly: a dropped instance keeps nothing alive). */
const contexts = new WeakMap<object, Emulator>();

/** Records `ctx` as the internals of `instance` (src/index.ts, once per instance handed out); returns `instance`. */
export function registerInternals<T extends object>(instance: T, ctx: Emulator): T {
  contexts.set(instance, ctx);
  return instance;
}

/** The context of `target` when it is an emulator instance made in this process, else undefined. */
export function findContext(target: object): Emulator | undefined {
  return contexts.get(target);
}

/**
 * The whole context (`Emulator`, src/context.ts) of an instance from
 * `startServer()` / `createApp()` of this process: to call a room's own
 * functions (`loadEmail(contextOf(emu), id)`), or read its `config` and
 * `runtime`. Throws a TypeError for anything else (an instance of another
 * copy of the package, a connection to a running emulator).
 */
export function contextOf(emu: object): Emulator {
  const ctx = contexts.get(emu);
  if (!ctx) throw new TypeError('not an emulator made by startServer() or createApp() in this process');
  return ctx;
}

/** The store (src/store/db.ts) of an instance: to read or write a table directly. Throws as `contextOf`. */
export function storeOf(emu: object): DB {
  return contextOf(emu).db;
}

/** The in-process event bus (src/bus.ts) of an instance: events are emitted after their change commits. Throws as `contextOf`. */
export function busOf(emu: object): EventBus {
  return contextOf(emu).bus;
}

/** The job scheduler (src/clock/scheduler.ts) of an instance: its pending jobs; an advance goes through the public `emu.clock.advance`. Throws as `contextOf`. */
export function schedulerOf(emu: object): Scheduler {
  return contextOf(emu).scheduler;
}
