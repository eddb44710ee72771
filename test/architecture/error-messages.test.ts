/**
 * Error messages live in tables: a resource's own messages in its
 * `messages.ts`, each with the source of its text (`message`,
 * src/http/errors.ts); the shared templates in src/http/errors.ts. No other
 * file of any resource writes a message inline.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../src/resources');
/**
 * Every resource folder. One whose errors are all shared templates
 * (segments, suppressions, oauth, logs: only `errors.notFound`) has no
 * table of its own.
 */
const RESOURCES = fs.readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
/**
 * An error made with its text written in place, over one line or several:
 * - `errors.validation(` / `errors.invalidParameter(` whose message holds a
 *   string literal (`'…'`, `` `…` ``, or one in a conditional);
 * - `new ApiError(status, name, ` whose message holds a string literal (any
 *   status expression, a conditional message too);
 * - free text passed through a shared template meant for one name: a
 *   `errors.missingField(` / `errors.missingParameter(` literal with a backtick
 *   in it (``'html` or `text'``), a `errors.notFound(` template literal;
 * - a wrapper that makes its callers write the text: a bare parameter as the
 *   message (`errors.validation(message, 403)`, `new ApiError(status, name,
 *   text)`). A message another error made (`err.message`) is not one.
 */
const INLINE = new RegExp(
  [
    /errors\.(?:validation|invalidParameter)\(\s*[^,)]*?['"`]/.source,
    /new ApiError\(\s*[^,()]+,\s*[^,()]+,\s*[^,)]*?['"`]/.source,
    /errors\.missing(?:Field|Parameter)\(\s*(?:'[^'\n]*`|"[^"\n]*`)/.source,
    /errors\.notFound\(\s*`/.source,
    /(?:errors\.(?:validation|invalidParameter)\(|new ApiError\(\s*[^,()]+,\s*[^,()]+,)\s*[a-z_$][\w$]*\s*[,)]/.source,
  ].join('|'),
  'g',
);
/** What the messages tables accept as a source (`MessageSource`). */
const SOURCE = /^(docs\/reference\/.+|REC:.+|SDK:.+|D:.+|emulator choice)$/;

/** Where `code` writes a message inline: `line: text` of the line each such error starts on. */
function inlineMessages(code: string): string[] {
  const lines = code.split('\n');
  return [...code.matchAll(INLINE)].map((m) => {
    const n = code.slice(0, m.index).split('\n').length;
    return `${n}: ${lines[n - 1]!.trim()}`;
  });
}

describe('error messages in tables', () => {
  it('the check finds an inline message on one line (self-test)', () => {
    expect(inlineMessages("  throw errors.validation('The `x` field is bad.', 422);\n  throw new ApiError(422, 'validation_error', `No ${x}.`);\n  throw messages.bad();")).toHaveLength(2);
  });

  it('the check finds a message written over several lines, in a conditional, or with any status (self-test)', () => {
    const code = [
      'throw errors.validation(',
      '  `The ${names} domains are bad.`,',
      '  422,',
      ');',
      "throw new ApiError(404, 'not_found', quoted ? `Label \"${id}\" not found.` : 'Label not found.');",
      "throw new ApiError(status, 'not_found', 'Gone.');",
      'throw new ApiError(',
      '  409,',
      "  'validation_error',",
      "  'Sent already.',",
      ');',
    ].join('\n');
    expect(inlineMessages(code).map((l) => Number(l.split(':')[0]))).toEqual([1, 5, 6, 7]);
  });

  it('the check finds free text passed through a template meant for one name (self-test)', () => {
    expect(inlineMessages("throw errors.missingField('html` or `text');\nthrow errors.missingParameter(\"a` or `b\");\nthrow errors.notFound(`${kind}`);")).toHaveLength(3);
  });

  it('the check finds a wrapper that takes its text from its callers (self-test)', () => {
    const code = [
      'function statusError(message: string): ApiError {',
      '  return errors.validation(message, 403);',
      '}',
      'const e = new ApiError(status, name, text);',
      'const f = errors.invalidParameter(',
      '  text,',
      ');',
    ].join('\n');
    expect(inlineMessages(code).map((l) => Number(l.split(':')[0]))).toEqual([2, 4, 5]);
  });

  it('the check leaves shared templates and messages made elsewhere alone (self-test)', () => {
    const code = [
      "throw errors.missingField('name');",
      "throw errors.notFound('OAuth grant');",
      'throw errors.validation(err.message, 422);',
      'throw new ApiError(429, name, ERROR_NAMES[name].message, this.headers());',
      "throw new ApiError(e.status, e.name, e.message, { 'retry-after': '1' });",
      'throw inboxMessages.labelNameTaken(b.name);',
    ].join('\n');
    expect(inlineMessages(code)).toEqual([]);
  });

  for (const resource of RESOURCES) {
    it(`${resource}: every message is in messages.ts, each with its source`, async () => {
      const dir = path.join(ROOT, resource);
      const inline = fs.readdirSync(dir)
        .filter((f) => f.endsWith('.ts') && f !== 'messages.ts')
        .flatMap((f) => inlineMessages(fs.readFileSync(path.join(dir, f), 'utf8')).map((line) => `${f}: ${line.trim()}`));
      expect(inline).toEqual([]);
      const file = path.join(dir, 'messages.ts');
      if (!fs.existsSync(file)) return; // no message of its own: every error is a shared template
      const table = (await import(file)) as Record<string, Record<string, { source?: unknown }>>;
      const entries = Object.values(table).flatMap((t) => Object.entries(t));
      expect(entries.length).toBeGreaterThan(0);
      for (const [name, entry] of entries) expect(`${name}: ${String(entry.source)}`).toMatch(new RegExp(`^${name}: ${SOURCE.source.slice(1)}`));
    });
  }
});
