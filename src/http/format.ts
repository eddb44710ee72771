/**
 * Output formats shared by every resource.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { extname } from 'node:path';
import { lazy, requirePackage } from '../lazy.js';

/** mime-types (mime-db's 200 KB table), loaded on the first lookup. */
const mimeTypes = lazy(() => requirePackage<typeof import('mime-types')>('mime-types'));

/**
 * Renders emulated milliseconds as the API timestamp
 * `YYYY-MM-DD HH:MM:SS.ffffff+00` (docs/reference/interface-spec.md#conventions; six fraction
 * digits, docs/reference/formats.md#timestamps). `null`/`undefined` → `null`.
 */
export function apiTime(ms: number): string;
export function apiTime(ms: number | null | undefined): string | null;
export function apiTime(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  // A list renders many rows of the same instant (the manual clock stands still): the last one is kept.
  if (ms === lastApiTime.ms) return lastApiTime.text;
  const iso = new Date(ms).toISOString(); // 2026-11-22T10:00:00.123Z
  const text = `${iso.slice(0, 10)} ${iso.slice(11, 19)}.${iso.slice(20, 23)}000+00`;
  lastApiTime.ms = ms;
  lastApiTime.text = text;
  return text;
}

/** The last instant `apiTime` rendered, and its text. */
const lastApiTime: { ms: number; text: string | null } = { ms: Number.NaN, text: null };

/** Renders emulated ms as ISO 8601 with `Z`, the webhook payload format (docs/reference/formats.md#timestamps). */
export function isoTime(ms: number): string;
export function isoTime(ms: number | null | undefined): string | null;
export function isoTime(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  return new Date(ms).toISOString();
}

/** A new public id: lower-case UUID v4 (docs/reference/formats.md#ids-and-tokens). */
export function newId(): string {
  return randomUUID();
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `n` random characters from [A-Za-z0-9]. */
export function randomAlnum(n: number): string {
  const bytes = randomBytes(n);
  let out = '';
  for (let i = 0; i < n; i++) out += ALNUM[bytes[i] % ALNUM.length];
  return out;
}

/** Parses a stored JSON column; `null` stays `null`. */
export function fromJson<T>(text: string | null | undefined): T | null {
  if (text === null || text === undefined) return null;
  return JSON.parse(text) as T;
}

/** `reply_to` input (one address, several or null) → the stored array, or null when absent or empty. */
export function replyToList(v: string | string[] | null | undefined): string[] | null {
  if (v === undefined || v === null) return null;
  const list = Array.isArray(v) ? v : [v];
  return list.length ? list : null;
}

/**
 * The content type of a file name's extension, from mime-db through
 * `mime-types` (the table express itself uses), `application/octet-stream`
 * when the name has no extension or an unknown one. The one table for
 * attachments sent (POST /emails without `content_type`) and received
 * (POST /_emulator/inbound); one implementation, shared.
 */
export function contentTypeOf(filename: string | null | undefined): string {
  const ext = filename ? extname(filename) : '';
  return (ext && mimeTypes().lookup(ext)) || 'application/octet-stream';
}
