/**
 * Work queued for after the commit (src/store/after-commit.ts), through the
 * transaction wrapper of src/store/db.ts: it runs once the outermost
 * transaction commits, sees the committed rows, and is dropped with a
 * transaction or savepoint that rolls back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type DB } from '../../src/store/db.js';
import { afterCommit, reportCallbackErrors } from '../../src/store/after-commit.js';

let db: DB;
beforeEach(() => {
  db = openDatabase(':memory:');
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY)');
});
afterEach(() => db.close());

/** Queues a callback that records, when it runs, whether a transaction is open and which ids the table holds. */
function recorder() {
  const runs: { label: string; inTransaction: boolean; ids: string[] }[] = [];
  const queue = (label: string) =>
    afterCommit(db, () => runs.push({ label, inTransaction: db.inTransaction, ids: (db.prepare('SELECT id FROM t ORDER BY id').all() as { id: string }[]).map((r) => r.id) }));
  return { runs, queue };
}
const insert = (id: string) => db.prepare('INSERT INTO t (id) VALUES (?)').run(id);

describe('afterCommit', () => {
  it('runs at once outside a transaction', () => {
    const { runs, queue } = recorder();
    queue('now');
    expect(runs).toEqual([{ label: 'now', inTransaction: false, ids: [] }]);
  });

  it('inside a transaction, waits for the commit and then sees the committed rows, in the order queued', () => {
    const { runs, queue } = recorder();
    db.transaction(() => {
      insert('a');
      queue('first');
      insert('b');
      queue('second');
      expect(runs).toEqual([]);
    })();
    expect(runs).toEqual([
      { label: 'first', inTransaction: false, ids: ['a', 'b'] },
      { label: 'second', inTransaction: false, ids: ['a', 'b'] },
    ]);
  });

  it('waits for the outermost transaction, not a nested one (a savepoint)', () => {
    const { runs, queue } = recorder();
    db.transaction(() => {
      db.transaction(() => {
        insert('a');
        queue('inner');
      })();
      expect(runs).toEqual([]);
      insert('b');
    })();
    expect(runs).toEqual([{ label: 'inner', inTransaction: false, ids: ['a', 'b'] }]);
  });

  it('drops what a rolled-back transaction queued', () => {
    const { runs, queue } = recorder();
    expect(() =>
      db.transaction(() => {
        insert('a');
        queue('lost');
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    expect(runs).toEqual([]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 0 });
    // Nothing left queued: the next commit runs only its own.
    db.transaction(() => queue('next'))();
    expect(runs.map((r) => r.label)).toEqual(['next']);
  });

  it('drops what a rolled-back savepoint queued and keeps the rest of the transaction', () => {
    const { runs, queue } = recorder();
    db.transaction(() => {
      insert('a');
      queue('before');
      try {
        db.transaction(() => {
          insert('b');
          queue('in the savepoint');
          throw new Error('savepoint rolled back');
        })();
      } catch {
        // the outer transaction goes on
      }
      queue('after');
    })();
    expect(runs).toEqual([
      { label: 'before', inTransaction: false, ids: ['a'] },
      { label: 'after', inTransaction: false, ids: ['a'] },
    ]);
  });

  it('drops everything when a failing commit rolls the transaction back', () => {
    db.exec('CREATE TABLE child (parent TEXT REFERENCES t (id) DEFERRABLE INITIALLY DEFERRED)');
    const { runs, queue } = recorder();
    // A deferred foreign key fails at COMMIT, after the function returned.
    expect(() =>
      db.transaction(() => {
        db.prepare('INSERT INTO child (parent) VALUES (?)').run('missing');
        queue('lost');
      })(),
    ).toThrow(/FOREIGN KEY/);
    expect(db.inTransaction).toBe(false);
    expect(runs).toEqual([]);
  });

  it('a callback that throws: the others still run, the commit stands and answers as committed, the error goes to the reporter', () => {
    const { runs, queue } = recorder();
    const reported: unknown[] = [];
    reportCallbackErrors(db, (err) => reported.push(err));
    const result = db.transaction(() => {
      insert('a');
      afterCommit(db, () => {
        throw new Error('listener failed');
      });
      queue('still runs');
      return 'committed';
    })();
    expect(result).toBe('committed');
    expect(runs).toEqual([{ label: 'still runs', inTransaction: false, ids: ['a'] }]);
    expect(reported).toEqual([new Error('listener failed')]);
  });

  it('a callback that throws outside a transaction: the error goes to the reporter, not to the caller', () => {
    const reported: unknown[] = [];
    reportCallbackErrors(db, (err) => reported.push(err));
    expect(() => afterCommit(db, () => {
      throw new Error('listener failed');
    })).not.toThrow();
    expect(reported).toEqual([new Error('listener failed')]);
  });

  it('a callback may write in a transaction of its own, whose queue runs when it commits', () => {
    const { runs, queue } = recorder();
    db.transaction(() => {
      insert('a');
      afterCommit(db, () =>
        db.transaction(() => {
          insert('b');
          queue('from the callback');
        })(),
      );
    })();
    expect(runs).toEqual([{ label: 'from the callback', inTransaction: false, ids: ['a', 'b'] }]);
  });
});
