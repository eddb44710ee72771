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

function makeAjv(coerce: boolean, allErrors = false): Ajv2020 {
  const { Ajv2020: Ajv } = requirePackage<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
  const addFormats = requirePackage<{ default: (ajv: Ajv2020) => Ajv2020 }>('ajv-formats').default;
  const ajv = new Ajv({ strict: false, allErrors, verbose: true, coerceTypes: coerce ? 'array' : false, useDefaults: false });
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
  return { params, body, response };
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
