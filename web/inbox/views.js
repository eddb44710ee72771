// @ts-check
/**
 * The detail views of the other tabs: a webhook delivery (with Replay), a
 * domain, a contact, a broadcast, an automation run, an inbox. Values are
 * put in the page as text.
 */
import { api, messageOf } from './api.js';
import { badge, fmtTime, h, json, kv, list, table, toast } from './dom.js';
import { render, state } from './store.js';

/** A webhook delivery: its attempts, payload and headers, and Replay. @param {import('./types.js').Delivery} d */
export function deliveryView(d) {
  const headers = d.headers || {};
  let pretty; try { pretty = JSON.stringify(JSON.parse(d.body), null, 2); } catch { pretty = d.body; }
  const replay = h('button', { className: 'btn', id: 'replay', 'data-testid': 'replay', onclick: () => {
    replay.disabled = true;
    api('webhook-deliveries/' + encodeURIComponent(d.id) + '/replay', { method: 'POST' }).then((/** @type {import('./types.js').Delivery} */ nd) => {
      state.deliveries = state.deliveries.map((x) => x.id === nd.id ? nd : x);
      const last = nd.attempts[nd.attempts.length - 1];
      toast('Replayed: ' + (last.status_code || last.error));
      render();
    }, (e) => { toast('Replay failed: ' + messageOf(e)); replay.disabled = false; });
  } }, 'Replay');
  return [
    h('h1', { className: 'mono' }, d.event_type),
    h('div', { className: 'actions' }, badge(d.status, 'delivery-status'), replay, h('span', { className: 'note' }, 'Sends it again now: same svix-id, fresh signature.')),
    h('h2', null, 'Delivery'),
    h('div', { className: 'card' }, kv([
      ['svix-id', d.id, 'mono'], ['Webhook', d.webhook_id, 'mono'], ['Created', fmtTime(d.created_at)],
      ['Next attempt', d.next_attempt_at ? fmtTime(d.next_attempt_at) : null], ['Attempts', String(d.attempts.length)],
    ])),
    h('h2', null, 'Attempts'),
    h('div', { className: 'card' }, d.attempts.length ? h('table', { id: 'attempts', 'data-testid': 'attempts' },
      h('thead', null, h('tr', null, h('th', null, '#'), h('th', null, 'When (emulated)'), h('th', null, 'Result'), h('th', null, 'Duration'), h('th', null, 'Endpoint'))),
      h('tbody', null, d.attempts.map((a, i) => {
        const ok = a.status_code !== null && a.status_code >= 200 && a.status_code < 300;
        return h('tr', null, h('td', null, String(i + 1) + (a.replay ? ' (replay)' : '')), h('td', null, fmtTime(a.at)),
          h('td', null, h('span', { className: 'badge ' + (ok ? 'ok' : (a.status_code === null && /record/.test(a.error || '') ? 'info' : 'bad')) }, a.status_code !== null ? String(a.status_code) : 'no response'),
            a.error && !ok ? h('div', { className: 'note' }, a.error) : null),
          h('td', null, a.duration_ms + ' ms'), h('td', { className: 'mono' }, a.endpoint || ''));
      }))) : h('div', { className: 'empty' }, 'Not attempted yet: the first attempt runs at the next clock advance (manual clock) or at once (real clock).')),
    h('h2', null, 'Payload'),
    h('div', { className: 'card' }, h('pre', { 'data-testid': 'payload' }, pretty)),
    h('h2', null, 'Headers (latest attempt)'),
    h('div', { className: 'card' }, Object.keys(headers).length ? h('table', { className: 'pairs' }, h('tbody', null, Object.keys(headers).map((k) =>
      h('tr', null, h('td', { className: 'mono' }, k), h('td', { className: 'mono', style: 'word-break:break-all' }, String(headers[k])))))) : h('div', { className: 'empty' }, 'No attempt yet.')),
  ];
}

/** A value as text (null when absent). @param {unknown} v */
const text = (v) => v === null || v === undefined ? null : String(v);

/** A domain: its DNS records and latest claim. @param {import('./types.js').Domain} d */
export function domainView(d) {
  const c = d.claim;
  return [
    h('h1', { 'data-testid': 'domain-name' }, d.name),
    h('div', { className: 'actions' }, badge(d.status, 'domain-status'), h('span', { className: 'note mono' }, d.id)),
    h('h2', null, 'Domain'),
    h('div', { className: 'card' }, kv([['Status', d.status], ['Region', d.region], ['Sending', text(d.capabilities.sending)], ['Receiving', text(d.capabilities.receiving)], ['Created', fmtTime(d.created_at)]])),
    h('h2', null, 'DNS records'),
    h('div', { className: 'card' }, table('domain-records', ['Record', 'Type', 'Name', 'Value', 'Status'], d.records.map((r) =>
      h('tr', null, h('td', null, r.record), h('td', { className: 'mono', style: 'white-space:nowrap' }, r.type + (r.priority !== undefined ? ' ' + r.priority : '')), h('td', { className: 'mono' }, r.name), h('td', { className: 'value' }, r.value), h('td', null, badge(r.status)))))),
    h('h2', null, 'Claim'),
    h('div', { className: 'card', 'data-testid': 'domain-claim' }, c ? kv([['Status', c.status], ['Record', c.record ? c.record.type + ' ' + c.record.name + ' = ' + c.record.value : null, 'mono'], ['Created', c.created_at], ['Expires', c.expires_at], ['Failure', c.failure_reason], ['Blocked', c.blocked_reason]])
      : h('div', { className: 'empty' }, 'No claim.')),
  ];
}

/** A contact: segments, topics, properties. @param {import('./types.js').Contact} c */
export function contactView(c) {
  const properties = c.properties || {};
  const props = Object.keys(properties);
  return [
    h('h1', { 'data-testid': 'contact-email' }, c.email),
    h('div', { className: 'actions' }, badge(c.unsubscribed ? 'unsubscribed' : 'subscribed', 'contact-status'), h('span', { className: 'note mono' }, c.id)),
    h('h2', null, 'Contact'),
    h('div', { className: 'card' }, kv([['First name', c.first_name], ['Last name', c.last_name], ['Created', fmtTime(c.created_at)]])),
    h('h2', null, 'Segments'),
    h('div', { className: 'card' }, c.segments.length ? h('div', { className: 'chips', 'data-testid': 'contact-segments' }, c.segments.map((s) => h('span', { className: 'chip' }, s.name))) : h('div', { className: 'empty', 'data-testid': 'contact-segments' }, 'In no segment.')),
    h('h2', null, 'Topics'),
    h('div', { className: 'card' }, c.topics.length ? table('contact-topics', ['Topic', 'Subscription'], c.topics.map((t) => h('tr', null, h('td', null, t.name), h('td', null, badge(t.subscription))))) : h('div', { className: 'empty' }, 'The team has no topic.')),
    h('h2', null, 'Properties'),
    h('div', { className: 'card' }, props.length ? h('table', { className: 'pairs', 'data-testid': 'contact-properties' }, h('tbody', null, props.map((k) => h('tr', null, h('td', { className: 'mono' }, k), h('td', null, properties[k] === null ? '—' : String(properties[k])))))) : h('div', { className: 'empty' }, 'The team has no contact property.')),
  ];
}

/** A broadcast: its recipient counts. @param {import('./types.js').Broadcast} b */
export function broadcastView(b) {
  const st = b.stats;
  /** @type {(keyof typeof st)[]} */
  const counts = ['recipients', 'sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'];
  return [
    h('h1', { 'data-testid': 'broadcast-name' }, b.name || '(unnamed)'),
    h('div', { className: 'actions' }, badge(b.status, 'broadcast-status'), h('span', { className: 'note mono' }, b.id)),
    h('h2', null, 'Recipients'),
    h('div', { className: 'stats', 'data-testid': 'broadcast-stats' }, counts.map((k) =>
      h('div', { className: 'stat', 'data-testid': 'stat-' + k }, h('div', { className: 'n' }, String(st[k])), h('div', { className: 'l' }, k)))),
    h('h2', null, 'Broadcast'),
    h('div', { className: 'card' }, kv([['From', b.from], ['Subject', b.subject], ['Segment', b.segment_name || b.segment_id], ['Created', fmtTime(b.created_at)], ['Scheduled', b.scheduled_at ? fmtTime(b.scheduled_at) : null], ['Sent', b.sent_at ? fmtTime(b.sent_at) : null]])),
  ];
}

/** An automation run, step by step. @param {import('./types.js').Run} r */
export function runView(r) {
  return [
    h('h1', { 'data-testid': 'run-name' }, r.automation_name || r.automation_id),
    h('div', { className: 'actions' }, badge(r.status, 'run-status'), h('span', { className: 'note mono' }, r.id)),
    h('h2', null, 'Run'),
    h('div', { className: 'card' }, kv([['Event', r.event_name, 'mono'], ['Contact', r.contact_email], ['Created', fmtTime(r.created_at)], ['Started', r.started_at ? fmtTime(r.started_at) : null], ['Completed', r.completed_at ? fmtTime(r.completed_at) : null]])),
    h('h2', null, 'Steps'),
    h('div', { className: 'card' }, r.steps.length ? table('run-steps', ['Step', 'Type', 'Status', 'Started', 'Completed', 'Output / error'], r.steps.map((s) =>
      h('tr', null, h('td', { className: 'mono' }, s.key), h('td', { className: 'mono' }, s.type), h('td', null, badge(s.status)), h('td', null, s.started_at ? fmtTime(s.started_at) : '—'), h('td', null, s.completed_at ? fmtTime(s.completed_at) : '—'),
        h('td', null, s.error ? h('pre', { style: 'padding:0;color:var(--bad)' }, json(s.error)) : s.output ? h('pre', { style: 'padding:0' }, json(s.output)) : '')))) : h('div', { className: 'empty' }, 'No step yet.')),
  ];
}

/** The folders of an inbox, in the service's order (docs/reference/inboxes.md: inbox, archive, spam, sent, trash). */
const FOLDERS = ['inbox', 'archive', 'spam', 'sent', 'trash'];
/**
 * An inbox: its threads by folder (each with labels, assignee, read state
 * and its emails), its drafts, labels and agent settings.
 * @param {import('./types.js').Inbox} x
 */
export function inboxView(x) {
  /** @param {{ name: string, color?: string | null }} l */
  const labelChip = (l) => h('span', { className: 'chip', style: l.color ? 'border-color:' + l.color : '' }, l.name);
  return [
    h('h1', { 'data-testid': 'inbox-address' }, x.email_address),
    h('div', { className: 'actions' }, h('span', { className: 'note' }, x.unread + ' unread · ' + x.drafts + ' drafts'), h('span', { className: 'note mono' }, x.id)),
    h('h2', null, 'Threads'),
    h('div', { className: 'card', 'data-testid': 'inbox-threads' }, x.threads.length ? FOLDERS.filter((f) => x.threads.some((t) => t.folder === f)).map((f) =>
      h('div', null, h('h3', { 'data-testid': 'folder-' + f }, f),
        table('inbox-threads-' + f, ['Subject', 'From', 'Emails', 'Labels', 'Assignee', 'Last'], x.threads.filter((t) => t.folder === f).map((t) =>
          h('tr', { 'data-testid': 'thread-row', style: t.read ? '' : 'font-weight:600' },
            h('td', null, t.subject || '(no subject)'), h('td', null, t.from || ''), h('td', null, String(t.emails.length)),
            h('td', null, h('div', { className: 'chips' }, t.labels.map(labelChip))), h('td', null, t.assignee_email || '—'), h('td', null, fmtTime(t.received_at))))))) : h('div', { className: 'empty' }, 'No thread yet. Mail received for this address lands here.')),
    h('h2', null, 'Drafts'),
    h('div', { className: 'card' }, x.draft_list.length ? table('inbox-drafts', ['Type', 'To', 'Subject', 'Updated'], x.draft_list.map((d) =>
      h('tr', null, h('td', null, badge(d.type)), h('td', null, list(d.to).join(', ')), h('td', null, d.subject || ''), h('td', null, fmtTime(d.updated_at))))) : h('div', { className: 'empty' }, 'No draft.')),
    h('h2', null, 'Labels'),
    h('div', { className: 'card' }, x.labels.length ? h('div', { className: 'chips', 'data-testid': 'inbox-labels' }, x.labels.map(labelChip)) : h('div', { className: 'empty' }, 'No label.')),
    h('h2', null, 'Agent'),
    h('div', { className: 'card' }, kv([['Tone', x.agent.tone], ['Instructions', x.agent.instructions], ['Allowed actions', x.agent.actions.join(', ') || null]])),
  ];
}
