#!/usr/bin/env node
// Rewrites citations of documents that are not in the repository into citations of
// docs/reference/ (CONTRIBUTING.md "The record: facts and how to cite them"):
//   API-FACTS §5.1            → docs/reference/resources.md#emails
//   INBOXES-FACTS §6.3        → docs/reference/inboxes.md#folders-and-read-state
//   interface-spec "Pagination" → docs/reference/interface-spec.md#pagination
//   DESIGN.md "Admin API"     → docs/reference/design.md#admin-api
//   README "Fault injection"  → docs/faults.md
// Usage: `node scripts/cite-reference.mjs FILE…` (e.g. `$(git grep -l API-FACTS -- src spec)`).
// Edits the files in place and prints each citation it could not map; those, and
// citations split across lines, are left for a person (test/architecture/citations.test.ts
// names them).
import fs from 'node:fs';
const R = 'docs/reference/';
const AF = {
  '1': 'transport.md', '2': 'errors.md#error-body', '2.1': 'errors.md#error-names-and-statuses', '2.2': 'errors.md#recorded-messages',
  '3': 'formats.md#success-statuses', '4': 'formats.md', '5': 'resources.md',
  '5.1': 'resources.md#emails', '5.2': 'resources.md#batch-sends', '5.3': 'resources.md#received-emails', '5.4': 'resources.md#domains-and-claims',
  '5.5': 'resources.md#api-keys', '5.6': 'resources.md#segments-and-audiences', '5.7': 'resources.md#contacts', '5.8': 'resources.md#contact-properties',
  '5.9': 'resources.md#contact-imports', '5.10': 'resources.md#topics', '5.11': 'resources.md#templates', '5.12': 'resources.md#broadcasts',
  '5.13': 'resources.md#automations-and-runs', '5.14': 'resources.md#events', '5.15': 'resources.md#webhook-endpoints', '5.16': 'resources.md#suppressions',
  '5.17': 'resources.md#logs', '6': 'webhooks.md', '7': 'test-addresses.md', '8': 'interface-spec.md#where-the-spec-and-the-service-differ',
};
const AFQ = { // quoted sub-items
  'ids': 'formats.md#ids-and-tokens', 'message-id': 'formats.md#ids-and-tokens', 'cursors': 'formats.md#cursors', 'page size': 'formats.md#page-size', 'page siz': 'formats.md#page-size',
  'order': 'formats.md#lists', 'rate-limit headers': 'formats.md#rate-limits', 'limit values': 'formats.md#rate-limits', 'quota headers': 'formats.md#quotas',
  'signing': 'webhooks.md#signing', 'delivery and retries': 'webhooks.md#delivery-and-retries', 'path encoding': 'transport.md#path-encoding',
};
const IF = {
  '1': 'transport', '2': 'objects', '3': 'endpoints', '3.1': 'inbox-endpoints', '3.2': 'thread-endpoints', '3.3': 'thread-emails', '3.4': 'thread-labels',
  '3.5': 'labels', '3.6': 'drafts', '3.7': 'agent-settings', '3.8': 'usage', '4': 'webhook-events', '5': 'state', '6': 'rules',
  '6.1': 'inboxes-and-arriving-mail', '6.2': 'threading', '6.3': 'folders-and-read-state', '6.4': 'label-rules', '6.5': 'draft-rules',
  '6.6': 'reply-and-forward', '6.7': 'agent', '6.8': 'assignment', '6.9': 'search', '7': 'inbox-errors', '8': 'usage', '9': '',
  '10': 'open-questions-and-our-answers', '10.1': 'inbound-identity', '10.2': 'when-a-sent-message-joins-its-thread', '10.4': 'sent-drafts',
  '10.5': 'sent-drafts', '10.6': 'creating-an-inbox', '10.7': 'receiving-address', '10.8': 'other-answers', '10.9': 'other-answers', '10.10': 'other-answers',
};
const SPEC = {
  'conventions': 'conventions', 'api key': 'api-key', 'api keys': 'api-key', 'domain': 'domain', 'domains': 'domain', 'domain claim': 'domain-claim',
  'sent email': 'sent-email', 'emails': 'sent-email', 'audience (deprecated) and segment': 'audience-deprecated-and-segment', 'audience and segment': 'audience-deprecated-and-segment',
  'audiences': 'audience-deprecated-and-segment', 'segments': 'audience-deprecated-and-segment', 'contact removal from a segment': 'contact-removal-from-a-segment',
  'contact import': 'contact-import', 'contact property': 'contact-property', 'contact properties': 'contact-property', 'broadcast': 'broadcast',
  'broadcast (list item)': 'broadcast', 'broadcasts': 'broadcast', 'topic': 'topic', 'topics': 'topic', 'template': 'template', 'templates': 'template',
  'automation and automation run': 'automation-and-automation-run', 'automations and runs': 'automation-and-automation-run', 'event': 'event',
  'webhook': 'webhook', 'webhooks': 'webhook', 'states and transitions': 'states-and-transitions', 'states and transitions: template': 'template-states',
  'pagination': 'pagination', 'authentication': 'authentication', 'events': 'events', 'errors': 'errors', 'limits': 'limits', 'versioning': 'versioning',
};
const DESIGN = {
  'admin api': 'design.md#admin-api', 'behaviour: webhooks': 'design.md#webhooks', 'behaviour: auth': 'design.md#auth', 'auth': 'design.md#auth',
  'behaviour: clock': 'design.md#clock', 'behaviour: teams': 'design.md#teams', 'behaviour': 'design.md#storage-conventions', 'cli': 'design.md#cli',
  'programmatic': 'design.md#programmatic', 'contracts being added': 'design.md#contracts', 'raw message': 'design.md#contracts',
};
const README = {
  'fault injection': 'docs/faults.md', 'searching emails': 'docs/sending.md#searching-emails-q', 'inboxes': 'docs/inboxes.md', 'outcomes': 'docs/outcomes.md',
  'the fixtures': 'docs/fixtures.md', 'benchmarks': 'docs/benchmarks.md', 'errors': 'docs/errors.md', 'usage and quotas': 'docs/quotas-and-rate-limits.md#usage-and-quotas',
  'emulator-specific behaviours': 'docs/differences.md#emulator-specific-behaviours', 'broadcasts': 'docs/contacts-and-broadcasts.md',
  'sending over smtp': 'docs/sending.md#sending-over-smtp', 'request logs': 'docs/differences.md#emulator-specific-behaviours',
  'snapshots': 'docs/admin-api.md', 'code that calls api.resend.com directly': 'docs/https-and-interception.md#code-that-calls-apiresendcom-directly',
};
const misses = [];
const ref = (t) => R + t;
function afTarget(sec, quotes) {
  for (const q of quotes) { const t = AFQ[q.toLowerCase()]; if (t) return [t]; }
  return sec && AF[sec] ? [AF[sec]] : null;
}
function rewrite(text, file) {
  // API-FACTS / INBOXES-FACTS with their section chains: "API-FACTS §1, §2.1", "API-FACTS §4 "Cursors", "Page size"", "§5.1 `last_event`, §6 payloads"
  text = text.replace(/(API-FACTS|INBOXES-FACTS)((?:[ :]*§[\d.]*\d(?:-[\d.]+)?(?:(?: "[^"\n]*")(?:, "[^"\n]*")*)?)(?:(?:[,;]| and) ?§[\d.]*\d(?:-[\d.]+)?(?:(?: "[^"\n]*")(?:, "[^"\n]*")*)?)*|(?: "[^"\n]*")(?:, "[^"\n]*")*)?/g, (all, doc, chain) => {
    const parts = [];
    const re = /§([\d.]*\d)(?:-([\d.]+))?((?: "[^"\n]*")(?:, "[^"\n]*")*)?|((?: "[^"\n]*")(?:, "[^"\n]*")*)/g;
    let m; let any = false;
    while ((m = re.exec(chain ?? ''))) {
      any = true;
      const sec = m[1];
      const quotes = [...((m[3] ?? m[4] ?? '').matchAll(/"([^"]*)"/g))].map((x) => x[1]);
      if (doc === 'API-FACTS') {
        const subs = quotes.map((q) => AFQ[q.toLowerCase()]).filter(Boolean);
        const t = subs.length ? [...new Set(subs)] : afTarget(sec, []);
        if (!t) { misses.push(`${file}: ${all}`); return all; }
        parts.push(...t.map(ref));
        if (!subs.length && quotes.length) parts.push(quotes.map((q) => `"${q}"`).join(', '));
      } else {
        // A range `§6.1-6.3` is each section of it.
        const [major, from] = sec.split('.');
        const to = m[2]?.split('.').pop();
        const secs = to && from ? Array.from({ length: Number(to) - Number(from) + 1 }, (_, i) => `${major}.${Number(from) + i}`) : [sec];
        for (const s of secs) {
          const a = IF[s]; if (a === undefined) { misses.push(`${file}: ${all}`); return all; }
          parts.push(ref('inboxes.md' + (a ? '#' + a : '')));
        }
        if (quotes.length) parts.push(quotes.map((q) => `"${q}"`).join(', '));
      }
    }
    if (!any) return ref(doc === 'API-FACTS' ? 'README.md' : 'inboxes.md');
    return parts.join('; ');
  });
  // interface-spec "A", "B"
  text = text.replace(/interface[- ]spec(?:\.md)? ((?:"[^"\n]*")(?:,? (?:"[^"\n]*"))*)/g, (all, qs) => {
    const out = [];
    for (const [, q] of qs.matchAll(/"([^"]*)"/g)) {
      const a = SPEC[q.toLowerCase()];
      if (!a) { misses.push(`${file}: ${all}`); return all; }
      const t = ref('interface-spec.md#' + a);
      if (!out.includes(t)) out.push(t);
    }
    return out.join('; ');
  });
  text = text.replace(/DESIGN\.md "([^"\n]*)"/g, (all, q) => {
    const a = DESIGN[q.toLowerCase()];
    if (!a) { misses.push(`${file}: ${all}`); return all; }
    return ref(a);
  });
  text = text.replace(/README "([^"\n]*)"/g, (all, q) => {
    const a = README[q.toLowerCase()];
    if (!a) { misses.push(`${file}: ${all}`); return all; }
    return a;
  });
  return text;
}
const files = process.argv.slice(2);
for (const f of files) {
  const before = fs.readFileSync(f, 'utf8');
  const after = rewrite(before, f);
  if (after !== before) fs.writeFileSync(f, after);
}
if (misses.length) console.log(misses.join('\n'));
