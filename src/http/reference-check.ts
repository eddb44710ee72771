/**
 * Development-only check of our success responses against the real
 * service's OpenAPI document (`../shared/reference/resend-openapi.yaml`,
 * outside this repository). Off unless env `RESEND_EMULATOR_REFERENCE_SPEC` names
 * that file; when off, `loadReferenceCheck()` returns `null` and the app does
 * nothing more (zero cost). Run it through `scripts/check-reference.mjs`.
 *
 * When on, every JSON success response is validated against the reference's
 * response schema of the same operationId and status (dereferenced with
 * json-schema-ref-parser, compiled with ajv 2020 + ajv-formats, `strict:false`)
 * and every mismatch is appended as one JSON line to the file named by env
 * `RESEND_EMULATOR_REFERENCE_REPORT` (default `test-results/reference-mismatches.jsonl`):
 *
 * `{operationId, method, path, status, kind, errors:[{instancePath, keyword, message, params}], body}`
 *
 * `kind`:
 * - `schema`: the reference schema rejects the body (wrong type, enum, format,
 *   or a field it requires is absent).
 * - `fields`: the body has a field the reference object does not declare
 *   (`additionalProperties`) or lacks one it declares (`required`); found by
 *   validating again with every declared property required and no others
 *   allowed (outside `oneOf`/`anyOf`/`allOf` branches).
 * - `status`: the reference declares no JSON schema for this status.
 * - `no_operation`: the reference has no such operationId (logged once per
 *   process and operation; the admin API is skipped).
 * - `checked`: not a mismatch; written once per process, operation and status
 *   that was checked, so the summary can tell what the suite covered.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { Document, Schema } from './spec.js';
import { requirePackage } from '../lazy.js';


/** Checks one answered operation; never throws. */
export type ReferenceCheck = (info: { operationId: string; method: string; path: string; status: number; body: unknown }) => void;

interface RefOperation {
  schemas: Record<string, Schema>;
  plain: Map<string, ValidateFunction>;
  strict: Map<string, ValidateFunction>;
}

let loaded: Promise<ReferenceCheck | null> | null = null;

/**
 * Returns the check when env `RESEND_EMULATOR_REFERENCE_SPEC` is set, else `null`.
 * Loads the document once per process. Throws if the file cannot be read or
 * dereferenced (a developer asked for the check, so failing loudly is right).
 */
export function loadReferenceCheck(): Promise<ReferenceCheck | null> {
  const file = process.env.RESEND_EMULATOR_REFERENCE_SPEC;
  if (!file) return Promise.resolve(null);
  loaded ??= build(path.resolve(file), path.resolve(process.env.RESEND_EMULATOR_REFERENCE_REPORT ?? 'test-results/reference-mismatches.jsonl'));
  return loaded;
}

/** Marks every object schema outside a `oneOf`/`anyOf`/`allOf` branch as closed and complete. */
function tighten(node: any, seen = new Set<any>()): void {
  if (!node || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) return node.forEach((n) => tighten(n, seen));
  if (node.properties && typeof node.properties === 'object' && !('additionalProperties' in node)) {
    node.additionalProperties = false;
    node.required = [...new Set([...(node.required ?? []), ...Object.keys(node.properties)])];
  }
  for (const [k, v] of Object.entries(node)) {
    if (k === 'oneOf' || k === 'anyOf' || k === 'allOf' || k === 'example' || k === 'examples') continue;
    if (k === 'properties') for (const p of Object.values(v as object)) tighten(p, seen);
    else tighten(v, seen);
  }
}

async function build(file: string, report: string): Promise<ReferenceCheck> {
  // Development only: the YAML parser and the dereferencer load when the check is asked for (start-up speed).
  const { default: YAML } = await import('yaml');
  const { default: $RefParser } = await import('@apidevtools/json-schema-ref-parser');
  const document = (await $RefParser.dereference(YAML.parse(fs.readFileSync(file, 'utf8')))) as Document;
  const ops = new Map<string, RefOperation>();
  for (const item of Object.values<any>(document.paths ?? {})) {
    for (const op of Object.values<any>(item)) {
      if (!op?.operationId) continue;
      const schemas: Record<string, Schema> = {};
      for (const [code, resp] of Object.entries<any>(op.responses ?? {})) {
        const schema = resp?.content?.['application/json']?.schema;
        if (schema && /^2/.test(code)) schemas[code] = schema;
      }
      ops.set(op.operationId, { schemas, plain: new Map(), strict: new Map() });
    }
  }
  // Loaded only when the check is on (a development option): start-up never pays for it.
  const { Ajv2020 } = requirePackage<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
  const addFormats = requirePackage<(ajv: InstanceType<typeof Ajv2020>) => unknown>('ajv-formats');
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  fs.mkdirSync(path.dirname(report), { recursive: true });
  const warned = new Set<string>();
  const checked = new Set<string>();
  const write = (line: object) => fs.appendFileSync(report, JSON.stringify(line) + '\n');
  const slim = (errs: ErrorObject[] | null | undefined) =>
    (errs ?? []).map((e) => ({ instancePath: e.instancePath, keyword: e.keyword, message: e.message, params: e.params }));

  return ({ operationId, method, path: urlPath, status, body }) => {
    try {
      if (operationId.startsWith('admin/')) return;
      const op = ops.get(operationId);
      const base = { operationId, method, path: urlPath, status };
      const snippet = JSON.stringify(body)?.slice(0, 600);
      if (!op) {
        if (!warned.has(operationId)) write({ ...base, kind: 'no_operation', errors: [], body: snippet });
        warned.add(operationId);
        return;
      }
      const key = String(status);
      const schema = op.schemas[key];
      if (!schema) {
        write({ ...base, kind: 'status', errors: [{ instancePath: '', keyword: 'status', message: `reference declares ${Object.keys(op.schemas).join(', ') || 'no JSON success'}`, params: {} }], body: snippet });
        return;
      }
      if (!checked.has(`${operationId} ${key}`)) write({ ...base, kind: 'checked', errors: [] });
      checked.add(`${operationId} ${key}`);
      let plain = op.plain.get(key);
      if (!plain) op.plain.set(key, (plain = ajv.compile(schema)));
      let strict = op.strict.get(key);
      if (!strict) {
        const copy = structuredClone(schema);
        tighten(copy);
        op.strict.set(key, (strict = ajv.compile(copy)));
      }
      if (!plain(body)) write({ ...base, kind: 'schema', errors: slim(plain.errors), body: snippet });
      if (!strict(body)) {
        const fieldErrs = (strict.errors ?? []).filter((e) => (e.keyword === 'additionalProperties' || e.keyword === 'required') && !/\/(oneOf|anyOf|allOf)\//.test(e.schemaPath));
        // A `required` the plain schema already reported is not news.
        const plainReq = new Set((plain.errors ?? []).filter((e) => e.keyword === 'required').map((e) => `${e.instancePath}|${(e.params as any).missingProperty}`));
        const news = fieldErrs.filter((e) => e.keyword !== 'required' || !plainReq.has(`${e.instancePath}|${(e.params as any).missingProperty}`));
        if (news.length) write({ ...base, kind: 'fields', errors: slim(news), body: snippet });
      }
    } catch (err) {
      try {
        write({ operationId, method, path: urlPath, status, kind: 'check_failed', errors: [{ instancePath: '', keyword: 'exception', message: String(err), params: {} }] });
      } catch { /* the check must never break a response */ }
    }
  };
}
