// Writes the dereferenced OpenAPI document (spec/openapi.yaml and every file
// it $refs) as dist/openapi.json, which src/http/spec.ts reads at start-up
// instead of parsing and dereferencing the YAML (issue 10). Run by
// `npm run build`; paths are resolved from this file, so it can run from any
// working directory.
import $RefParser from '@apidevtools/json-schema-ref-parser';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const document = await $RefParser.dereference(path.join(root, 'spec', 'openapi.yaml'));
fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
fs.writeFileSync(path.join(root, 'dist', 'openapi.json'), JSON.stringify(document));
