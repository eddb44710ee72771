#!/usr/bin/env node
// Development check (not part of `npm test`; needs ../shared/reference):
// runs the whole vitest suite with RESEND_EMULATOR_REFERENCE_SPEC set, so that every
// success response the tests provoke is validated against the real service's
// OpenAPI document (src/http/reference-check.ts), then prints the mismatches
// grouped by operationId and error. Mismatches the emulator keeps on purpose
// are in ALLOW below, each with its reason; any other mismatch exits 1.
//
//   node scripts/check-reference.mjs                 # whole suite
//   node scripts/check-reference.mjs test/sdk        # extra args go to vitest
//   node scripts/check-reference.mjs --no-run        # only summarise the last report
//   node scripts/check-reference.mjs --all           # also list the allowed groups one by one
//
// Env: REFERENCE_DIR (default ../shared/reference), RESEND_EMULATOR_REFERENCE_REPORT
// (default test-results/reference-mismatches.jsonl).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const refDir = path.resolve(process.env.REFERENCE_DIR ?? path.join(root, '..', 'shared', 'reference'));
const specFile = path.join(refDir, 'resend-openapi.yaml');
const report = path.resolve(root, process.env.RESEND_EMULATOR_REFERENCE_REPORT ?? 'test-results/reference-mismatches.jsonl');

const args = process.argv.slice(2);
const noRun = args.includes('--no-run');
const showAll = args.includes('--all');
const vitestArgs = args.filter((a) => a !== '--no-run' && a !== '--all');

// Why a mismatch is kept. `op`: operationId (string or RegExp); `test`: RegExp
// over the error key `<kind> <instancePath> <keyword> <detail>` (see keyOf).
// Spec (interface-spec.md / API-FACTS §8) wins over the reference; recordings
// win over the reference schema.
const ALLOW = [
  // (b) the interface spec or API-FACTS §8 decides otherwise
  { op: 'api-keys/create', test: /^fields \/ additionalProperties object$/, why: 'SPEC/API-FACTS §8 #1: the creation reply carries object "api_key"; the reference has no object' },
  { op: 'domains/create', test: /^fields \/ additionalProperties object$/, why: 'SPEC/API-FACTS §8 #2: every resource returned alone carries object ("domain"); the reference create reply has none' },
  { op: 'domains/list', test: /^fields \/data\/\* required (open|click)_tracking$/, why: 'SPEC/API-FACTS §8 #3: domain list items are id, name, status, created_at, region, capabilities' },
  { op: /^(audiences|contacts)\/list$/, test: /^fields \/ additionalProperties has_more$/, why: 'SPEC/API-FACTS §8 #13: every list envelope has has_more (the recordings too); the reference leaves it out here' },
  { op: 'contacts/remove-segment', test: /^fields \/ (additionalProperties (id|audienceId)|required (object|contact_id|segment_id))$/, why: 'SPEC/API-FACTS §8 #4: {id, audienceId, deleted}; the reference says {object:"contact_segment", contact_id, segment_id, deleted}' },
  { op: /^(contacts\/add-segment|contacts\/update-topics)$/, test: /^fields \/ (additionalProperties id|required (object|contact_id|segment_id|topics))$/, why: 'SDK types {id} (AddContactSegmentResponseSuccess, UpdateContactTopicsResponseSuccess); SPEC\'s removal reply {id, audienceId, deleted} follows the SDK types too, not the reference\'s contact_segment / contact_topics shapes' },
  { op: 'broadcasts/list', test: /^fields \/data\/\* required topic_id$/, why: 'SPEC/API-FACTS §8 #15: broadcast list items have no topic_id' },
  { op: /^broadcasts\/(list|get)$/, test: /^schema (\/data\/\*)?\/(scheduled_at|sent_at) type must be string$/, why: 'SPEC "Broadcast": scheduled_at and sent_at are timestamp or null' },
  { op: 'templates/get', test: /^schema \/reply_to type must be array,null$/, why: 'SPEC/API-FACTS §8 #8: template reply_to is a string or null' },
  { op: 'segments/list', test: /^fields \/data\/\* required audience_id$/, why: 'SPEC "Audience and Segment": id, name, created_at (no audience_id)' },
  { op: 'emails/list', test: /^schema \/data\/\*\/(bcc|cc|reply_to) type must be array$/, why: 'SPEC "Sent email": bcc, cc, reply_to are array or null (API-FACTS §4: null in the email list)' },
  { op: 'emails/list', test: /^fields \/data\/\* (required (html|text|object)|additionalProperties scheduled_at)$/, why: 'SPEC "Sent email (list item)" fields (scheduled_at, no html/text/object); API-FACTS §5.1, SDK ListEmail' },
  // (c) the recordings show otherwise than the reference schema
  { op: /^contacts\/(get|list)$/, test: /^schema (\/data\/\*)?\/(first|last)_name type must be string$/, why: 'recordings: first_name/last_name are null when unset; the reference says string' },
  { op: 'contacts/remove', test: /^fields \/ (additionalProperties contact|required id)$/, why: 'recordings (REC:CONv2-*, CON-remove-*): the key is contact, not id; SDK RemoveContactsResponseSuccess agrees' },
  { op: 'segments/create', test: /^fields \/ additionalProperties name$/, why: 'recordings (REC:SEG-create-*): the creation reply includes name' },
  { op: 'segments/get', test: /^fields \/ required (audience_id|filter)$/, why: 'recordings (REC:SEG-get-*): {object, id, name, created_at} only' },
  // (c) the reference schema is incomplete where the SDK's types and API-FACTS know more
  { op: /./, test: /^no_operation /, why: 'not in the reference document: legacy /audiences/{id}/contacts (recorded), PATCH /segments/{id} and GET /segments/{id}/contacts (recorded/SDK), broadcast duplicate, webhook events and secret rotation (newer docs, SDK)' },
  { op: 'broadcasts/get', test: /^fields \/ additionalProperties object$/, why: 'API-FACTS §5.12 and SDK GetBroadcastResponseSuccess: object "broadcast"' },
  { op: 'broadcasts/get', test: /^schema \/(preview_text|reply_to) type must be (string|array)$/, why: 'SDK Broadcast: preview_text string|null, reply_to string[]|null (unset → null, API-FACTS §4)' },
  { op: 'broadcasts/recipients', test: /^fields \/data\/\* required (count|clicked_links|bounce_type)$/, why: 'SDK BroadcastRecipientFieldsByType: count only for opened/clicked, clicked_links for clicked, bounce_type for bounced' },
  { op: /^contact-properties\/(get|list)$/, test: /fallback_value (oneOf|type)/, why: 'SDK ContactProperty: fallback_value string|null / number|null (no fallback → null)' },
  { op: 'templates/get', test: /^schema \/(alias|from|subject|text) type must be string$/, why: 'SDK Template: alias, from, subject, text are string|null (unset → null)' },
  { op: 'templates/get', test: /^schema \/variables\/\*\/fallback_value (oneOf|type)/, why: 'SDK TemplateVariable: fallback_value string|number|null' },
  { op: 'templates/list', test: /^schema \/data\/\*\/alias type must be string$/, why: 'SDK Template: alias string|null' },
  { op: /^topics\/(get|list)$/, test: /^schema (\/data\/\*)?\/description type must be string$/, why: 'a topic created without description has none: null, as the SDK\'s ContactTopic types it (string|null)' },
  { op: /^domains\/(create|get)$/, test: /^schema \/tracking_subdomain type must be string$/, why: 'no tracking subdomain configured → null (API-FACTS §4 "unset fields are null"; SPEC lists the field in the creation reply)' },
  { op: /^domains\/(create|get)$/, test: /^fields \/records\/\* required priority$/, why: 'SPEC "DNS record": priority is present on MX records only' },
  { op: 'emails/get', test: /^fields \/ additionalProperties (scheduled_at|tags|topic_id)$/, why: 'API-FACTS §5.1 (scheduled_at, tags) and SDK GetEmailResponseSuccess (scheduled_at, tags, topic_id)' },
  { op: 'emails/get', test: /^schema \/(html|text) type must be string$/, why: 'SDK GetEmailResponseSuccess: html and text are string|null' },
  { op: /^emails\/(cancel|update)$/, test: /^fields \//, why: 'API-FACTS §5.1 and SDK (CancelEmailResponseSuccess, UpdateEmailResponseSuccess): {object:"email", id}; the reference repeats the email / {scheduled_at}' },
  { op: 'emails/send-batch', test: /^fields \/ additionalProperties errors$/, why: 'API-FACTS §5.2: permissive batch validation adds errors[{index, message}]' },
  { op: 'emails/metrics', test: /^fields \/ required data$/, why: 'SDK GetEmailsMetricsResponseSuccess: data is optional (rows only with dimensions)' },
  { op: /^emails\/(get-receiving|list-receiving)$/, test: /^fields (\/data\/\*|\/) additionalProperties (raw|received_for)$/, why: 'SDK GetReceivingEmailResponseSuccess / ListReceivingEmail: received_for, raw' },
  { op: /^emails\/(get-receiving|list-receiving)$/, test: /attachments\/\*\/content_id type must be string$/, why: 'SDK InboundAttachment: content_id string|null inside a received email' },
  { op: /^emails\/(get-attachment|list-attachments|get-receiving-attachment|list-receiving-attachments)$/, test: /^fields (\/data\/\*|\/) required content_id$/, why: 'SDK AttachmentData: content_id?: string, left out when the attachment has none' },
];

if (!noRun) {
  if (!fs.existsSync(specFile)) {
    console.error(`check-reference: the reference document is not there: ${specFile}\n` +
      'This development check needs the shared reference folder next to the repository (../shared/reference),\n' +
      'or REFERENCE_DIR pointing at a folder holding resend-openapi.yaml. `npm test` does not need it.');
    process.exit(2);
  }
  fs.rmSync(report, { force: true });
  const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(process.execPath, [vitest, 'run', '--reporter=dot', ...vitestArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, RESEND_EMULATOR_REFERENCE_SPEC: specFile, RESEND_EMULATOR_REFERENCE_REPORT: report },
  });
  if (run.status !== 0) console.error(`\ncheck-reference: vitest exited with ${run.status}; the summary below covers what ran.`);
  process.exitCode = run.status === 0 ? 0 : 1;
}

if (!fs.existsSync(report)) {
  console.log('check-reference: no mismatches recorded (no report file).');
  process.exit(process.exitCode ?? 0);
}

/** One group key per error: kind, a path with indexes as `*`, keyword and its detail. */
function keyOf(kind, e) {
  const p = e.params ?? {};
  const detail = e.keyword === 'additionalProperties' ? p.additionalProperty
    : e.keyword === 'required' ? p.missingProperty
    : e.message;
  return `${kind} ${e.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') || '/'} ${e.keyword} ${detail}`;
}

const groups = new Map();
const covered = new Set();
let lines = 0;
for (const line of fs.readFileSync(report, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const r = JSON.parse(line);
  if (r.kind === 'checked' || r.kind === 'no_operation') covered.add(r.operationId);
  if (r.kind === 'checked') continue;
  lines++;
  const errs = r.errors?.length ? r.errors : [{ instancePath: '', keyword: r.kind, message: '', params: {} }];
  for (const e of errs) {
    const key = keyOf(r.kind, e);
    const g = groups.get(`${r.operationId} ${r.status} ${key}`) ?? { op: r.operationId, status: r.status, key, count: 0, sample: r };
    g.count++;
    groups.set(`${r.operationId} ${r.status} ${key}`, g);
  }
}

const opMatches = (want, op) => (want instanceof RegExp ? want.test(op) : want === op);
const why = (g) => ALLOW.find((a) => opMatches(a.op, g.op) && a.test.test(g.key))?.why;
const sorted = [...groups.values()].sort((a, b) => (a.op + a.key < b.op + b.key ? -1 : 1));
const open = sorted.filter((g) => !why(g));
const allowed = sorted.filter((g) => why(g));

console.log(`\nReference check: ${covered.size} operations checked; ${lines} mismatch records, ${groups.size} distinct (operation, error) groups.`);
if (open.length) {
  console.log(`\nUnexplained (${open.length}):`);
  let last = '';
  for (const g of open) {
    if (g.op !== last) console.log(`  ${g.op}`);
    last = g.op;
    console.log(`    [${g.status}] ${g.key}  (${g.count}×)  e.g. ${g.sample.method} ${g.sample.path} ${String(g.sample.body ?? '').slice(0, 160)}`);
  }
}
const byWhy = new Map();
for (const g of allowed) {
  const w = why(g);
  const entry = byWhy.get(w) ?? { groups: [], count: 0 };
  entry.groups.push(g);
  entry.count += g.count;
  byWhy.set(w, entry);
}
if (byWhy.size) {
  console.log(`\nAllowed (${allowed.length} groups):`);
  for (const [w, { groups: gs, count }] of byWhy) {
    console.log(`  - ${w}  (${gs.length} groups, ${count}×)`);
    if (showAll) for (const g of gs) console.log(`      ${g.op} [${g.status}] ${g.key}`);
  }
}
// Our operations whose success replies no test produced (so the check never saw them).
const ours = [];
for (const f of fs.readdirSync(path.join(root, 'spec', 'paths'))) {
  for (const m of fs.readFileSync(path.join(root, 'spec', 'paths', f), 'utf8').matchAll(/^\s*operationId:\s*(\S+)\s*$/gm)) {
    if (!m[1].startsWith('admin/')) ours.push(m[1]);
  }
}
const unseen = ours.filter((id) => !covered.has(id)).sort();
if (covered.size && unseen.length) console.log(`\nNot checked (no successful reply in the run): ${unseen.join(', ')}`);
console.log(`\n${open.length} unexplained groups, ${allowed.length} allowed.`);
if (open.length) process.exitCode = 1;
