/**
 * Work that must wait until the store's writes are committed: what the
 * event bus (`ctx.bus`, src/bus.ts) tells its listeners (the inbox page's
 * server-sent events, `waitForEmail`, long-polls) is only ever committed
 * state, and a write that rolls back tells them nothing (a listener that reads the row must find it).
 *
 * Every transaction of a connection goes through `runTransaction`
 * (`db.transaction(fn)` of src/store/db.ts calls it at every level): a
 * callback queued with `afterCommit` inside a transaction runs right after
 * the outermost transaction commits, in the order queued; one queued inside
 * a savepoint that rolls back (the nested `db.transaction` threw) is dropped
 * with it, as is everything when the outermost transaction rolls back.
 * A transaction cannot span an `await` (better-sqlite3 transactions are
 * synchronous), so "in a transaction" is always the current synchronous run.
 *
 * Types only by shape (`{ inTransaction }`, what better-sqlite3's
 * `Database` has), so this file and src/store/db.ts import each other in no
 * circle.
 */

/** What this file needs of a connection: whether a transaction is open on it (better-sqlite3's `db.inTransaction`). */
export interface TransactionState {
  readonly inTransaction: boolean;
}

/** The callbacks waiting for the outermost transaction of each connection to commit. */
const queues = new WeakMap<TransactionState, (() => void)[]>();

/** Where a connection's callback errors go (`reportCallbackErrors`). */
const reporters = new WeakMap<TransactionState, (err: unknown) => void>();

/**
 * Sets where the errors of `db`'s after-commit callbacks go (the emulator's
 * log: src/server.ts). A write that committed answers as committed: a
 * callback's error never reaches the caller that committed. Without a
 * reporter, the error is written to stderr as one line.
 */
export function reportCallbackErrors(db: TransactionState, report: (err: unknown) => void): void {
  reporters.set(db, report);
}

/** Hands a callback's error to the connection's reporter; never throws. */
function report(db: TransactionState, err: unknown): void {
  try {
    const reporter = reporters.get(db);
    if (reporter) reporter(err);
    else process.stderr.write(`[resend-emulator] error: a callback after a commit failed: ${(err as Error)?.stack ?? err}\n`);
  } catch {
    // A failing reporter must not fail the write either.
  }
}

/**
 * Runs `fn` once the writes made so far are committed: at once (synchronously)
 * when no transaction is open on `db`, else right after the outermost
 * transaction commits, never if the transaction (or the savepoint it was
 * queued in) rolls back. What `fn` throws never reaches the caller (the
 * write stands and answers as committed): it goes to the connection's
 * reporter (`reportCallbackErrors`), and the other queued callbacks still run.
 */
export function afterCommit(db: TransactionState, fn: () => void): void {
  if (!db.inTransaction) {
    try {
      fn();
    } catch (err) {
      report(db, err);
    }
    return;
  }
  let queue = queues.get(db);
  if (!queue) {
    queue = [];
    queues.set(db, queue);
  }
  queue.push(fn);
}

/**
 * Runs one level of a transaction on `db`: `run` is the driver's
 * transaction function (BEGIN … COMMIT, or SAVEPOINT … RELEASE when one is
 * open already; it rolls back and rethrows when its function throws).
 * When `run` throws, the callbacks queued during it are dropped; when it
 * returns and was the outermost level, the queue runs (`afterCommit`).
 * Returns what `run` returns; throws what `run` throws (never what a
 * queued callback throws: that goes to `reportCallbackErrors`'s reporter).
 */
export function runTransaction<T>(db: TransactionState, run: () => T): T {
  const outermost = !db.inTransaction;
  const mark = queues.get(db)?.length ?? 0;
  let result: T;
  try {
    result = run();
  } catch (err) {
    const queue = queues.get(db);
    if (queue) queue.length = mark;
    throw err;
  }
  if (outermost) flush(db);
  return result;
}

/** Runs (and empties) the queue of `db`; a callback's error is reported (`reportCallbackErrors`), never thrown. */
function flush(db: TransactionState): void {
  const queue = queues.get(db);
  if (!queue?.length) return;
  // Taken first: a callback may open (and commit) transactions of its own, which flush what they queue themselves.
  const due = queue.splice(0);
  for (const fn of due) {
    try {
      fn();
    } catch (err) {
      report(db, err);
    }
  }
}
