/**
 * Multipart fields that carry JSON text (`column_map`, `segments`, `topics`;
 * docs/reference/interface-spec.md#contact-import: object and array fields
 * come as JSON text). Each is parsed here and validated with ajv against
 * the schema its field declares under `x-json-schema` in
 * spec/paths/contact-imports.yaml, so the rules stay in the spec. Compiled
 * with the shared body validator's settings (`compileBodySchema`: no
 * coercion, no defaults filled in; jobs.ts reads an absent
 * `column_map.properties.*.type` as `string` itself).
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { loadSpec, type Schema } from '../../http/spec.js';
import { compileBodySchema, toApiError } from '../../http/validate.js';
import { importMessages } from './messages.js';

const OPERATION = 'contacts/create-import';
const cache = new Map<string, ValidateFunction>();

async function validatorFor(field: string): Promise<ValidateFunction> {
  const hit = cache.get(field);
  if (hit) return hit;
  const { operations } = await loadSpec();
  const schema = operations.find((o) => o.operationId === OPERATION)?.body?.schema?.properties?.[field]?.['x-json-schema'] as Schema | undefined;
  if (!schema) throw new Error(`spec: ${OPERATION} field ${field} has no x-json-schema`);
  const fn = compileBodySchema(schema);
  cache.set(field, fn);
  return fn;
}

/**
 * Parses and validates one JSON field; `undefined` when absent. Throws 422
 * `validation_error` ``The `x` field must be valid JSON...`` for malformed
 * text and 422 naming the field for a value the schema rejects (defaults of
 * the schema are not filled in).
 */
export async function parseJsonField<T>(field: string, text: unknown): Promise<T | undefined> {
  if (text === undefined || text === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(String(text));
  } catch (err) {
    throw importMessages.fieldNotJson(field, (err as Error).message);
  }
  const validate = await validatorFor(field);
  if (!validate(value)) {
    const e = toApiError(validate.errors, 'body');
    throw importMessages.fieldInvalid(field, e.name, e.message);
  }
  return value as T;
}
