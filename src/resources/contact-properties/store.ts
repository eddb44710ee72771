/**
 * Contact property rows and the typing of contact property values
 * (docs/reference/interface-spec.md#contact-property; docs/reference/resources.md#contact-properties).
 */
import type { Emulator } from '../../context.js';
import { apiTime, newId } from '../../http/format.js';
import { errors } from '../../http/errors.js';
import { teamPager } from '../../http/pagination.js';
import { contactPropertyMessages } from './messages.js';
import type { ListItem, ResponseBody } from '../../http/document-types.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** Contact properties: `fallback_value` is JSON text (`null` when none). */
export const contactPropertiesTable = defineTable(
  'contact_properties',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    key: text().notNull(),
    type: text().notNull().as<PropertyType>(),
    /** JSON text: a string, a number or `null` (no fallback). */
    fallback_value: text().notNull().default('null'),
    /** Emulated ms. */
    created_at: integer().notNull(),
  },
  {
    unique: [['team_id', 'key']],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [contactPropertiesTable];

/** Types a contact property can have (OA/SDK: `string` | `number`). */
export type PropertyType = 'string' | 'number';

/** A `contact_properties` row; `fallback_value` is JSON text (string, number or null). */
export type PropertyRow = RowOf<typeof contactPropertiesTable>;

/** The fallback value of a row (string, number or null). */
export function fallbackOf(row: Pick<PropertyRow, 'fallback_value'>): string | number | null {
  return JSON.parse(row.fallback_value) as string | number | null;
}

/** The columns the API shapes read (`toProperty`, `toPropertyItem`). */
const LIST_NAMES = ['id', 'key', 'type', 'fallback_value', 'created_at'] as const;

/** What the API shapes read of a property: its `PROPERTY_LIST_COLUMNS`. */
export type PropertyListRow = Pick<PropertyRow, (typeof LIST_NAMES)[number]>;

/** The single shape: `{object, id, key, type, fallback_value, created_at}`. */
export function toProperty(row: PropertyListRow): ResponseBody<'contact-properties/get'> {
  return { object: 'contact_property', id: row.id, key: row.key, type: row.type, fallback_value: fallbackOf(row), created_at: apiTime(row.created_at) };
}

/** The columns its list items read (a page selects only these: a list reads only what it shows). */
export const PROPERTY_LIST_COLUMNS = contactPropertiesTable.columnList(LIST_NAMES);

/** The list item shape (no `object`). */
export function toPropertyItem(row: PropertyListRow): ListItem<'contact-properties/list'> {
  const { object: _o, ...rest } = toProperty(row);
  return rest;
}

/** The team's property by id, or 404 `Contact property not found`. */
export function getPropertyOr404(ctx: Emulator, teamId: string, id: string): PropertyRow {
  const row = ctx.db.prepare('SELECT * FROM contact_properties WHERE id = ? AND team_id = ?').get(id, teamId) as PropertyRow | undefined;
  if (!row) throw errors.notFound('Contact property');
  return row;
}

/** Every property of the team, by key. */
export function propertiesByKey(ctx: Emulator, teamId: string): Map<string, PropertyRow> {
  const rows = ctx.db.prepare('SELECT * FROM contact_properties WHERE team_id = ? ORDER BY seq').all(teamId) as PropertyRow[];
  return new Map(rows.map((r) => [r.key, r]));
}

/**
 * Checks that `value` fits a property of `type`: a string for `string`, a
 * finite number for `number`; `null` always fits. Throws 422
 * `validation_error` naming `field` otherwise (docs/reference/resources.md#contact-properties:
 * a fallback of the property's type).
 */
export function checkTyped(type: PropertyType, value: unknown, field: string): string | number | null {
  if (value === null) return null;
  if (type === 'string' && typeof value === 'string') return value;
  if (type === 'number' && typeof value === 'number' && Number.isFinite(value)) return value;
  throw contactPropertyMessages.wrongType(field, type);
}

/**
 * Validates custom property values given for a contact (POST/PATCH
 * /contacts): every key must be a contact property of the team (422
 * `validation_error` otherwise) and every value must match its type.
 * Returns the typed values (`null` = clear the value).
 */
export function validateContactProperties(ctx: Emulator, teamId: string, input: Record<string, unknown>): Record<string, string | number | null> {
  const defs = propertiesByKey(ctx, teamId);
  const out: Record<string, string | number | null> = {};
  for (const [key, value] of Object.entries(input)) {
    const def = defs.get(key);
    if (!def) throw contactPropertyMessages.unknownProperty(key);
    out[key] = checkTyped(def.type, value, `properties.${key}`);
  }
  return out;
}

/** The INSERT of a new property: every column but `seq`, positional. */
const INSERT_PROPERTY = contactPropertiesTable.insert(contactPropertiesTable.columnsExcept('seq'));

/** Inserts a property (no validation; callers validate). Returns the row. */
export function insertProperty(
  ctx: Emulator,
  p: { id?: string; teamId: string; key: string; type: PropertyType; fallbackValue?: string | number | null; createdAt?: number },
): PropertyRow {
  const id = p.id ?? newId();
  const row: Omit<PropertyRow, 'seq'> = { id, team_id: p.teamId, key: p.key, type: p.type, fallback_value: JSON.stringify(p.fallbackValue ?? null), created_at: p.createdAt ?? ctx.clock.nowMs() };
  ctx.db.prepare(INSERT_PROPERTY.sql).run(...INSERT_PROPERTY.params(row));
  return ctx.db.prepare('SELECT * FROM contact_properties WHERE id = ?').get(id) as PropertyRow;
}

/** A page of the team's `contact_properties` rows (`paginateTeam` options but the table). */
export const pageProperties = teamPager<PropertyRow>('contact_properties');

/** True when the team has a contact property with this key. */
export function propertyKeyTaken(ctx: Emulator, teamId: string, key: string): boolean {
  return ctx.db.prepare('SELECT 1 FROM contact_properties WHERE team_id = ? AND key = ?').get(teamId, key) !== undefined;
}

/** Sets a property's fallback value (stored as JSON). */
export function setPropertyFallback(ctx: Emulator, id: string, value: unknown): void {
  ctx.db.prepare('UPDATE contact_properties SET fallback_value = ? WHERE id = ?').run(JSON.stringify(value), id);
}

/** Deletes a property row (the caller clears the contacts' values, contacts' `removePropertyValues`, in the same transaction). */
export function deleteProperty(ctx: Emulator, id: string): void {
  ctx.db.prepare('DELETE FROM contact_properties WHERE id = ?').run(id);
}
