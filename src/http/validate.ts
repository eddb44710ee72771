/**
 * Request and response validation, compiled with ajv from the operations of
 * `spec/openapi.yaml` (never hand-written checks). One validator per
 * operation for parameters, one for the body, one per response status.
 *
 * Failures become the real service's errors through a small table
 * (docs/reference/errors.md#error-names-and-statuses):
 * | ajv keyword | location | error |
 * |---|---|---|
 * | required | body | 422 `missing_required_field` ``Missing `x` field.`` |
 * | required | query | 422 `missing_required_parameter` |
 * | any | query `limit` | 422 `validation_error` (the pagination message) |
 * | format | path, query, body | 422 `invalid_parameter` |
 * | other | path, query | 422 `validation_error` |
 * | other | body | 400 `validation_error`, or 422 where the service uses it |
 * A schema node may override the result with `x-error: {status, name, message}`
 * (`{field}` in `message` is replaced by the field path).
 */
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { ApiError, errors, type ErrorName } from './errors.js';
import type { Operation, Schema } from './spec.js';
import { lazy, requirePackage } from '../lazy.js';

/**
 * One ajv instance with the validation step's settings. `validateSchema:
 * false`: the document's schemas are not checked against the JSON Schema
 * meta-schema at run time, because compiling that meta-schema cost each
 * instance ~90 ms (~300 ms on a process's first request, the upload of an
 * import included); the suite checks every schema of the document against
 * it instead (test/http/validate.test.ts), so a bad schema still fails
 * before it ships.
 */
function makeAjv(coerce: boolean, allErrors = false): Ajv2020 {
  const { Ajv2020: Ajv } = requirePackage<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
  const addFormats = requirePackage<{ default: (ajv: Ajv2020) => Ajv2020 }>('ajv-formats').default;
  const ajv = new Ajv({ strict: false, allErrors, verbose: true, coerceTypes: coerce ? 'array' : false, useDefaults: false, validateSchema: false });
  addFormats(ajv);
  ajv.addKeyword({ keyword: 'x-error' });
  return ajv;
}

// ajv is loaded and set up on the first validation, not at start-up.
const paramAjv = lazy(() => makeAjv(true));
const bodyAjv = lazy(() => makeAjv(false));
const responseAjv = lazy(() => makeAjv(false, true));

/** Compiled validators of one operation. */
export interface OperationValidators {
  params: ValidateFunction | null;
  body: ValidateFunction | null;
  /**
   * What the validation step does to a body before its schema check
   * (`pruneBody`): keys the document does not declare are dropped, and so
   * are the values that mean "not given" (`null` on an optional field, `""`
   * on an optional list field, `[]` on an optional map, or what a
   * property's `x-absent-values` lists). Returns the body
   * unchanged (the same object) when nothing is dropped, a copy otherwise;
   * never mutates its argument.
   */
  prune(body: unknown): unknown;
  /**
   * The validator of the response with `status` (`'200'`), compiled on its
   * first use (only `validateResponses` checks answers, so a server without
   * it never compiles one); null when the operation declares no such status.
   */
  response(status: string): ValidateFunction | null;
}

/**
 * Compiles a request-body schema with the body validator's settings (no
 * coercion), for handlers that check parts of a body one by one (e.g. each
 * item of POST /emails/batch in permissive mode). Map failures with `toApiError`.
 */
export function compileBodySchema(schema: Schema): ValidateFunction {
  return bodyAjv().compile(schema);
}

const compiled = new WeakMap<Operation, OperationValidators>();

/**
 * The validators of an operation, compiled once per process (the document
 * is loaded once, so every server shares them). Throws on an invalid schema
 * (a bug in the document).
 */
export function compileOperation(op: Operation): OperationValidators {
  let v = compiled.get(op);
  if (!v) {
    v = compileOperationNow(op);
    compiled.set(op, v);
  }
  return v;
}

function compileOperationNow(op: Operation): OperationValidators {
  const props: Record<string, Schema> = {};
  const required: string[] = [];
  for (const p of op.parameters) {
    if (p.in === 'header') continue;
    props[p.name] = p.schema;
    if (p.required) required.push(p.name);
  }
  const params = Object.keys(props).length
    ? paramAjv().compile({ type: 'object', properties: props, required })
    : null;
  const body = op.body ? bodyAjv().compile(op.body.schema) : null;
  const bodySchema = op.body?.schema;
  const prune = bodySchema ? (value: unknown) => pruneBody(value, [bodySchema]) : (value: unknown) => value;
  const responses = new Map<string, ValidateFunction>();
  const response = (status: string): ValidateFunction | null => {
    const schema = Object.hasOwn(op.responses, status) ? op.responses[status] : undefined;
    if (!schema) return null;
    let check = responses.get(status);
    if (!check) {
      check = responseAjv().compile(schema);
      responses.set(status, check);
    }
    return check;
  };
  return { params, body, prune, response };
}

/**
 * The schemas that describe the same value as `schemas` do: each one and,
 * recursively, its `allOf`, `anyOf`, `oneOf`, `then` and `else` members
 * (an `if` is a condition, a `not` a refusal: neither declares a key).
 */
function describing(schemas: Schema[]): Schema[] {
  const out: Schema[] = [];
  const add = (s: Schema | undefined) => {
    if (!s || typeof s !== 'object' || out.includes(s)) return;
    out.push(s);
    for (const m of [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])]) add(m);
    const branches = s as { then?: Schema; else?: Schema };
    add(branches.then);
    add(branches.else);
  };
  for (const s of schemas) add(s);
  return out;
}

/**
 * The one rule for keys a body carries beyond the document (official SDKs repeat ids in bodies and must never reach SQL with them): in
 * every operation, a key of a JSON object that the document does not
 * declare is ignored: dropped here, in the validation step, before the
 * schema check, so no handler (and no SQL) ever sees it. This is what the
 * service evidently does with the ids the official SDKs repeat in bodies
 * (Python, Ruby, Go and Java send `broadcast_id`, `id`, `email_id`,
 * `webhook_id`, `topic_id` beside the path's id; docs/other-languages.md).
 * Where the document speaks, it wins:
 * - an object whose schema gives `additionalProperties` (a map such as
 *   `headers`, or `true`) or no `properties` at all keeps every key;
 * - an object the document closes (`additionalProperties: false`; only
 *   the admin API's bodies, where a misspelt field must not pass silently)
 *   keeps its keys, and the schema check refuses the undeclared one with
 *   400 naming it;
 * - a key the service refuses is declared, with the schema (and
 *   `x-error`) that refuses it (e.g. `key` on PATCH /contact-properties).
 * A declared property whose value means "not given" is dropped too
 * (`absentValuesOf`: `null` for an optional property whose schema does not
 * take `null`, `""` for an optional list or address field, `[]` for an
 * optional map; a node's own `x-absent-values` replaces that list, `[]`
 * opting out): the `null` .NET, Rust and Elixir send for an unset field,
 * the `""` Payload CMS sends for no `cc`, the `headers: []` of Laravel, the
 * `""` Go sends for an unset `scheduled_at`
 * (docs/reference/transport.md#absent-values).
 * Returns `value` itself when nothing is dropped, a copy otherwise.
 */
export function pruneBody(value: unknown, schemas: Schema[]): unknown {
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
  const plan = planOf(schemas);
  if (Array.isArray(value)) {
    if (!plan.items.length) return value;
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const next = pruneBody(value[i], plan.items);
      if (next !== value[i] && !out) out = value.slice(0, i);
      out?.push(next);
    }
    return out ?? value;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  // Copied only from the first key that changes (most bodies change nothing).
  let out: [string, unknown][] | null = null;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = obj[k];
    const own = plan.declared.get(k); // a Map: `constructor` or `__proto__` is never found on a prototype
    const drop = own ? own.absent !== null && own.absent.some((a) => sameAbsent(a, v)) : !plan.keepsUndeclared;
    const next = drop ? v : own ? pruneBody(v, own.schemas) : plan.extra.length ? pruneBody(v, plan.extra) : v;
    if ((drop || next !== v) && !out) out = keys.slice(0, i).map((p) => [p, obj[p]]);
    if (out && !drop) out.push([k, next]);
  }
  // Object.fromEntries defines each key as an own property (a `__proto__` key stays a plain key).
  return out ? Object.fromEntries(out) : value;
}

/** What `pruneBody` needs to know of the schemas of one value. */
interface PrunePlan {
  /** Declared keys: the schemas of each, and the values its `x-absent-values` lists (null: none). */
  declared: Map<string, { schemas: Schema[]; absent: unknown[] | null }>;
  /** The schemas of undeclared keys (`additionalProperties` schemas). */
  extra: Schema[];
  /** Whether undeclared keys stay (a map, a schema without `properties`, or one that closes the object itself). */
  keepsUndeclared: boolean;
  /** The schemas of an array's items. */
  items: Schema[];
}

const plans = new WeakMap<Schema, PrunePlan>();

function planOf(schemas: Schema[]): PrunePlan {
  const cached = schemas.length === 1 ? plans.get(schemas[0]!) : undefined;
  if (cached) return cached;
  const described = describing(schemas);
  const required = new Set(described.flatMap((s) => (Array.isArray(s.required) ? s.required : [])));
  const found = new Map<string, { schemas: Schema[]; listed: unknown[] | null }>();
  for (const s of described) {
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      const entry = found.get(k) ?? { schemas: [], listed: null };
      entry.schemas.push(p);
      if (Array.isArray(p['x-absent-values'])) entry.listed = [...(entry.listed ?? []), ...(p['x-absent-values'] as unknown[])];
      found.set(k, entry);
    }
  }
  const declared: PrunePlan['declared'] = new Map();
  for (const [k, { schemas: own, listed }] of found) {
    declared.set(k, { schemas: own, absent: listed ?? absentValuesOf(own, required.has(k)) });
  }
  const plan: PrunePlan = {
    declared,
    extra: described.flatMap((s) => (s.additionalProperties && typeof s.additionalProperties === 'object' ? [s.additionalProperties] : [])),
    // The document describes the key set only where it declares properties and says nothing else about other keys.
    keepsUndeclared: declared.size === 0 || described.some((s) => s.additionalProperties !== undefined || (s as { patternProperties?: unknown }).patternProperties !== undefined),
    items: described.flatMap((s) => (s.items && typeof s.items === 'object' ? [s.items] : [])),
  };
  if (schemas.length === 1) plans.set(schemas[0]!, plan);
  return plan;
}

/**
 * The values that mean "not given" for a property whose node lists none
 * (`x-absent-values`), derived from its schema
 * (docs/reference/transport.md#absent-values; docs/other-languages.md#absent-values):
 * - `null`, when the property is optional and its schema does not take
 *   `null` as a value (a nullable field keeps its `null`: it clears or
 *   means "none" there, and the handler reads it);
 * - `""`, when the property is optional and takes a list (an address or
 *   list field such as `cc`, `bcc`, `reply_to`, given as one string or an
 *   array);
 * - `[]`, when the property is optional and takes an object but no list
 *   (a map such as `headers`: PHP encodes an empty map as `[]`, and the
 *   Laravel transports send `headers: []` on every email without one).
 * A required property has none: `null` or `""` there stays refused. A
 * node opts out with `x-absent-values: []`, or lists its own values.
 * Returns null when there are none.
 */
function absentValuesOf(schemas: Schema[], isRequired: boolean): unknown[] | null {
  if (isRequired) return null;
  const out: unknown[] = [];
  if (!schemas.some(takesNull)) out.push(null);
  if (schemas.some((s) => takesType(s, 'array'))) out.push('');
  // PHP writes an empty map as `[]` (resend-php `json_encode`): an optional map that takes no array, sent as `[]`, is none.
  else if (schemas.some((s) => takesType(s, 'object'))) out.push([]);
  return out.length ? out : null;
}

/** Whether `value` is the absent value `listed` (`[]` matches any empty array). */
function sameAbsent(listed: unknown, value: unknown): boolean {
  if (Array.isArray(listed)) return listed.length === 0 && Array.isArray(value) && value.length === 0;
  return Object.is(listed, value);
}

/** Whether `s` (or a member of its `allOf`/`anyOf`/`oneOf`) takes a value of JSON Schema `type` (`object`, `array`). */
function takesType(s: Schema, type: 'object' | 'array'): boolean {
  if (!s || typeof s !== 'object') return false;
  const t = s.type as string | string[] | undefined;
  if (Array.isArray(t) ? t.includes(type) : t === type) return true;
  return [...(s.allOf ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? [])].some((m) => takesType(m, type));
}

/** Whether `null` may pass `s` (false only where a `type`, `const` or `enum` rules it out). */
function takesNull(s: Schema): boolean {
  if (!s || typeof s !== 'object') return true;
  const t = s.type as string | string[] | undefined;
  if (t !== undefined && !(Array.isArray(t) ? t.includes('null') : t === 'null')) return false;
  if ('const' in s && (s as { const?: unknown }).const !== null) return false;
  if (Array.isArray(s.enum) && !s.enum.includes(null)) return false;
  if (s.allOf?.length && !s.allOf.every(takesNull)) return false;
  for (const members of [s.anyOf, s.oneOf]) if (members?.length && !members.some(takesNull)) return false;
  return true;
}

/** `/tags/0/name` → `tags[0].name`. */
function fieldPath(instancePath: string, extra?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (extra) parts.push(extra);
  return parts.reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

function describe(e: ErrorObject, field: string): string {
  const p = e.params as Record<string, any>;
  switch (e.keyword) {
    case 'type': return `The \`${field}\` field must be a${/^[aeiou]/.test(String(p.type)) ? 'n' : ''} ${p.type}.`;
    case 'enum': return `Invalid \`${field}\` field. Must be one of: ${(p.allowedValues as unknown[]).map(String).join(', ')}.`;
    case 'const': return `Invalid \`${field}\` field. Must be ${String(p.allowedValue)}.`;
    case 'maxLength': return `The \`${field}\` field must be at most ${p.limit} characters.`;
    case 'minLength': return p.limit === 1 ? `The \`${field}\` field must not be empty.` : `The \`${field}\` field must be at least ${p.limit} characters.`;
    case 'maxItems': return `The \`${field}\` field must contain at most ${p.limit} items.`;
    case 'minItems': return `The \`${field}\` field must contain at least ${p.limit} item${p.limit === 1 ? '' : 's'}.`;
    case 'maximum': case 'exclusiveMaximum': return `The \`${field}\` field must be ${e.keyword === 'maximum' ? 'at most' : 'less than'} ${p.limit}.`;
    case 'minimum': case 'exclusiveMinimum': return `The \`${field}\` field must be ${e.keyword === 'minimum' ? 'at least' : 'greater than'} ${p.limit}.`;
    case 'pattern': return `Invalid \`${field}\` field. It does not match the expected format.`;
    case 'format': return `The \`${field}\` field must be a valid ${p.format === 'uuid' ? 'UUID' : p.format}.`;
    case 'additionalProperties': return `The \`${fieldPath(e.instancePath, p.additionalProperty)}\` field is not allowed.`;
    case 'uniqueItems': return `The \`${field}\` field must not contain duplicates.`;
    case 'not': return `Invalid \`${field}\` field.`;
    default: return `Invalid \`${field || 'body'}\` field.`;
  }
}

/**
 * Maps the first ajv error to an `ApiError` per the table above.
 * `where` is where the data came from.
 */
export function toApiError(errs: ErrorObject[] | null | undefined, where: 'params' | 'body'): ApiError {
  const e = errs?.[0];
  if (!e) return errors.validation('Invalid request.', where === 'body' ? 400 : 422);
  const field = fieldPath(e.instancePath, e.keyword === 'required' ? (e.params as any).missingProperty : undefined) || 'body';
  const override = (e.parentSchema as any)?.['x-error'] ?? (e.schema as any)?.['x-error'];
  if (override && typeof override === 'object') {
    return new ApiError(override.status ?? 422, (override.name ?? 'validation_error') as ErrorName, String(override.message ?? describe(e, field)).replaceAll('{field}', field));
  }
  if (where === 'params') {
    const top = field.split(/[.[]/)[0];
    if (e.keyword === 'required') return errors.missingParameter(field);
    if (top === 'limit') return errors.paginationLimit();
    if (e.keyword === 'format') return errors.invalidParameter(describe(e, field));
    return errors.validation(describe(e, field), 422);
  }
  if (e.keyword === 'required') return errors.missingField(field);
  if (e.keyword === 'format') return errors.invalidParameter(describe(e, field));
  return errors.validation(describe(e, field), 400);
}
