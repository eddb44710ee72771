#!/usr/bin/env node
// SDK coverage: lists every public method of the official `resend` SDK's
// resource classes and reports whether some `test/sdk/*.test.ts` calls it.
//
//   node scripts/sdk-coverage.mjs          # table; exit 1 on a gap
//   node scripts/sdk-coverage.mjs --json   # the same result as JSON
//
// Where the facts come from (all inside the repository):
// - the methods: `node_modules/resend/dist/index.d.mts`, every class reachable
//   from `class Resend` through its `readonly <name>: <Class>` members
//   (the transport methods of `Resend` itself are not resource methods);
// - what each method calls: the table METHODS below, written from
//   `node_modules/resend/dist/index.mjs` (one HTTP operation per method, or
//   several variants when an option switches the path, e.g. `audienceId`);
// - what is served: `spec/openapi.yaml` and the `spec/paths/*.yaml` it
//   `$ref`s (every operation there has a handler: `src/app.ts` refuses to
//   start otherwise);
// - what is tested: call sites `<receiver>.<path>.<method>(` in
//   `test/sdk/*.test.ts` (comments stripped). A call is attributed to the
//   longest known method path its member chain ends with, so
//   `resend.contacts.segments.list(` counts for `contacts.segments.list`, not
//   `segments.list`. A variant with `when` counts when the call's argument
//   text matches `when`; the default variant when it matches no other.
//
// Exit 1 when: a method that maps to a served operation (or a local method)
// is never called; an SDK method is missing from METHODS (a new SDK version:
// map it); a mapped operation is not in our spec (map it as notServed, or
// serve it); METHODS names a method the SDK no longer has.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import YAML from 'yaml';

/**
 * The SDK's methods and the operations they call (`METHOD /path` as written
 * in our spec). An entry is one of:
 * - `'GET /x'` or `['GET /x', 'POST /y']`: the operation(s) the method calls;
 * - `{ variants: [{ label, when?: RegExp, ops }] }`: an option of the call
 *   switches the operation; each variant must be called;
 * - `{ local: reason }`: no HTTP call; still has to be called by a test;
 * - `{ notServed: reason, path }`: the service has an operation we do not
 *   emulate (`path`: its path prefix; the check fails once our spec has it,
 *   so the entry cannot go stale).
 * Groups whose every method is not served: NOT_SERVED_GROUPS.
 */
export const METHODS = {
  'apiKeys.create': 'POST /api-keys',
  'apiKeys.list': 'GET /api-keys',
  'apiKeys.update': 'PATCH /api-keys/{api_key_id}',
  'apiKeys.remove': 'DELETE /api-keys/{api_key_id}',

  'automations.create': 'POST /automations',
  'automations.list': 'GET /automations',
  'automations.get': 'GET /automations/{automation_id}',
  'automations.remove': 'DELETE /automations/{automation_id}',
  'automations.update': 'PATCH /automations/{automation_id}',
  'automations.duplicate': 'POST /automations/{automation_id}/duplicate',
  'automations.stop': 'POST /automations/{automation_id}/stop',
  'automations.runs.get': 'GET /automations/{automation_id}/runs/{run_id}',
  'automations.runs.list': 'GET /automations/{automation_id}/runs',

  'batch.send': 'POST /emails/batch',
  'batch.create': 'POST /emails/batch',

  'broadcasts.create': 'POST /broadcasts',
  'broadcasts.send': 'POST /broadcasts/{broadcast_id}/send',
  'broadcasts.list': 'GET /broadcasts',
  'broadcasts.get': 'GET /broadcasts/{broadcast_id}',
  'broadcasts.recipients': 'GET /broadcasts/{broadcast_id}/recipients',
  'broadcasts.clickedLinks': 'GET /broadcasts/{broadcast_id}/clicked-links',
  'broadcasts.remove': 'DELETE /broadcasts/{broadcast_id}',
  'broadcasts.cancel': 'POST /broadcasts/{broadcast_id}/cancel',
  'broadcasts.duplicate': 'POST /broadcasts/{broadcast_id}/duplicate',
  'broadcasts.update': 'PATCH /broadcasts/{broadcast_id}',

  'contactProperties.create': 'POST /contact-properties',
  'contactProperties.list': 'GET /contact-properties',
  'contactProperties.get': 'GET /contact-properties/{id}',
  'contactProperties.update': 'PATCH /contact-properties/{id}',
  'contactProperties.remove': 'DELETE /contact-properties/{id}',

  'contacts.create': { variants: [
    { label: 'segments', ops: ['POST /contacts'] },
    { label: 'audienceId (deprecated)', when: /\baudienceId\b/, ops: ['POST /audiences/{audience_id}/contacts'] },
  ] },
  'contacts.list': { variants: [
    { label: 'all', ops: ['GET /contacts'] },
    { label: 'segmentId', when: /\bsegmentId\b/, ops: ['GET /segments/{id}/contacts'] },
    { label: 'audienceId (deprecated)', when: /\baudienceId\b/, ops: ['GET /segments/{id}/contacts'] },
  ] },
  'contacts.get': { variants: [
    { label: 'id or email', ops: ['GET /contacts/{id}'] },
    { label: 'audienceId (deprecated)', when: /\baudienceId\b/, ops: ['GET /audiences/{audience_id}/contacts/{id}'] },
  ] },
  'contacts.update': { variants: [
    { label: 'id or email', ops: ['PATCH /contacts/{id}'] },
    { label: 'audienceId (deprecated)', when: /\baudienceId\b/, ops: ['PATCH /audiences/{audience_id}/contacts/{id}'] },
  ] },
  'contacts.remove': { variants: [
    { label: 'id or email', ops: ['DELETE /contacts/{id}'] },
    { label: 'audienceId (deprecated)', when: /\baudienceId\b/, ops: ['DELETE /audiences/{audience_id}/contacts/{id}'] },
  ] },
  'contacts.imports.create': 'POST /contacts/imports',
  'contacts.imports.list': 'GET /contacts/imports',
  'contacts.imports.get': 'GET /contacts/imports/{id}',
  'contacts.segments.list': 'GET /contacts/{contact_id}/segments',
  'contacts.segments.add': 'POST /contacts/{contact_id}/segments/{segment_id}',
  'contacts.segments.remove': 'DELETE /contacts/{contact_id}/segments/{segment_id}',
  'contacts.topics.update': 'PATCH /contacts/{contact_id}/topics',
  'contacts.topics.list': 'GET /contacts/{contact_id}/topics',

  'domains.create': 'POST /domains',
  'domains.list': 'GET /domains',
  'domains.get': 'GET /domains/{domain_id}',
  'domains.update': 'PATCH /domains/{domain_id}',
  'domains.remove': 'DELETE /domains/{domain_id}',
  'domains.verify': 'POST /domains/{domain_id}/verify',
  'domains.claims.create': 'POST /domains/claim',
  'domains.claims.get': 'GET /domains/{domain_id}/claim',
  'domains.claims.verify': 'POST /domains/{domain_id}/claim/verify',

  'emails.send': 'POST /emails',
  'emails.create': 'POST /emails',
  'emails.get': 'GET /emails/{email_id}',
  'emails.list': 'GET /emails',
  'emails.update': 'PATCH /emails/{email_id}',
  'emails.cancel': 'POST /emails/{email_id}/cancel',
  'emails.share': 'POST /emails/{email_id}/share',
  'emails.metrics': 'GET /emails/metrics',
  'emails.attachments.get': 'GET /emails/{email_id}/attachments/{attachment_id}',
  'emails.attachments.list': 'GET /emails/{email_id}/attachments',
  'emails.receiving.get': 'GET /emails/receiving/{email_id}',
  'emails.receiving.list': 'GET /emails/receiving',
  // Reads the received email, downloads `raw.download_url`, sends a new email.
  'emails.receiving.forward': { variants: [
    { label: 'passthrough', ops: ['GET /emails/receiving/{email_id}', 'POST /emails'] },
    { label: 'passthrough: false (wrapped)', when: /\bpassthrough\s*:\s*false\b/, ops: ['GET /emails/receiving/{email_id}', 'POST /emails'] },
  ] },
  'emails.receiving.attachments.get': 'GET /emails/receiving/{email_id}/attachments/{attachment_id}',
  'emails.receiving.attachments.list': 'GET /emails/receiving/{email_id}/attachments',

  'events.send': 'POST /events/send',
  'events.create': 'POST /events',
  'events.get': 'GET /events/{identifier}',
  'events.list': 'GET /events',
  'events.update': 'PATCH /events/{identifier}',
  'events.remove': 'DELETE /events/{identifier}',

  'inboxes.create': 'POST /inboxes',
  'inboxes.list': 'GET /inboxes',
  'inboxes.get': 'GET /inboxes/{inbox}',
  'inboxes.update': 'PATCH /inboxes/{inbox}',
  'inboxes.remove': 'DELETE /inboxes/{inbox}',
  'inboxes.threads.list': 'GET /inboxes/{inbox}/threads',
  'inboxes.threads.search': 'GET /inboxes/{inbox}/threads/search',
  'inboxes.threads.get': 'GET /inboxes/{inbox}/threads/{thread_id}',
  'inboxes.threads.update': 'PATCH /inboxes/{inbox}/threads/{thread_id}',
  'inboxes.threads.remove': 'DELETE /inboxes/{inbox}/threads/{thread_id}',
  'inboxes.threads.emails.list': 'GET /inboxes/{inbox}/threads/{thread_id}/emails',
  'inboxes.threads.emails.get': 'GET /inboxes/{inbox}/threads/{thread_id}/emails/{email_id}',
  'inboxes.threads.emails.reply': 'POST /inboxes/{inbox}/threads/{thread_id}/emails/{email_id}/reply',
  'inboxes.threads.emails.forward': 'POST /inboxes/{inbox}/threads/{thread_id}/emails/{email_id}/forward',
  'inboxes.threads.labels.add': 'POST /inboxes/{inbox}/threads/{thread_id}/labels',
  'inboxes.threads.labels.set': 'PUT /inboxes/{inbox}/threads/{thread_id}/labels',
  'inboxes.threads.labels.remove': 'DELETE /inboxes/{inbox}/threads/{thread_id}/labels/{label_id}',
  'inboxes.labels.list': 'GET /inboxes/{inbox}/labels',
  'inboxes.labels.create': 'POST /inboxes/{inbox}/labels',
  'inboxes.labels.update': 'PATCH /inboxes/{inbox}/labels/{label_id}',
  'inboxes.labels.remove': 'DELETE /inboxes/{inbox}/labels/{label_id}',
  'inboxes.drafts.list': 'GET /inboxes/{inbox}/drafts',
  'inboxes.drafts.create': 'POST /inboxes/{inbox}/drafts',
  'inboxes.drafts.get': 'GET /inboxes/{inbox}/drafts/{draft_id}',
  'inboxes.drafts.update': 'PATCH /inboxes/{inbox}/drafts/{draft_id}',
  'inboxes.drafts.remove': 'DELETE /inboxes/{inbox}/drafts/{draft_id}',
  'inboxes.drafts.send': 'POST /inboxes/{inbox}/drafts/{draft_id}/send',
  'inboxes.agent.get': 'GET /inboxes/{inbox}/agent',
  'inboxes.agent.update': 'PATCH /inboxes/{inbox}/agent',

  'logs.list': 'GET /logs',
  'logs.get': 'GET /logs/{log_id}',

  'oauthGrants.list': 'GET /oauth/grants',
  'oauthGrants.revoke': 'DELETE /oauth/grants/{oauth_grant_id}',

  'segments.create': 'POST /segments',
  'segments.list': 'GET /segments',
  'segments.get': 'GET /segments/{id}',
  'segments.update': 'PATCH /segments/{id}',
  'segments.remove': 'DELETE /segments/{id}',
  // `audiences` is the same class as `segments` (deprecated alias): same paths.
  'audiences.create': 'POST /segments',
  'audiences.list': 'GET /segments',
  'audiences.get': 'GET /segments/{id}',
  'audiences.update': 'PATCH /segments/{id}',
  'audiences.remove': 'DELETE /segments/{id}',

  'suppressions.add': 'POST /suppressions',
  'suppressions.list': 'GET /suppressions',
  'suppressions.get': 'GET /suppressions/{suppression}',
  'suppressions.remove': 'DELETE /suppressions/{suppression}',
  'suppressions.batch.add': 'POST /suppressions/batch/add',
  'suppressions.batch.remove': 'POST /suppressions/batch/remove',

  'templates.create': 'POST /templates',
  'templates.remove': 'DELETE /templates/{id}',
  'templates.get': 'GET /templates/{id}',
  'templates.list': 'GET /templates',
  'templates.duplicate': 'POST /templates/{id}/duplicate',
  'templates.publish': 'POST /templates/{id}/publish',
  'templates.update': 'PATCH /templates/{id}',

  'topics.create': 'POST /topics',
  'topics.list': 'GET /topics',
  'topics.get': 'GET /topics/{id}',
  'topics.update': 'PATCH /topics/{id}',
  'topics.remove': 'DELETE /topics/{id}',

  'usage.get': 'GET /usage',

  'webhooks.create': 'POST /webhooks',
  'webhooks.get': 'GET /webhooks/{webhook_id}',
  'webhooks.list': 'GET /webhooks',
  'webhooks.update': 'PATCH /webhooks/{webhook_id}',
  'webhooks.remove': 'DELETE /webhooks/{webhook_id}',
  'webhooks.rotateSigningSecret': 'POST /webhooks/{webhook_id}/signing-secret/rotate',
  'webhooks.verify': { local: 'verifies a delivery signature in process (svix); tested on real deliveries' },
  'webhooks.events.list': 'GET /webhooks/{webhook_id}/events',
  'webhooks.events.get': 'GET /webhooks/{webhook_id}/events/{event_id}',
  'webhooks.events.replay': 'POST /webhooks/{webhook_id}/events/{event_id}/replay',
  'webhooks.events.attempts.list': 'GET /webhooks/{webhook_id}/events/{event_id}/attempts',
};

/** Top-level members whose whole subtree is not served, with the reason. */
export const NOT_SERVED_GROUPS = {
};

const HTTP = ['get', 'post', 'put', 'patch', 'delete'];

/** Classes of a .d.mts: name -> { members: {prop: Class}, methods: [name] }. */
function parseClasses(dts) {
  const classes = {};
  const re = /^(?:export )?declare class (\w+\$?\d*)(?:<[^\n{]*>)?(?: implements [^\n{]*)? \{\n([\s\S]*?)^\}/gm;
  for (const m of dts.matchAll(re)) {
    const members = {};
    const methods = [];
    for (const line of m[2].split('\n')) {
      const prop = /^ {2}readonly (\w+): (\w+\$?\d*);/.exec(line);
      if (prop) { members[prop[1]] = prop[2]; continue; }
      const meth = /^ {2}(\w+)\s*[<(]/.exec(line);
      if (meth && meth[1] !== 'constructor') methods.push(meth[1]);
    }
    classes[m[1]] = { members, methods: [...new Set(methods)] };
  }
  return classes;
}

/** Every `a.b.method` reachable from `class Resend` (its own methods excluded). */
export function sdkMethods(dts) {
  const classes = parseClasses(dts);
  if (!classes.Resend) throw new Error('class Resend not found in index.d.mts');
  const out = [];
  const walk = (cls, prefix, seen) => {
    const c = classes[cls];
    for (const name of c.methods) out.push({ method: [...prefix, name].join('.'), cls });
    for (const [prop, sub] of Object.entries(c.members)) {
      if (classes[sub] && !seen.has(sub)) walk(sub, [...prefix, prop], new Set([...seen, sub]));
    }
  };
  for (const [prop, sub] of Object.entries(classes.Resend.members)) {
    if (classes[sub]) walk(sub, [prop], new Set([sub]));
  }
  return out;
}

/** `METHOD /path` -> operationId, from spec/openapi.yaml and its $refs. */
export function specOperations(root) {
  const specDir = path.join(root, 'spec');
  const rootDoc = YAML.parse(fs.readFileSync(path.join(specDir, 'openapi.yaml'), 'utf8'));
  const files = new Map();
  const resolve = (ref) => {
    const [file, pointer] = ref.split('#');
    if (!files.has(file)) files.set(file, YAML.parse(fs.readFileSync(path.join(specDir, file), 'utf8')));
    let node = files.get(file);
    for (const part of pointer.split('/').slice(1)) node = node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    if (!node) throw new Error(`unresolved $ref ${ref}`);
    return node;
  };
  const ops = new Map();
  for (const [p, item0] of Object.entries(rootDoc.paths ?? {})) {
    const item = item0.$ref ? resolve(item0.$ref) : item0;
    for (const m of HTTP) if (item[m]) ops.set(`${m.toUpperCase()} ${p}`, item[m].operationId);
  }
  return ops;
}

/** Source without comments (block comments, and `//` after whitespace or at line start). */
function stripComments(src) {
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
}

/** The text between the `(` at `open` and its matching `)`. */
function argText(src, open) {
  let depth = 0;
  let quote = null;
  for (let i = open; i < src.length; i++) {
    const ch = src[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch) && --depth === 0) return src.slice(open + 1, i);
  }
  return src.slice(open + 1);
}

/** Call sites in test files: [{ method, args, file, line }]. */
export function callSites(files, known) {
  const sites = [];
  const chainRe = /((?:[\w$]+(?:\(\))?\s*\.\s*)+[\w$]+)\s*(?:<[^<>()]*>)?\s*\(/g;
  for (const file of files) {
    const src = stripComments(fs.readFileSync(file, 'utf8'));
    for (const m of src.matchAll(chainRe)) {
      const parts = m[1].split('.').map((s) => s.trim().replace(/\(\)$/, ''));
      for (let i = 0; i < parts.length - 1; i++) {
        const candidate = parts.slice(i).join('.');
        if (known.has(candidate)) {
          const open = m.index + m[0].length - 1;
          sites.push({ method: candidate, args: argText(src, open), file, line: src.slice(0, m.index).split('\n').length });
          break;
        }
      }
    }
  }
  return sites;
}

const asVariants = (entry) => {
  if (typeof entry === 'string') return [{ label: null, ops: [entry] }];
  if (Array.isArray(entry)) return [{ label: null, ops: entry }];
  return entry.variants;
};

/**
 * Runs the whole check. Returns { rows, problems, summary }: one row per
 * method (or variant) with its status (`covered`, `NOT CALLED`, `not served`,
 * `local`), and the problems that make the check fail.
 */
export function checkSdkCoverage(root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')) {
  const dts = fs.readFileSync(path.join(root, 'node_modules', 'resend', 'dist', 'index.d.mts'), 'utf8');
  const sdkVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'resend', 'package.json'), 'utf8')).version;
  const methods = sdkMethods(dts);
  const ops = specOperations(root);
  const testDir = path.join(root, 'test', 'sdk');
  const files = fs.readdirSync(testDir).filter((f) => f.endsWith('.test.ts') && f !== 'coverage.test.ts').map((f) => path.join(testDir, f));
  const known = new Set(methods.map((m) => m.method));
  const sites = callSites(files, known);
  const rows = [];
  const problems = [];
  const present = new Set();

  for (const { method } of methods) {
    const group = method.split('.')[0];
    if (NOT_SERVED_GROUPS[group]) {
      rows.push({ method, variant: null, ops: [], status: 'not served', reason: NOT_SERVED_GROUPS[group].reason, calls: 0 });
      continue;
    }
    present.add(method);
    const entry = METHODS[method];
    if (entry === undefined) {
      rows.push({ method, variant: null, ops: [], status: 'UNMAPPED', calls: 0 });
      problems.push(`${method}: not in METHODS of scripts/sdk-coverage.mjs (new SDK method? map it to its operation)`);
      continue;
    }
    const mine = sites.filter((s) => s.method === method);
    if (entry.notServed) {
      rows.push({ method, variant: null, ops: [], status: 'not served', reason: entry.notServed, calls: mine.length });
      continue;
    }
    if (entry.local) {
      const status = mine.length ? 'local' : 'NOT CALLED';
      rows.push({ method, variant: null, ops: [], status, reason: entry.local, calls: mine.length });
      if (!mine.length) problems.push(`${method}: never called in test/sdk (local method: ${entry.local})`);
      continue;
    }
    const variants = asVariants(entry);
    for (const v of variants) {
      const calls = mine.filter((s) => (v.when ? v.when.test(s.args) : !variants.some((o) => o.when && o.when.test(s.args))));
      const missing = v.ops.filter((o) => !ops.has(o));
      const row = { method, variant: v.label, ops: v.ops.map((o) => `${o} (${ops.get(o) ?? 'NOT IN SPEC'})`), calls: calls.length };
      if (missing.length) {
        row.status = 'NOT IN SPEC';
        problems.push(`${method}${v.label ? ` [${v.label}]` : ''}: ${missing.join(', ')} not in spec/openapi.yaml (serve it, or mark the method notServed)`);
      } else if (!calls.length) {
        row.status = 'NOT CALLED';
        problems.push(`${method}${v.label ? ` [${v.label}]` : ''}: never called in test/sdk/*.test.ts`);
      } else {
        row.status = 'covered';
        row.at = calls.slice(0, 3).map((c) => `${path.relative(root, c.file)}:${c.line}`);
      }
      rows.push(row);
    }
  }
  const specPaths = [...ops.keys()].map((k) => k.split(' ')[1]);
  const stale = [
    ...Object.entries(METHODS).filter(([, e]) => e.notServed).map(([name, e]) => [name, e.path]),
    ...Object.entries(NOT_SERVED_GROUPS).map(([name, g]) => [`${name}.*`, g.path]),
  ];
  for (const [name, prefix] of stale) {
    if (!prefix) problems.push(`${name}: a notServed entry needs the path it would call`);
    else if (specPaths.some((p) => p === prefix || p.startsWith(`${prefix}/`))) problems.push(`${name}: marked not served, but spec/openapi.yaml now has ${prefix}: map it to its operations`);
  }
  for (const name of Object.keys(METHODS)) {
    if (!present.has(name)) problems.push(`${name}: in METHODS but not a method of resend@${sdkVersion}`);
  }
  const served = rows.filter((r) => r.status !== 'not served');
  const summary = {
    sdkVersion,
    methods: new Set(rows.map((r) => r.method)).size,
    rows: rows.length,
    served: served.length,
    covered: rows.filter((r) => r.status === 'covered' || r.status === 'local').length,
    notServed: rows.filter((r) => r.status === 'not served').length,
  };
  return { rows, problems, summary };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const result = checkSdkCoverage();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    const { rows, problems, summary } = result;
    for (const r of rows) {
      const name = r.variant ? `${r.method} [${r.variant}]` : r.method;
      const detail = r.status === 'covered' ? r.ops.join(', ') : r.reason ?? r.ops.join(', ');
      console.log(`${r.status.padEnd(11)} ${name.padEnd(58)} ${detail}`);
    }
    const notServedGroups = Object.keys(NOT_SERVED_GROUPS).map((g) => `${g} (${rows.filter((r) => r.method.startsWith(`${g}.`)).length} methods)`);
    console.log(`\nresend@${summary.sdkVersion}: ${summary.methods} methods, ${summary.rows} rows (methods x variants); ` +
      `${summary.covered}/${summary.served} served or local rows called by test/sdk; ${summary.notServed} not served: ${[...notServedGroups, ...Object.keys(METHODS).filter((k) => METHODS[k].notServed)].join(', ')}`);
    if (problems.length) {
      console.error(`\n${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
      process.exit(1);
    }
  }
}
