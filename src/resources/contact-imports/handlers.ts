/**
 * Contact imports from CSV (docs/reference/interface-spec.md#contact-import; docs/reference/interface-spec.md#limits;
 * docs/reference/resources.md#contact-imports; docs/reference/interface-spec.md#where-the-spec-and-the-service-differ rows 5, 6):
 * | operationId | rule |
 * |---|---|
 * | contacts/create-import | multipart: `file` (required: 422 ``Missing `file` field.``; ≤ 200 MB: 413, app-level multer), `column_map`, `segments`, `topics` (JSON text, validated against their `x-json-schema`; malformed → 422 naming the field), `on_conflict` `upsert` (default, docs/reference/interface-spec.md#contact-import) \| `skip`; mapped property keys must be contact properties of the team (422), segments (404 `Audience not found`) and topics (404 `Topic not found`) the team's → 201 `{object: "contact_import", id}`, status `queued` |
 * | contacts/get-import | `{object, id, status, created_at, completed_at, counts{total, created, updated, skipped, failed}}`; unknown → 404 `Contact import not found` |
 * | contacts/list-imports | items in the single shape, with `object` (the reference document's and the SDK's `ContactImport[]`), newest first, filter `status`; all when `limit` is omitted |
 * CSV columns (jobs.ts): headers match case-insensitively; `email`,
 * `first_name`, `last_name`, `unsubscribed` by default or as `column_map`
 * names them; `column_map.properties` maps columns to contact properties
 * with a `type`; and, unless mapped otherwise, a column whose header equals
 * an existing contact property's key (e.g. `plan_seats`, `Plan_Seats`) feeds
 * that property, typed by the property's type (a cell that does not parse,
 * e.g. `lots` for a `number` property, fails the row). This default is the
 * emulator's choice: the spec and the facts are silent on unmapped columns.
 * Jobs: `contact-imports.start` (`queued` → `in_progress`, after
 * `DELAYS.contactImportStart`), `contact-imports.run` (after
 * `DELAYS.contactImportRun`; reads the CSV, see `jobs.ts`).
 */
import fs from 'node:fs';
import type { Emulator } from '../../context.js';
import { errors } from '../../http/errors.js';
import { newId } from '../../http/format.js';
import { paginate } from '../../http/pagination.js';
import { DELAYS } from '../../clock/delays.js';
import { getSegmentOr404 } from '../segments/service.js';
import { getTopicOr404 } from '../topics/service.js';
import { propertiesByKey } from '../contact-properties/service.js';
import { parseJsonField } from './json-fields.js';
import { CONTACT_IMPORTS, getImportOr404, insertImport, toImport, type ImportOptions, type ImportRow } from './store.js';
import { importStartJob } from './jobs.js';
import type { Answer, Req, OperationHandlers } from '../../http/document-types.js';
import { importMessages } from './messages.js';

async function create(ctx: Emulator, req: Req<'contacts/create-import'>): Promise<Answer<'contacts/create-import'>> {
  const teamId = req.auth.teamId;
  const file = req.file;
  try {
    if (!file) throw errors.missingField('file');
    const columnMap = (await parseJsonField<ImportOptions['column_map']>('column_map', req.body.column_map)) ?? {};
    const segments = (await parseJsonField<{ id: string }[]>('segments', req.body.segments)) ?? [];
    const topics = (await parseJsonField<ImportOptions['topics']>('topics', req.body.topics)) ?? [];
    const defs = propertiesByKey(ctx, teamId);
    for (const key of Object.keys(columnMap.properties ?? {})) {
      if (!defs.has(key)) throw importMessages.unknownMappedProperty(key);
    }
    for (const s of segments) getSegmentOr404(ctx, teamId, s.id);
    for (const t of topics) getTopicOr404(ctx, teamId, t.id);
    const options: ImportOptions = {
      column_map: columnMap,
      on_conflict: (req.body.on_conflict as 'upsert' | 'skip' | undefined) ?? 'upsert',
      segments: [...new Set(segments.map((s) => s.id))],
      topics,
    };
    const id = newId();
    const now = ctx.clock.nowMs();
    ctx.db.transaction(() => {
      insertImport(ctx, { id, teamId, filePath: file.path, options, createdAt: now });
      importStartJob.schedule(ctx, { import_id: id }, { dueAt: now + DELAYS.contactImportStart, teamId });
    })();
    return { object: 'contact_import', id };
  } catch (err) {
    if (file) await fs.promises.rm(file.path, { force: true }).catch(() => {});
    throw err;
  }
}

function get(ctx: Emulator, req: Req<'contacts/get-import'>): Answer<'contacts/get-import'> {
  return toImport(getImportOr404(ctx, req.auth.teamId, req.params.id));
}

function list(ctx: Emulator, req: Req<'contacts/list-imports'>): Answer<'contacts/list-imports'> {
  const { status, ...page } = req.query;
  const where = status ? 'team_id = ? AND status = ?' : 'team_id = ?';
  const params = status ? [req.auth.teamId, status] : [req.auth.teamId];
  return paginate(ctx.db, { table: CONTACT_IMPORTS, where, params, query: page, defaultLimit: null, map: (r: ImportRow) => toImport(r) });
}

/** The contact-imports operations, by operationId. */
export const operations = {
  'contacts/create-import': create,
  'contacts/get-import': get,
  'contacts/list-imports': list,
} satisfies OperationHandlers;
