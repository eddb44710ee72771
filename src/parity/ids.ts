/**
 * Ids across two sides: a resource created on both sides has a different
 * id on each, so a later call that names it must name, on the other side,
 * the id that side gave. An `IdMap` learns the pairs from two answers to
 * the same call and rewrites a request of one side for the other.
 */

/** A value that is an id: a key `id` or `*_id`, with a string value. */
function isIdKey(key: string): boolean {
  return key === 'id' || key.endsWith('_id');
}

/** Pairs of ids, from the ids of one side (`from`) to the other's (`to`). */
export class IdMap {
  private readonly pairs = new Map<string, string>();

  /**
   * Walks `from` and `to` (two parsed JSON answers to the same call) side by
   * side and records, at each `id` / `*_id` key where both hold different
   * strings, that `from`'s id is `to`'s. Arrays are walked index by index.
   */
  learn(from: unknown, to: unknown, key = ''): void {
    if (typeof from === 'string' && typeof to === 'string') {
      if (isIdKey(key) && from !== to && from.length >= 6) this.pairs.set(from, to);
      return;
    }
    if (Array.isArray(from) && Array.isArray(to)) {
      for (let i = 0; i < Math.min(from.length, to.length); i++) this.learn(from[i], to[i], key);
      return;
    }
    if (from && to && typeof from === 'object' && typeof to === 'object') {
      for (const [k, v] of Object.entries(from)) this.learn(v, (to as Record<string, unknown>)[k], k);
    }
  }

  /** `text` (a path, a query, a JSON body) with every known `from` id replaced by its `to` id. */
  apply(text: string): string {
    let out = text;
    for (const [from, to] of this.pairs) if (out.includes(from)) out = out.split(from).join(to);
    return out;
  }

  /** How many pairs are known. */
  get size(): number {
    return this.pairs.size;
  }
}
