/**
 * Error messages live in tables (issue 31 item 8): a resource's own messages
 * in its `messages.ts`, each with the source of its text (`message`,
 * src/http/errors.ts); the shared templates in src/http/errors.ts. For the
 * resources moved so far (`MOVED`; the list grows resource by resource), no
 * other file of the resource writes a message inline.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../src/resources');
/** Resources whose messages are all in their `messages.ts`. */
const MOVED = ['api-keys', 'contact-imports', 'contact-properties', 'domains', 'events', 'templates', 'topics', 'webhooks'];
/** An error made with its text written in place: `errors.validation('…`, `new ApiError(422, 'x', `…`. */
const INLINE = /(?:errors\.(?:validation|invalidParameter)\(\s*|new ApiError\(\s*\d+\s*,\s*[^,]+,\s*)['"`]/;
/** What the messages tables accept as a source (`MessageSource`). */
const SOURCE = /^(docs\/reference\/.+|REC:.+|SDK:.+|D:.+|emulator choice)$/;

/** The lines of `code` that write a message inline. */
function inlineMessages(code: string): string[] {
  return code.split('\n').filter((line) => INLINE.test(line));
}

describe('error messages in tables', () => {
  it('the check finds an inline message (self-test)', () => {
    expect(inlineMessages("  throw errors.validation('The `x` field is bad.', 422);\n  throw new ApiError(422, 'validation_error', `No ${x}.`);\n  throw messages.bad();")).toHaveLength(2);
  });

  for (const resource of MOVED) {
    it(`${resource}: every message is in messages.ts, each with its source`, async () => {
      const dir = path.join(ROOT, resource);
      const inline = fs.readdirSync(dir)
        .filter((f) => f.endsWith('.ts') && f !== 'messages.ts')
        .flatMap((f) => inlineMessages(fs.readFileSync(path.join(dir, f), 'utf8')).map((line) => `${f}: ${line.trim()}`));
      expect(inline).toEqual([]);
      const table = (await import(path.join(dir, 'messages.ts'))) as Record<string, Record<string, { source?: unknown }>>;
      const entries = Object.values(table).flatMap((t) => Object.entries(t));
      expect(entries.length).toBeGreaterThan(0);
      for (const [name, entry] of entries) expect(`${name}: ${String(entry.source)}`).toMatch(new RegExp(`^${name}: ${SOURCE.source.slice(1)}`));
    });
  }
});
