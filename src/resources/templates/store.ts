/**
 * Template rows, their versions and their API shapes.
 *
 * A template (`templates` row: id, alias, name, pointers) has versions
 * (`template_versions`: the content: from, subject, reply_to, html, text,
 * variables). `current_version_id` is the latest version (what GET shows);
 * `published_version_id` is the one sends use (docs/reference/resources.md#templates: edits after
 * publishing form a new draft; sends use the published version until
 * re-published). Name and alias belong to the template, not to a version.
 */
import type { Emulator } from '../../context.js';
import { apiTime, newId, replyToList } from '../../http/format.js';
import { ApiError, errors } from '../../http/errors.js';
import { templateMessages } from './messages.js';
import { teamPager } from '../../http/pagination.js';
import type { ListItem, ResponseBody } from '../../http/document-types.js';
import { defineTable, id, integer, seq, text, type RowOf } from '../../store/table.js';

/** A variable's fallback value as the document types it (`templates/get`). */
export type FallbackValue = NonNullable<ResponseBody<'templates/get'>['variables']>[number]['fallback_value'];

/** A stored variable (times in emulated ms). */
export interface StoredVariable {
  id: string;
  key: string;
  type: 'string' | 'number' | 'boolean' | 'object' | 'list';
  fallback_value: FallbackValue;
  created_at: number;
  updated_at: number;
}

/** The content of a version as given by a caller. */
export interface VersionInput {
  from?: string | null;
  subject?: string | null;
  reply_to?: string | string[] | null;
  html?: string;
  text?: string | null;
  variables?: { key: string; type: StoredVariable['type']; fallback_value?: unknown }[];
}

/** The `templates` table: name, alias and the version pointers; times in emulated ms. */
export const templatesTable = defineTable(
  'templates',
  {
    seq: seq(),
    id: id(),
    team_id: text().notNull(),
    alias: text(),
    name: text().notNull(),
    /** The latest version (what GET shows). */
    current_version_id: text().notNull(),
    /** The version sends use; null until published. */
    published_version_id: text(),
    published_at: integer(),
    created_at: integer().notNull(),
    updated_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'templates_team', on: 'team_id, seq' },
      { name: 'templates_alias', on: 'team_id, alias', unique: true, where: 'alias IS NOT NULL' },
    ],
  },
);

/** A template's versions (its draft and published one); they go with their template (`DELETE /templates/{id}`). */
export const templateVersionsTable = defineTable(
  'template_versions',
  {
    seq: seq(),
    id: id(),
    template_id: text().notNull().references('templates', { onDelete: 'CASCADE' }),
    from_addr: text(),
    subject: text(),
    /** JSON: string[] | null. */
    reply_to: text(),
    html: text().notNull(),
    text: text(),
    /** JSON: StoredVariable[]. */
    variables: text().notNull(),
    created_at: integer().notNull(),
    updated_at: integer().notNull(),
  },
  {
    indexes: [
      { name: 'template_versions_template', on: 'template_id' },
    ],
  },
);

/** The tables of this room (`ResourceModule.tables`). */
export const tables = [templatesTable, templateVersionsTable];

/** A `templates` row (times in emulated ms). */
export type TemplateRow = RowOf<typeof templatesTable>;

/** A `template_versions` row: a version's content (times in emulated ms). */
export type VersionRow = RowOf<typeof templateVersionsTable>;

/** The INSERT of a new template: every column but `seq`. */
const INSERT_TEMPLATE = templatesTable.insert(templatesTable.columnsExcept('seq'));

/** The INSERT of a new version: every column but `seq`. */
const INSERT_VERSION = templateVersionsTable.insert(templateVersionsTable.columnsExcept('seq'));

/** Stored reply-to → the spec's string or null (docs/reference/interface-spec.md#where-the-spec-and-the-service-differ row 8); several addresses are joined with `, `. */
export function replyToString(stored: string | null): string | null {
  const list = stored ? (JSON.parse(stored) as string[]) : null;
  return list && list.length ? list.join(', ') : null;
}

/** Does `value` fit a variable `type`? `null` always fits (no fallback). */
function fitsType(type: StoredVariable['type'], value: unknown): value is FallbackValue | undefined {
  if (value === null || value === undefined) return true;
  switch (type) {
    case 'string': return typeof value === 'string';
    case 'number': return typeof value === 'number';
    case 'boolean': return typeof value === 'boolean';
    case 'object': return typeof value === 'object' && !Array.isArray(value);
    case 'list': return Array.isArray(value);
  }
}

/**
 * Checks variables beyond the schema (docs/reference/resources.md#templates): keys unique, a
 * fallback of the variable's type. Keeps the id and created_at of a key that
 * already existed. Throws 422 `validation_error`.
 */
export function buildVariables(ctx: Emulator, input: VersionInput['variables'], previous: StoredVariable[] = []): StoredVariable[] {
  const now = ctx.clock.nowMs();
  const seen = new Set<string>();
  return (input ?? []).map((v) => {
    if (seen.has(v.key)) throw templateMessages.duplicateVariable(v.key);
    seen.add(v.key);
    if (!fitsType(v.type, v.fallback_value)) {
      throw templateMessages.fallbackType(v.key, v.type);
    }
    const old = previous.find((p) => p.key === v.key);
    const fallback = v.fallback_value === undefined ? null : v.fallback_value;
    if (old && old.type === v.type && JSON.stringify(old.fallback_value) === JSON.stringify(fallback)) return old;
    return { id: old?.id ?? newId(), key: v.key, type: v.type, fallback_value: fallback, created_at: old?.created_at ?? now, updated_at: now };
  });
}

/** Inserts a version of an existing template (`id`: its id, new by default); returns its id. */
export function insertVersion(ctx: Emulator, templateId: string, content: { from: string | null; subject: string | null; reply_to: string[] | null; html: string; text: string | null; variables: StoredVariable[] }, at?: number, id: string = newId()): string {
  const now = at ?? ctx.clock.nowMs();
  ctx.db.prepare(INSERT_VERSION.sql).run(...INSERT_VERSION.params({
    id,
    template_id: templateId,
    from_addr: content.from,
    subject: content.subject,
    reply_to: content.reply_to ? JSON.stringify(content.reply_to) : null,
    html: content.html,
    text: content.text,
    variables: JSON.stringify(content.variables),
    created_at: now,
    updated_at: now,
  }));
  return id;
}

/** Throws 422 if another template of the team has this alias. */
export function assertAliasFree(ctx: Emulator, teamId: string, alias: string, exceptId?: string): void {
  const taken = ctx.db.prepare('SELECT id FROM templates WHERE team_id = ? AND alias = ? AND id != ?').get(teamId, alias, exceptId ?? '') as Pick<TemplateRow, 'id'> | undefined;
  if (taken) throw templateMessages.aliasTaken(alias);
}

/**
 * Creates a template with its first (draft) version. Synchronous; call inside
 * a transaction. Throws `ApiError` 422 for a taken alias or bad variables.
 */
export function insertTemplate(
  ctx: Emulator,
  teamId: string,
  input: VersionInput & { name: string; alias?: string | null; html: string },
  opts: { id?: string; createdAt?: number } = {},
): TemplateRow {
  if (input.alias) assertAliasFree(ctx, teamId, input.alias);
  const id = opts.id ?? newId();
  const now = opts.createdAt ?? ctx.clock.nowMs();
  const content = {
    from: input.from ?? null,
    subject: input.subject ?? null,
    reply_to: replyToList(input.reply_to),
    html: input.html,
    text: input.text ?? null,
    variables: buildVariables(ctx, input.variables),
  };
  // The template row first: its version refers to it (foreign key of `template_versions`).
  const versionId = newId();
  ctx.db.prepare(INSERT_TEMPLATE.sql).run(...INSERT_TEMPLATE.params({
    id,
    team_id: teamId,
    alias: input.alias ?? null,
    name: input.name,
    current_version_id: versionId,
    published_version_id: null,
    published_at: null,
    created_at: now,
    updated_at: now,
  }));
  insertVersion(ctx, id, content, now, versionId);
  return getTemplateRow(ctx, teamId, id)!;
}

/** The team's template by id or alias (id first), or undefined. */
export function getTemplateRow(ctx: Emulator, teamId: string, idOrAlias: string): TemplateRow | undefined {
  return (ctx.db.prepare('SELECT * FROM templates WHERE team_id = ? AND id = ?').get(teamId, idOrAlias)
    ?? ctx.db.prepare('SELECT * FROM templates WHERE team_id = ? AND alias = ?').get(teamId, idOrAlias)) as TemplateRow | undefined;
}

/** Like `getTemplateRow`; throws 404 `Template not found`. */
export function templateOr404(ctx: Emulator, teamId: string, idOrAlias: string): TemplateRow {
  const row = getTemplateRow(ctx, teamId, idOrAlias);
  if (!row) throw errors.notFound('Template');
  return row;
}

export function getVersion(ctx: Emulator, versionId: string): VersionRow {
  const v = ctx.db.prepare('SELECT * FROM template_versions WHERE id = ?').get(versionId) as VersionRow | undefined;
  if (!v) throw templateMessages.versionMissing(versionId);
  return v;
}

/**
 * Applies an update: name/alias on the template; content on the latest
 * version, or on a new draft version when the latest is the published one.
 */
export function updateTemplate(ctx: Emulator, row: TemplateRow, input: VersionInput & { name?: string; alias?: string | null }): void {
  const now = ctx.clock.nowMs();
  if (input.alias !== undefined && input.alias !== null) assertAliasFree(ctx, row.team_id, input.alias, row.id);
  const contentKeys = ['from', 'subject', 'reply_to', 'html', 'text', 'variables'] as const;
  const touchesContent = contentKeys.some((k) => input[k] !== undefined);
  let versionId = row.current_version_id;
  if (touchesContent) {
    const cur = getVersion(ctx, row.current_version_id);
    const prevVars = JSON.parse(cur.variables) as StoredVariable[];
    const next = {
      from: input.from !== undefined ? input.from : cur.from_addr,
      subject: input.subject !== undefined ? input.subject : cur.subject,
      reply_to: input.reply_to !== undefined ? replyToList(input.reply_to) : (cur.reply_to ? JSON.parse(cur.reply_to) : null),
      html: input.html ?? cur.html,
      text: input.text !== undefined ? input.text : cur.text,
      variables: input.variables !== undefined ? buildVariables(ctx, input.variables, prevVars) : prevVars,
    };
    if (row.published_version_id === row.current_version_id) {
      versionId = insertVersion(ctx, row.id, next);
    } else {
      ctx.db
        .prepare('UPDATE template_versions SET from_addr = ?, subject = ?, reply_to = ?, html = ?, text = ?, variables = ?, updated_at = ? WHERE id = ?')
        .run(next.from, next.subject, next.reply_to ? JSON.stringify(next.reply_to) : null, next.html, next.text, JSON.stringify(next.variables), now, cur.id);
    }
  }
  ctx.db
    .prepare('UPDATE templates SET name = ?, alias = ?, current_version_id = ?, updated_at = ? WHERE id = ?')
    .run(input.name ?? row.name, input.alias !== undefined ? input.alias : row.alias, versionId, now, row.id);
}

/** Makes the latest version the published one. */
export function publishTemplate(ctx: Emulator, row: TemplateRow, at?: number): void {
  const now = at ?? ctx.clock.nowMs();
  ctx.db
    .prepare('UPDATE templates SET published_version_id = current_version_id, published_at = ?, updated_at = ? WHERE id = ?')
    .run(now, now, row.id);
}

/** The GET shape (docs/reference/interface-spec.md#template; `reply_to` string or null per the spec). */
export function templateShape(ctx: Emulator, row: TemplateRow): ResponseBody<'templates/get'> {
  const v = getVersion(ctx, row.current_version_id);
  const variables = JSON.parse(v.variables) as StoredVariable[];
  return {
    object: 'template',
    id: row.id,
    current_version_id: row.current_version_id,
    alias: row.alias,
    name: row.name,
    created_at: apiTime(row.created_at),
    updated_at: apiTime(row.updated_at),
    published_at: apiTime(row.published_at),
    status: row.published_version_id ? 'published' : 'draft',
    from: v.from_addr,
    subject: v.subject,
    reply_to: replyToString(v.reply_to),
    html: v.html,
    text: v.text,
    variables: variables.map((x) => ({
      id: x.id,
      key: x.key,
      type: x.type,
      fallback_value: x.fallback_value ?? null,
      created_at: apiTime(x.created_at),
      updated_at: apiTime(x.updated_at),
    })),
    has_unpublished_versions: row.published_version_id !== null && row.published_version_id !== row.current_version_id,
  };
}

/** The columns its list items read (`TEMPLATE_LIST_COLUMNS`, `TemplateListRow`). */
const TEMPLATE_LIST_NAMES = ['id', 'name', 'published_version_id', 'published_at', 'created_at', 'updated_at', 'alias'] as const;

/** The columns its list items read (a page selects only these: a list reads only what it shows). */
export const TEMPLATE_LIST_COLUMNS = templatesTable.columnList(TEMPLATE_LIST_NAMES);

/** A row as a list page reads it (`TEMPLATE_LIST_COLUMNS`). */
export type TemplateListRow = Pick<TemplateRow, (typeof TEMPLATE_LIST_NAMES)[number]>;

/** The list item shape (docs/reference/resources.md#templates). */
export function templateListItem(row: TemplateListRow): ListItem<'templates/list'> {
  return {
    id: row.id,
    name: row.name,
    status: row.published_version_id ? 'published' : 'draft',
    published_at: apiTime(row.published_at),
    created_at: apiTime(row.created_at),
    updated_at: apiTime(row.updated_at),
    alias: row.alias,
  };
}

/** Deletes a template; its versions go with it (foreign key of `template_versions`). */
export function deleteTemplate(ctx: Emulator, id: string): void {
  ctx.db.prepare('DELETE FROM templates WHERE id = ?').run(id);
}

/** A page of the team's templates (`paginateTeam` options but the table). */
export const pageTemplates = teamPager<TemplateRow>('templates');
