/**
 * The inboxes themselves (docs/reference/inboxes.md#inbox-endpoints; docs/reference/inboxes.md#inbox-errors): finding one by id or
 * address, creating one on a receiving domain of the team (or a forwarding
 * one), changing its names, removing it with what it holds.
 */
import type { Emulator } from '../../context.js';
import { inboxMessages } from './messages.js';
import type { Req } from '../../http/document-types.js';
import { newId } from '../../http/format.js';
import { capabilitiesOf, domainIdByName, findTeamDomain } from '../domains/service.js';
import { parseAddress } from '../emails/service.js';
import { emitInboxEvent, toInboxDetail } from './shapes.js';
import { deleteInbox, findInbox, insertInbox, updateInbox, type InboxRow } from './store.js';

/** The domain of forwarding addresses (`receiving_address`, docs/reference/inboxes.md#receiving-address). */
const FORWARDING_DOMAIN = 'inbound.resend-emulator.localhost';

/** The team's inbox named by id or address, or 404 `Inbox not found.` (docs/reference/inboxes.md#inbox-errors). */
export function inboxOr404(ctx: Emulator, teamId: string, idOrEmail: string): InboxRow {
  const row = findInbox(ctx, teamId, idOrEmail);
  if (!row) throw inboxMessages.inboxNotFound();
  return row;
}

/** `from_name` is a plain display name, never `Name <email>` (docs/reference/inboxes.md#inbox-endpoints): 422 naming the field otherwise. */
function checkFromName(v: string | undefined): void {
  if (v !== undefined && /[<>@\r\n]/.test(v)) throw inboxMessages.fromNameNotPlain();
}

/**
 * Creates an inbox (docs/reference/inboxes.md#inbox-endpoints): `email_address` on a verified
 * domain of the team that receives mail, or any verified domain with
 * `forwarding: true` (then a `receiving_address` is provisioned); `name`
 * defaults to the address. Raises `inbox.created`. Returns the new id.
 * Throws 422 (naming `email_address` or `from_name`) for each rule.
 */
export function createInbox(ctx: Emulator, teamId: string, b: Req<'inboxes/create'>['body']): string {
  checkFromName(b.from_name);
  const parsed = parseAddress(b.email_address);
  if (!parsed || parsed.name !== null) {
    throw inboxMessages.invalidInboxAddress();
  }
  const domainId = domainIdByName(ctx, teamId, parsed.domain);
  const domain = domainId ? findTeamDomain(ctx, teamId, domainId) : null;
  if (!domain) throw inboxMessages.inboxDomainUnknown(parsed.domain);
  if (domain.status !== 'verified') throw inboxMessages.inboxDomainNotVerified(parsed.domain);
  if (capabilitiesOf(domain).receiving !== 'enabled' && b.forwarding !== true) {
    throw inboxMessages.inboxDomainNotReceiving(parsed.domain);
  }
  if (findInbox(ctx, teamId, parsed.address)) throw inboxMessages.inboxExists(parsed.address);
  const id = newId();
  const now = ctx.clock.nowMs();
  ctx.db.transaction(() => {
    const row = insertInbox(ctx, {
      id, team_id: teamId, domain_id: domain.id, email_address: parsed.address, name: b.name ?? parsed.address, from_name: b.from_name ?? null,
      receiving_address: b.forwarding === true ? `${id}@${FORWARDING_DOMAIN}` : null, created_at: now, updated_at: now,
    });
    emitInboxEvent(ctx, row, 'inbox.created', 'api', () => ({ inbox: toInboxDetail(ctx, row) }));
  })();
  return id;
}

/** Changes an inbox's `name` and/or `from_name` (422 when neither is given) and raises `inbox.updated`. */
export function updateInboxNames(ctx: Emulator, inbox: InboxRow, b: Req<'inboxes/update'>['body']): void {
  if (b.name === undefined && b.from_name === undefined) throw inboxMessages.inboxUpdateEmpty();
  checkFromName(b.from_name);
  ctx.db.transaction(() => {
    updateInbox(ctx, inbox.id, b.name ?? inbox.name, b.from_name !== undefined ? b.from_name : inbox.from_name, ctx.clock.nowMs());
    emitInboxEvent(ctx, inbox, 'inbox.updated', 'api', () => ({ inbox: toInboxDetail(ctx, findInbox(ctx, inbox.team_id, inbox.id)!) }));
  })();
}

/** Removes an inbox with its threads, drafts, labels and agent settings (its emails stay where they are stored); raises `inbox.deleted`. */
export function removeInbox(ctx: Emulator, inbox: InboxRow): void {
  ctx.db.transaction(() => {
    deleteInbox(ctx, inbox.id);
    emitInboxEvent(ctx, inbox, 'inbox.deleted', 'api');
  })();
}
