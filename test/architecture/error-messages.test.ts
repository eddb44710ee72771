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
const MOVED = [
  'api-keys', 'automations', 'broadcasts', 'contact-imports', 'contact-properties', 'contacts', 'domains', 'emails', 'events', 'templates', 'topics', 'webhooks',
];
/**
 * An error made with its text written in place, also across lines:
 * `errors.validation('…`, `new ApiError(422, 'x', `…`, `errors.validation(\n  `…`;
 * or a wrapper that makes its callers write the text, passing a bare
 * parameter as the message: `errors.validation(message, 403)`,
 * `new ApiError(status, name, text)`.
 */
const INLINE = /(?:errors\.(?:validation|invalidParameter)\(\s*|new ApiError\(\s*[^,()]+\s*,\s*[^,()]+,\s*)(?:['"`]|[a-z_$][\w$]*\s*[,)])/g;
/** What the messages tables accept as a source (`MessageSource`). */
const SOURCE = /^(docs\/reference\/.+|REC:.+|SDK:.+|D:.+|emulator choice)$/;

/** Where `code` writes a message inline: the line number and the start of each. */
function inlineMessages(code: string): string[] {
  return [...code.matchAll(INLINE)].map((m) => `${code.slice(0, m.index).split('\n').length}: ${m[0].replace(/\s+/g, ' ')}`);
}

describe('error messages in tables', () => {
  it('the check finds an inline message on one line (self-test)', () => {
    expect(inlineMessages("  throw errors.validation('The `x` field is bad.', 422);\n  throw new ApiError(422, 'validation_error', `No ${x}.`);\n  throw messages.bad();")).toEqual([
      "1: errors.validation('",
      '2: new ApiError(422, \'validation_error\', `',
    ]);
  });

  it('the check finds a message written over several lines (self-test)', () => {
    const code = "throw errors.validation(\n  `You can only ${x}.`,\n  403,\n);\nthrow new ApiError(\n  422,\n  'invalid_attachment',\n  'Bad.',\n);";
    expect(inlineMessages(code)).toHaveLength(2);
  });

  it('the check finds a wrapper that takes its text from its callers (self-test)', () => {
    const code = 'function statusError(message: string) {\n  return errors.validation(message, 403);\n}\nconst e = new ApiError(status, name, text);';
    expect(inlineMessages(code)).toEqual(['2: errors.validation(message,', '4: new ApiError(status, name, text)']);
  });

  it('the check passes a table entry, a shared template and a message from a table (self-test)', () => {
    const code = "throw emailMessages.notScheduled(id, 'sent', 'canceled');\nthrow errors.notFound('Contact');\nthrow errors.validation(err.message, 422);\nthrow new ApiError(429, name, ERROR_NAMES[name].message, headers);";
    expect(inlineMessages(code)).toEqual([]);
  });

  for (const resource of MOVED) {
    it(`${resource}: every message is in messages.ts, each with its source`, async () => {
      const dir = path.join(ROOT, resource);
      const inline = fs.readdirSync(dir)
        .filter((f) => f.endsWith('.ts') && f !== 'messages.ts')
        .flatMap((f) => inlineMessages(fs.readFileSync(path.join(dir, f), 'utf8')).map((hit) => `${f}:${hit}`));
      expect(inline).toEqual([]);
      const table = (await import(path.join(dir, 'messages.ts'))) as Record<string, Record<string, { source?: unknown }>>;
      const entries = Object.values(table).flatMap((t) => Object.entries(t));
      expect(entries.length).toBeGreaterThan(0);
      for (const [name, entry] of entries) expect(`${name}: ${String(entry.source)}`).toMatch(new RegExp(`^${name}: ${SOURCE.source.slice(1)}`));
    });
  }
});
