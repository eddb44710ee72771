/**
 * The normaliser: a JSON body reduced to its shape, so two answers to the
 * same call compare by what a client relies on, not by data. A shape maps
 * each path (`$`, `$.data[]`, `$.data[].id`) to the kinds of value found
 * there:
 * - `null`, `boolean`, `number`, `object`, `array`;
 * - a string as `string`, or by its format: `string<uuid>`,
 *   `string<time:sql>` (`2025-10-21 17:47:59.123456+00`, the service's
 *   timestamps, docs/reference/formats.md#timestamps), `string<time:iso>`
 *   (ISO 8601), so ids and times compare by format only;
 * - a string the document declares an `enum` for (spec/openapi.yaml, the
 *   response schema of the operation and status) by its value:
 *   `enum:"delivered"`.
 * An array's items share one path (`[]`), their kinds merged; so do the
 * values of a map (`{}`: an object the document declares with
 * `additionalProperties` only, whose keys are data, such as a contact's
 * `properties`).
 */
import type { Schema } from '../http/spec.js';

/** Path (`$`, `$.data[]`, `$.properties{}`, …) → the kinds of value found there. */
export type Shape = Map<string, Set<string>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SQL_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?\+00(:?00)?$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

/** The kind of a string that is not an enum's: its format when it has one of the known ones. */
export function stringKind(value: string): string {
  if (UUID.test(value)) return 'string<uuid>';
  if (SQL_TIME.test(value)) return 'string<time:sql>';
  if (ISO_TIME.test(value)) return 'string<time:iso>';
  return 'string';
}

/** Every schema `schema` stands for: itself and, recursively, its `allOf`, `oneOf` and `anyOf` members. */
function alternatives(schema: Schema | undefined): Schema[] {
  if (!schema) return [];
  const out: Schema[] = [schema];
  for (const s of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) out.push(...alternatives(s));
  return out;
}

/** The schemas of property `key` of an object described by `schemas` (declared properties, else `additionalProperties`). */
function propertySchemas(schemas: Schema[], key: string): Schema[] {
  const out: Schema[] = [];
  for (const s of schemas.flatMap(alternatives)) {
    if (s.properties?.[key]) out.push(s.properties[key]);
    else if (s.additionalProperties && typeof s.additionalProperties === 'object') out.push(s.additionalProperties);
  }
  return out;
}

/** The schemas of the items of an array described by `schemas`. */
function itemSchemas(schemas: Schema[]): Schema[] {
  return schemas.flatMap(alternatives).flatMap((s) => (s.items ? [s.items] : []));
}

/** The value schemas of a map (`additionalProperties` a schema, no declared `properties`), whose keys are data; null when `schemas` describe no map. */
function mapValueSchemas(schemas: Schema[]): Schema[] | null {
  const all = schemas.flatMap(alternatives);
  const values = all.flatMap((s) => (!s.properties && s.additionalProperties && typeof s.additionalProperties === 'object' ? [s.additionalProperties] : []));
  return values.length && !all.some((s) => s.properties) ? values : null;
}

/** Whether the schemas declare an enum (or a `const`) of strings for the value. */
function declaresEnum(schemas: Schema[]): boolean {
  return schemas.flatMap(alternatives).some((s) => (Array.isArray(s.enum) && s.enum.some((v) => typeof v === 'string')) || typeof s.const === 'string');
}

function add(shape: Shape, path: string, kind: string): void {
  let kinds = shape.get(path);
  if (!kinds) shape.set(path, (kinds = new Set()));
  kinds.add(kind);
}

function walk(shape: Shape, path: string, value: unknown, schemas: Schema[]): void {
  if (value === null) return add(shape, path, 'null');
  if (Array.isArray(value)) {
    add(shape, path, 'array');
    const items = itemSchemas(schemas);
    for (const v of value) walk(shape, `${path}[]`, v, items);
    return;
  }
  switch (typeof value) {
    case 'object': {
      add(shape, path, 'object');
      // A map's keys are data (a contact's properties are the team's): its values share one path, `{}`, as a list's items do.
      const values = mapValueSchemas(schemas);
      for (const [k, v] of Object.entries(value as object)) walk(shape, values ? `${path}{}` : `${path}.${k}`, v, values ?? propertySchemas(schemas, k));
      return;
    }
    case 'string':
      return add(shape, path, declaresEnum(schemas) ? `enum:${JSON.stringify(value)}` : stringKind(value));
    default:
      return add(shape, path, typeof value);
  }
}

/** The shape of `body` (parsed JSON), reading enums from `schema` (the operation's response schema for the status; none: no enums). */
export function shapeOf(body: unknown, schema?: Schema): Shape {
  const shape: Shape = new Map();
  if (body !== undefined) walk(shape, '$', body, schema ? [schema] : []);
  return shape;
}

/** One path where two shapes differ: the kinds each side had there (empty: absent). */
export interface ShapeDifference {
  path: string;
  upstream: string[];
  emulator: string[];
}

/** Where a path enters the items of a list (`[]`) or the values of a map (`{}`): the end of each such prefix. */
function itemPrefixes(path: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < path.length - 1; i++) if ((path[i] === '[' && path[i + 1] === ']') || (path[i] === '{' && path[i + 1] === '}')) out.push(path.slice(0, i + 2));
  return out;
}

/** Whether `path` lies under the items of a list (or values of a map) that was empty on one side: nothing to compare there. */
function underUnseenItems(path: string, a: Shape, b: Shape): boolean {
  for (const items of itemPrefixes(path)) {
    const seen = (s: Shape) => [...s.keys()].some((p) => p.startsWith(items));
    if (!seen(a) || !seen(b)) return true;
  }
  return false;
}

/**
 * Where `upstream` and `emulator` differ, sorted by path. A path outside
 * arrays must hold the same kinds on both sides; under an array's items
 * or a map's values (whose number and data are the account's) it is enough
 * that the kinds overlap, and nothing is compared under the items of a list
 * (or map) that was empty on either side. `loose` paths (exact, e.g. `$.last_event`) compare
 * the type only (an enum's value may change with time: an email's state).
 */
export function compareShapes(upstream: Shape, emulator: Shape, loose: readonly string[] = []): ShapeDifference[] {
  const out: ShapeDifference[] = [];
  const typeOnly = (kinds: Set<string> | undefined) => new Set([...(kinds ?? [])].map((k) => (k.startsWith('enum:') ? 'enum' : k)));
  for (const path of [...new Set([...upstream.keys(), ...emulator.keys()])].sort()) {
    if (underUnseenItems(path, upstream, emulator)) continue;
    const looseHere = loose.includes(path);
    const a = looseHere ? typeOnly(upstream.get(path)) : (upstream.get(path) ?? new Set<string>());
    const b = looseHere ? typeOnly(emulator.get(path)) : (emulator.get(path) ?? new Set<string>());
    const same = itemPrefixes(path).length && a.size && b.size ? [...a].some((k) => b.has(k)) : a.size === b.size && [...a].every((k) => b.has(k));
    if (!same) out.push({ path, upstream: [...a].sort(), emulator: [...b].sort() });
  }
  return out;
}
