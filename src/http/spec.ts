/**
 * Loads this project's OpenAPI document (`spec/openapi.yaml` and the files it
 * `$ref`s under `spec/paths/`), dereferenced, and lists its operations.
 * The app registers exactly these operations; a handler without an operation
 * is refused at start (see `src/app.ts`).
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';

/**
 * The service's error a schema node picks for its own validation failure
 * (CONTRIBUTING.md, "Rules of the house").
 */
export interface XError {
  status: number;
  name: string;
  message?: string;
}

/**
 * JSON Schema as found in the dereferenced document (OAS 3.1 = JSON Schema
 * 2020-12), with this project's extension `x-error`. After dereferencing no
 * `$ref` remains, so every nested schema is a `Schema` too.
 */
export interface Schema
  extends Omit<OpenAPIV3_1.BaseSchemaObject, 'type' | 'items' | 'properties' | 'allOf' | 'oneOf' | 'anyOf' | 'not' | 'additionalProperties'> {
  type?: OpenAPIV3_1.NonArraySchemaObjectType | 'array' | (OpenAPIV3_1.NonArraySchemaObjectType | 'array')[];
  items?: Schema;
  properties?: Record<string, Schema>;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  not?: Schema;
  additionalProperties?: boolean | Schema;
  'x-error'?: XError;
  /** Other `x-` extensions of this project (e.g. `x-json-schema`). */
  [extension: `x-${string}`]: unknown;
}

/** The dereferenced document: `$ref`s replaced by what they point at. */
export type Document = OpenAPIV3_1.Document;

/** An operation of the dereferenced document, with this project's extension. */
type OperationObject = OpenAPIV3_1.OperationObject<{ 'x-emulator-permission'?: 'sending' }>;
type ParameterObject = OpenAPIV3_1.ParameterObject;
type RequestBodyObject = OpenAPIV3_1.RequestBodyObject;
type ResponseObject = OpenAPIV3_1.ResponseObject;

/** One operation of the document, flattened for the app builder. */
export interface Operation {
  operationId: string;
  /** Upper-case HTTP method. */
  method: string;
  /** OpenAPI path, e.g. `/domains/{domain_id}`. */
  path: string;
  /** Router path (src/http/router.ts), e.g. `/domains/:domain_id`. */
  routePath: string;
  /** `false` when the operation declares `security: []` (admin API). */
  requiresAuth: boolean;
  /** `x-emulator-permission: sending`: allowed to `sending_access` keys. */
  sending: boolean;
  /**
   * The operation declares the `Idempotency-Key` header parameter: the
   * pipeline's `honourIdempotencyKey` step answers a repeated key
   * (src/http/idempotency.ts).
   */
  idempotent: boolean;
  /** Path and query parameters (path-item level merged in). */
  parameters: { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: Schema }[];
  /**
   * Body schema and its media type, if the operation takes a body.
   * `rawMediaTypes`: `text/*` and `message/*` media types the operation also
   * declares; such a body reaches the handler as a Buffer, unvalidated.
   */
  body: { mediaType: 'application/json' | 'multipart/form-data'; schema: Schema; required: boolean; rawMediaTypes?: string[] } | null;
  /** Success status (the first 2xx in `responses`). */
  successStatus: number;
  /** JSON response schema by status code. */
  responses: Record<string, Schema>;
}

/** Directory of the `spec/` folder, from `src/http` or `dist/src/http`. */
export function specDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'spec', 'openapi.yaml');
    if (fs.existsSync(candidate)) return path.join(dir, 'spec');
    dir = path.dirname(dir);
  }
  throw new Error('spec/openapi.yaml not found');
}

/**
 * Where `npm run build` writes the dereferenced document as JSON
 * (`scripts/build-spec.mjs`): `dist/openapi.json`, two folders above the
 * compiled `dist/src/http/spec.js`, or beside the bundled CLI `dist/cli.mjs`
 * (scripts/bundle.mjs). From `src/` (tests) it does not exist, so edits
 * of `spec/` apply at once there.
 */
export function prebuiltSpecFile(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.basename(here) === 'dist' ? path.join(here, 'openapi.json') : path.resolve(here, '..', '..', 'openapi.json');
}

/** Newest modification time (ms) of the YAML files under `dir`. */
function newestYaml(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestYaml(file));
    else if (entry.name.endsWith('.yaml')) newest = Math.max(newest, fs.statSync(file).mtimeMs);
  }
  return newest;
}

/**
 * The document: the build's JSON when it is at least as new as every YAML
 * file of `spec/` (parsing it takes ~3 ms instead of ~80 ms of YAML parsing
 * and dereferencing at every start), else the YAML dereferenced
 * now. Throws if a `$ref` does not resolve.
 */
async function readDocument(): Promise<Document> {
  const dir = specDir();
  const json = prebuiltSpecFile();
  const built = fs.statSync(json, { throwIfNoEntry: false });
  if (built && built.mtimeMs >= newestYaml(dir)) return JSON.parse(fs.readFileSync(json, 'utf8')) as Document;
  const { default: $RefParser } = await import('@apidevtools/json-schema-ref-parser');
  return (await $RefParser.dereference(path.join(dir, 'openapi.yaml'))) as Document;
}

let cached: Promise<{ document: Document; operations: Operation[] }> | null = null;
/** What `cached` resolved to, once it has (`loadedSpec`). */
let loaded: { document: Document; operations: Operation[] } | null = null;

/**
 * The document `loadSpec` loaded, synchronously: for what needs it inside a
 * synchronous handler (a validator compiled on first use, e.g. a batch
 * item's). Every app awaits `loadSpec` before it serves a request, so a
 * handler always finds it. Throws if it is not loaded yet (a programming error).
 */
export function loadedSpec(): { document: Document; operations: Operation[] } {
  if (!loaded) throw new Error('the OpenAPI document is not loaded yet: await loadSpec() first');
  return loaded;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * Loads and dereferences the document once per process. Throws if a `$ref`
 * does not resolve or an operation lacks an `operationId`.
 */
export function loadSpec(): Promise<{ document: Document; operations: Operation[] }> {
  if (!cached) {
    cached = (async () => {
      const document = await readDocument();
      const operations: Operation[] = [];
      for (const [p, item] of Object.entries(document.paths ?? {})) {
        if (!item) continue;
        for (const m of METHODS) {
          const op = item[m] as OperationObject | undefined;
          if (!op) continue;
          if (!op.operationId) throw new Error(`${m.toUpperCase()} ${p} has no operationId`);
          const declared = [...(item.parameters ?? []), ...(op.parameters ?? [])] as ParameterObject[];
          const params = declared.map((prm) => ({
            name: prm.name,
            in: prm.in as 'path' | 'query' | 'header',
            required: prm.in === 'path' ? true : Boolean(prm.required),
            schema: (prm.schema ?? { type: 'string' }) as Schema,
          }));
          let body: Operation['body'] = null;
          const requestBody = op.requestBody as RequestBodyObject | undefined;
          const content = requestBody?.content;
          if (content?.['application/json']) {
            body = { mediaType: 'application/json', schema: (content['application/json'].schema ?? {}) as Schema, required: Boolean(requestBody?.required) };
          } else if (content?.['multipart/form-data']) {
            body = { mediaType: 'multipart/form-data', schema: (content['multipart/form-data'].schema ?? {}) as Schema, required: Boolean(requestBody?.required) };
          }
          const rawMediaTypes = Object.keys(content ?? {}).filter((t) => /^(text|message)\//.test(t));
          if (rawMediaTypes.length) {
            body ??= { mediaType: 'application/json', schema: {}, required: Boolean(requestBody?.required) };
            body.rawMediaTypes = rawMediaTypes;
          }
          const responses: Record<string, Schema> = {};
          let successStatus = 200;
          let foundSuccess = false;
          for (const [code, resp] of Object.entries(op.responses ?? {}) as [string, ResponseObject][]) {
            const schema = resp?.content?.['application/json']?.schema;
            if (schema) responses[code] = schema as Schema;
            if (!foundSuccess && /^2\d\d$/.test(code)) {
              successStatus = Number(code);
              foundSuccess = true;
            }
          }
          const security = op.security ?? document.security ?? [];
          operations.push({
            operationId: op.operationId,
            method: m.toUpperCase(),
            path: p,
            routePath: p.replace(/\{([^}]+)\}/g, ':$1'),
            requiresAuth: security.length > 0,
            sending: op['x-emulator-permission'] === 'sending',
            idempotent: params.some((prm) => prm.in === 'header' && prm.name.toLowerCase() === 'idempotency-key'),
            parameters: params,
            body,
            successStatus,
            responses,
          });
        }
      }
      loaded = { document, operations };
      return loaded;
    })();
    cached.catch(() => {
      cached = null;
    });
  }
  return cached;
}
