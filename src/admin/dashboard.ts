/**
 * What the inbox page's dashboard views read (the whole account visible while one builds;
 * spec `spec/paths/admin-dashboard.yaml`; no auth; read-only). Each view is
 * one team's state, read through the owning resource's exported functions
 * (never its SQL). Times ISO 8601, emulated.
 * | operationId | path | answers |
 * |---|---|---|
 * | admin/dashboard-received-emails | `GET /_emulator/teams/{team_id}/received-emails` | received emails, newest first (at most 200), with html, text, attachments (download URLs), `raw_url`, `links`, `codes` |
 * | admin/dashboard-domains | `GET /_emulator/teams/{team_id}/domains` | domains, oldest first, with their DNS records (and statuses), capabilities and latest claim (or null) |
 * | admin/dashboard-contacts | `GET /_emulator/teams/{team_id}/contacts` | contacts, newest first (at most 500), each with its segments, its subscription to every topic, its properties (fallbacks applied); plus the team's `segments` and `topics` |
 * | admin/dashboard-broadcasts | `GET /_emulator/teams/{team_id}/broadcasts` | broadcasts, newest first, with status, times and `stats` (recipients, sent, delivered, opened, clicked, bounced, complained) |
 * | admin/dashboard-automation-runs | `GET /_emulator/teams/{team_id}/automation-runs` | automation runs, newest first (at most 200), each step with status, times, output, error |
 * (`admin/dashboard-usage`, the team's usage, is served by the usage room: src/resources/usage/handlers.ts.)
 * An unknown team is 404 `Team not found`.
 */
import type { Emulator } from '../context.js';
import { teamExists } from '../state/teams.js';
import { errors } from '../http/errors.js';
import { isoTime, fromJson } from '../http/format.js';
import type { OpRequest, ResourceModule } from '../module.js';
import { listDomains, recordsOf, capabilitiesOf, latestClaimOf } from '../resources/domains/service.js';
import { contactPropertyValues, explicitSubscription, listContacts, segmentIdsOf } from '../resources/contacts/service.js';
import { listSegments } from '../resources/segments/service.js';
import { listTopics } from '../resources/topics/service.js';
import { propertiesByKey } from '../resources/contact-properties/service.js';
import { broadcastSummary, listBroadcasts } from '../resources/broadcasts/service.js';
import { listRuns, runStepRows } from '../resources/automations/service.js';
import { listReceivedEmails, receivedAttachmentsOf } from '../resources/receiving/service.js';
import { extractCodes } from './codes.js';
import { extractLinks } from './emails.js';
import type { Answer, Req, OperationHandlers } from '../http/document-types.js';

/** The team id of the path, or 404 `Team not found`. */
function teamOf(ctx: Emulator, req: OpRequest): string {
  const id = req.params.team_id;
  if (!teamExists(ctx, id)) throw errors.notFound('Team');
  return id;
}

const addresses = (json: string): string[] => fromJson<string[]>(json) ?? [];

function receivedEmails(ctx: Emulator, req: Req<'admin/dashboard-received-emails'>): Answer<'admin/dashboard-received-emails'> {
  const teamId = teamOf(ctx, req);
  return {
    object: 'list',
    data: listReceivedEmails(ctx, teamId).map((r) => ({
      id: r.id,
      from: r.from_header,
      to: addresses(r.to_addresses),
      cc: addresses(r.cc_addresses),
      received_for: addresses(r.received_for),
      subject: r.subject,
      message_id: r.message_id,
      html: r.html,
      text: r.text,
      created_at: isoTime(r.created_at)!,
      attachments: receivedAttachmentsOf(ctx, r.id).map((a) => ({
        id: a.id, filename: a.filename, content_type: a.content_type, content_id: a.content_id, size: a.size,
        download_url: `/_emulator/inbound/attachments/${a.id}`,
      })),
      raw_url: `/_emulator/inbound/emails/${r.id}/raw`,
      links: extractLinks(r.html, r.text),
      codes: extractCodes(r.subject, r.text, r.html),
    })),
  };
}

function domains(ctx: Emulator, req: Req<'admin/dashboard-domains'>): Answer<'admin/dashboard-domains'> {
  const teamId = teamOf(ctx, req);
  return {
    object: 'list',
    data: listDomains(ctx, teamId).map((d) => ({
      id: d.id,
      name: d.name,
      status: d.status,
      region: d.region,
      capabilities: capabilitiesOf(d),
      created_at: isoTime(d.created_at)!,
      records: recordsOf(d),
      claim: latestClaimOf(ctx, d.id),
    })),
  };
}

function contacts(ctx: Emulator, req: Req<'admin/dashboard-contacts'>): Answer<'admin/dashboard-contacts'> {
  const teamId = teamOf(ctx, req);
  const segments = listSegments(ctx, teamId);
  const segmentName = new Map(segments.map((s) => [s.id, s.name]));
  const topics = listTopics(ctx, teamId);
  const definitions = propertiesByKey(ctx, teamId);
  return {
    object: 'list',
    segments: segments.map((s) => ({ id: s.id, name: s.name })),
    topics: topics.map((t) => ({ id: t.id, name: t.name, default_subscription: t.default_subscription })),
    data: listContacts(ctx, teamId).map((c) => ({
      id: c.id,
      email: c.email,
      first_name: c.first_name,
      last_name: c.last_name,
      unsubscribed: c.unsubscribed,
      created_at: isoTime(c.created_at)!,
      segments: segmentIdsOf(ctx, c.id).filter((id) => segmentName.has(id)).map((id) => ({ id, name: segmentName.get(id)! })),
      topics: topics.map((t) => ({ id: t.id, name: t.name, subscription: explicitSubscription(ctx, c.id, t.id) ?? t.default_subscription })),
      properties: contactPropertyValues(ctx, teamId, c, definitions),
    })),
  };
}

function broadcasts(ctx: Emulator, req: Req<'admin/dashboard-broadcasts'>): Answer<'admin/dashboard-broadcasts'> {
  const teamId = teamOf(ctx, req);
  const segmentName = new Map(listSegments(ctx, teamId).map((s) => [s.id, s.name]));
  return {
    object: 'list',
    data: listBroadcasts(ctx, teamId).map((b) => ({
      id: b.id,
      name: b.name,
      status: b.status,
      from: b.from_address,
      subject: b.subject,
      segment_id: b.segment_id,
      segment_name: segmentName.get(b.segment_id) ?? null,
      created_at: isoTime(b.created_at)!,
      scheduled_at: isoTime(b.scheduled_at),
      sent_at: isoTime(b.sent_at),
      stats: broadcastSummary(ctx, b),
    })),
  };
}

function automationRuns(ctx: Emulator, req: Req<'admin/dashboard-automation-runs'>): Answer<'admin/dashboard-automation-runs'> {
  const teamId = teamOf(ctx, req);
  return {
    object: 'list',
    data: listRuns(ctx, teamId).map((r) => ({
      id: r.id,
      automation_id: r.automation_id,
      automation_name: r.automation_name,
      status: r.status,
      event_name: r.event_name,
      contact_email: r.contact_email,
      created_at: isoTime(r.created_at)!,
      started_at: isoTime(r.started_at),
      completed_at: isoTime(r.completed_at),
      steps: runStepRows(ctx, r.id).map((s) => ({
        key: s.key,
        type: s.type,
        status: s.status,
        started_at: isoTime(s.started_at),
        completed_at: isoTime(s.completed_at),
        output: fromJson<Record<string, unknown>>(s.output),
        error: fromJson<Record<string, unknown>>(s.error),
      })),
    })),
  };
}

export const dashboardModule: ResourceModule = {
  name: 'admin-dashboard',
  operations: {
    'admin/dashboard-received-emails': receivedEmails,
    'admin/dashboard-domains': domains,
    'admin/dashboard-contacts': contacts,
    'admin/dashboard-broadcasts': broadcasts,
    'admin/dashboard-automation-runs': automationRuns,
  } satisfies OperationHandlers,
};
