/**
 * Contact rows and their API shapes (API-FACTS §5.7, key orders as recorded
 * in REC:CONv2-*, REC:CON-list-*).
 */
import { apiTime } from '../../http/format.js';

/** A contact as stored; times in emulated ms. */
export interface Contact {
  id: string;
  team_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  unsubscribed: boolean;
  /** Custom property values by key (without fallbacks applied). */
  properties: Record<string, string | number | boolean | null>;
  created_at: number;
  updated_at: number;
}

/** A `contacts` row; `properties` is JSON text, `unsubscribed` 0/1. */
export interface ContactRow {
  seq: number;
  id: string;
  team_id: string;
  email: string;
  email_lower: string;
  first_name: string | null;
  last_name: string | null;
  unsubscribed: number;
  properties: string;
  created_at: number;
  updated_at: number;
}

/** Row → the contract's `Contact`. */
export function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    team_id: row.team_id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    unsubscribed: row.unsubscribed === 1,
    properties: JSON.parse(row.properties),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** GET /contacts list item: `{id, created_at, email, unsubscribed, first_name, last_name}` (REC:CONv2-list-*). */
export function toContactItem(row: ContactRow) {
  return { id: row.id, created_at: apiTime(row.created_at), email: row.email, unsubscribed: row.unsubscribed === 1, first_name: row.first_name, last_name: row.last_name };
}

/** GET /segments/{id}/contacts item: `{id, email, first_name, last_name, created_at, unsubscribed}` (REC:CON-list-*). */
export function toSegmentContactItem(row: ContactRow) {
  return { id: row.id, email: row.email, first_name: row.first_name, last_name: row.last_name, created_at: apiTime(row.created_at), unsubscribed: row.unsubscribed === 1 };
}
