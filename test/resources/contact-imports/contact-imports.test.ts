import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useFreshEmulatorPerTest, FIXTURES } from '../../helpers.js';
import { storeOf } from '../../../src/internals.js';
import { BATCH_ROWS } from '../../../src/resources/contact-imports/jobs.js';

const NIL = '00000000-0000-0000-0000-000000000000';
const NEWSLETTER = '9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
const BETA = '0f1a2b3c-4d5e-4f6a-9b7c-8d9e0f1a2b3c';
const PROMOTIONS = '8d9e0f1a-2b3c-4d4e-9f5a-6b7c8d9e0f1a';
const ALICE = '1a2b3c4d-5e6f-4a7b-8c8d-9e0f1a2b3c4d';

const tmpFiles: string[] = [];
function csvFile(text: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'import-test-')), 'contacts.csv');
  fs.writeFileSync(file, text);
  tmpFiles.push(file);
  return file;
}
afterEach(() => {
  for (const f of tmpFiles.splice(0)) fs.rmSync(path.dirname(f), { recursive: true, force: true });
});

const CSV = [
  'Email,First Name,Last Name,Unsub,Company,Seats,VIP',
  'new1@example.com,New,One,false,Initech,10,yes',
  'ALICE@example.org,Alicia,,true,Globex,,',
  'not-an-email,Bad,Row,,,,',
  'new2@example.com,,,,,"many",',
  'new3@example.com,Three,,0,"Quoted, Inc.",3,no',
  '',
].join('\n');

const COLUMN_MAP = {
  email: 'Email', first_name: 'First Name', last_name: 'Last Name', unsubscribed: 'Unsub',
  properties: { company: { column: 'Company' }, plan_seats: { column: 'Seats', type: 'number' } },
};

describe('contact imports', () => {
  const t = useFreshEmulatorPerTest({ webhooks: 'record' });
  // An import still queued when the emulator closes keeps its upload in the
  // temp folder (a store on disk resumes it on restart): remove those here.
  // Registered after useFreshEmulatorPerTest, so it runs before the emulator closes.
  afterEach(() => {
    const rows = storeOf(t.emu).prepare(`SELECT file_path FROM contact_imports WHERE file_path IS NOT NULL`).all() as { file_path: string }[];
    for (const r of rows) fs.rmSync(r.file_path, { force: true });
  });

  async function createImport(fields: Record<string, string>, csv = CSV) {
    let req = t.api.post('/contacts/imports').attach('file', csvFile(csv));
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    return req;
  }

  it('a mapped property column without a type takes the property\'s own type', async () => {
    const res = await createImport({ column_map: JSON.stringify({ email: 'Email', properties: { plan_seats: { column: 'Seats' } } }) }, 'Email,Seats\nseats@example.net,7\n');
    expect(res.status).toBe(201);
    await t.emu.clock.advance('2s');
    const done = (await t.api.get(`/contacts/imports/${res.body.id}`)).body;
    expect(done.counts).toMatchObject({ total: 1, created: 1, failed: 0 });
    expect((await t.api.get('/contacts/seats@example.net')).body.properties.plan_seats).toEqual({ type: 'number', value: 7 });
  });

  it('runs queued → in_progress → completed with upsert, typed properties, bad rows counted, segments and topics', async () => {
    await t.api.post('/webhooks').send({ endpoint: 'https://hooks.example.com/r', events: ['contact.created', 'contact.updated'] });
    const res = await createImport({
      column_map: JSON.stringify(COLUMN_MAP),
      segments: JSON.stringify([{ id: BETA }]),
      topics: JSON.stringify([{ id: PROMOTIONS, subscription: 'opt_in' }]),
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ object: 'contact_import', id: expect.any(String) });
    const id = res.body.id;
    const queued = await t.api.get(`/contacts/imports/${id}`);
    expect(queued.body).toEqual({
      object: 'contact_import', id, status: 'queued', created_at: expect.any(String), completed_at: null,
      counts: { total: 0, created: 0, updated: 0, skipped: 0, failed: 0 },
    });
    await t.emu.clock.advance('1s');
    expect((await t.api.get(`/contacts/imports/${id}`)).body.status).toBe('in_progress');
    await t.emu.clock.advance('1s');
    const done = await t.api.get(`/contacts/imports/${id}`);
    expect(done.body.status).toBe('completed');
    expect(done.body.completed_at).toEqual(expect.any(String));
    expect(done.body.counts).toEqual({ total: 5, created: 2, updated: 1, skipped: 0, failed: 2 });

    const n1 = await t.api.get('/contacts/new1@example.com');
    expect(n1.body).toMatchObject({ first_name: 'New', last_name: 'One', unsubscribed: false, properties: { company: { type: 'string', value: 'Initech' }, plan_seats: { type: 'number', value: 10 } } });
    const n3 = await t.api.get('/contacts/new3@example.com');
    expect(n3.body.properties).toEqual({ company: { type: 'string', value: 'Quoted, Inc.' }, plan_seats: { type: 'number', value: 3 } });
    expect((await t.api.get('/contacts/new2@example.com')).status).toBe(404); // "many" is not a number: the whole row failed
    const alice = await t.api.get(`/contacts/${ALICE}`);
    expect(alice.body).toMatchObject({ first_name: 'Alicia', last_name: 'Martin', unsubscribed: true, properties: { company: { type: 'string', value: 'Globex' }, plan_seats: { type: 'number', value: 5 } } });
    const beta = await t.api.get(`/segments/${BETA}/contacts`);
    expect(beta.body.data.map((c: any) => c.email).sort()).toEqual(['alice@example.org', 'new1@example.com', 'new3@example.com']);
    const topics = await t.api.get('/contacts/new1@example.com/topics');
    expect(topics.body.data.find((x: any) => x.id === PROMOTIONS).subscription).toBe('opt_in');
    expect(t.emu.webhookDeliveries()).toEqual([]); // no contact.* events for imports
  });

  it('skips existing contacts with on_conflict skip and uses the default column names', async () => {
    const csv = 'email,first_name,last_name\nalice@example.org,Changed,Name\nfresh@example.com,Fresh,\n';
    const res = await createImport({ on_conflict: 'skip', segments: JSON.stringify([{ id: NEWSLETTER }]) }, csv);
    expect(res.status).toBe(201);
    await t.emu.clock.advance('5s');
    const done = await t.api.get(`/contacts/imports/${res.body.id}`);
    expect(done.body.counts).toEqual({ total: 2, created: 1, updated: 0, skipped: 1, failed: 0 });
    expect((await t.api.get(`/contacts/${ALICE}`)).body.first_name).toBe('Alice');
    expect((await t.api.get('/contacts/fresh@example.com')).body.first_name).toBe('Fresh');
  });

  it('maps boolean-typed columns and fails rows whose boolean does not parse', async () => {
    await t.api.post('/contact-properties').send({ key: 'vip', type: 'string' });
    const csv = 'Email,VIP\na@example.com,yes\nb@example.com,perhaps\n';
    const res = await createImport({ column_map: JSON.stringify({ email: 'Email', properties: { vip: { column: 'VIP', type: 'boolean' } } }) }, csv);
    await t.emu.clock.advance('5s');
    expect((await t.api.get(`/contacts/imports/${res.body.id}`)).body.counts).toMatchObject({ created: 1, failed: 1 });
    expect((await t.api.get('/contacts/a@example.com')).body.properties.vip).toEqual({ type: 'string', value: 'true' });
  });

  it('maps a column named like an existing contact property (any case) to it by default, typed by the property', async () => {
    // Fixture properties: company (string), plan_seats (number).
    const csv = [
      'email,Plan_Seats,COMPANY,notes',
      'd1@example.com,7,Initech,hello',
      'd2@example.com,lots,Globex,',
      'alice@example.org,12,,',
      '',
    ].join('\n');
    const res = await createImport({}, csv);
    expect(res.status).toBe(201);
    await t.emu.clock.advance('5s');
    const done = await t.api.get(`/contacts/imports/${res.body.id}`);
    expect(done.body.status).toBe('completed');
    expect(done.body.counts).toEqual({ total: 3, created: 1, updated: 1, skipped: 0, failed: 1 });
    const d1 = await t.api.get('/contacts/d1@example.com');
    expect(d1.body.properties).toEqual({ company: { type: 'string', value: 'Initech' }, plan_seats: { type: 'number', value: 7 } });
    expect((await t.api.get('/contacts/d2@example.com')).status).toBe(404); // "lots" is not a number: the row failed
    expect((await t.api.get(`/contacts/${ALICE}`)).body.properties).toEqual({ company: { type: 'string', value: 'Acme' }, plan_seats: { type: 'number', value: 12 } });
  });

  it('an explicit column_map.properties mapping wins over the default by name', async () => {
    await t.api.post('/contact-properties').send({ key: 'tier', type: 'string' });
    // plan_seats is mapped to the Seats column, so the plan_seats column is ignored;
    // the tier column is mapped to company, so it does not also feed tier.
    const csv = 'email,plan_seats,Seats,tier\ne1@example.com,not a number,4,gold\n';
    const map = { properties: { plan_seats: { column: 'Seats', type: 'number' }, company: { column: 'tier' } } };
    const res = await createImport({ column_map: JSON.stringify(map) }, csv);
    await t.emu.clock.advance('5s');
    expect((await t.api.get(`/contacts/imports/${res.body.id}`)).body.counts).toMatchObject({ created: 1, failed: 0 });
    expect((await t.api.get('/contacts/e1@example.com')).body.properties).toEqual({ company: { type: 'string', value: 'gold' }, plan_seats: { type: 'number', value: 4 } });
  });

  it('fails the import when the mapped email column is missing', async () => {
    const res = await createImport({ column_map: JSON.stringify({ email: 'Mail' }) }, 'email\na@example.com\n');
    await t.emu.clock.advance('5s');
    const done = await t.api.get(`/contacts/imports/${res.body.id}`);
    expect(done.body.status).toBe('failed');
    expect(done.body.completed_at).not.toBeNull();
  });

  it('reads CRLF files with a byte order mark, quoted commas, quotes and line breaks, ragged rows and blank lines', async () => {
    const csv = '\ufeffEmail,First Name,Company\r\n'
      + 'crlf1@example.com,"Ann, Jr.","say ""hi"""\r\n'
      + '\r\n'
      + 'crlf2@example.com,Bo,"two\r\nlines"\r\n'
      + 'crlf3@example.com\r\n'
      + 'crlf4@example.com,Zoë 😀,Initech,extra,cells\r\n';
    const map = { email: 'email', first_name: 'first name', properties: { company: { column: 'company' } } };
    const res = await createImport({ column_map: JSON.stringify(map) }, csv);
    await t.emu.clock.advance('5s');
    expect((await t.api.get(`/contacts/imports/${res.body.id}`)).body).toMatchObject({ status: 'completed', counts: { total: 4, created: 4, failed: 0 } });
    expect((await t.api.get('/contacts/crlf1@example.com')).body).toMatchObject({ first_name: 'Ann, Jr.', properties: { company: { value: 'say "hi"' } } });
    expect((await t.api.get('/contacts/crlf2@example.com')).body.properties.company.value).toBe('two\r\nlines');
    expect((await t.api.get('/contacts/crlf3@example.com')).body).toMatchObject({ first_name: null, properties: {} });
    expect((await t.api.get('/contacts/crlf4@example.com')).body).toMatchObject({ first_name: 'Zoë 😀', properties: { company: { value: 'Initech' } } });
  });

  it('fails the import on a quoted field left open or closed mid-field, committing none of the batch', async () => {
    const bad = { 'email\nq1@example.com\n"q2@example.com\nq3@example.com\n': 1, 'email,company\nq1@example.com,"Acme"Corp\n': 0 };
    for (const [csv, before] of Object.entries(bad)) {
      const res = await createImport({}, csv);
      await t.emu.clock.advance('5s');
      const done = await t.api.get(`/contacts/imports/${res.body.id}`);
      expect(done.body.status).toBe('failed');
      const error = storeOf(t.emu).prepare('SELECT error FROM contact_imports WHERE id = ?').pluck().get(res.body.id) as string;
      expect(error).toMatch(new RegExp(`^The file is not valid CSV after ${before} rows: Quoted field unterminated|^The file is not valid CSV after ${before} rows: Trailing quote`));
      expect((await t.api.get('/contacts/q1@example.com')).status).toBe(404);
    }
  });

  it('validates the form: file, JSON fields, on_conflict, segments, topics, property keys', async () => {
    const noFile = await t.api.post('/contacts/imports').field('on_conflict', 'skip');
    expect(noFile.status).toBe(422);
    expect(noFile.body).toEqual({ statusCode: 422, message: 'Missing `file` field.', name: 'missing_required_field' });
    const badJson = await createImport({ column_map: '{"email":' });
    expect(badJson.status).toBe(422);
    expect(badJson.body.message).toContain('`column_map`');
    const badMap = await createImport({ column_map: JSON.stringify({ email: 'Email', properties: { plan_seats: { column: 'Seats', type: 'date' } } }) });
    expect(badMap.status).toBe(422);
    expect(badMap.body.message).toContain('`column_map`');
    const badTopics = await createImport({ topics: JSON.stringify([{ id: PROMOTIONS }]) });
    expect(badTopics.status).toBe(422);
    expect(badTopics.body.message).toContain('`topics`');
    const badConflict = await createImport({ on_conflict: 'merge' });
    expect(badConflict.status).toBe(422);
    const unknownSeg = await createImport({ segments: JSON.stringify([{ id: NIL }]) });
    expect(unknownSeg.status).toBe(404);
    expect(unknownSeg.body.message).toBe('Audience not found');
    const unknownTopic = await createImport({ topics: JSON.stringify([{ id: NIL, subscription: 'opt_in' }]) });
    expect(unknownTopic.status).toBe(404);
    const unknownProp = await createImport({ column_map: JSON.stringify({ properties: { nope: { column: 'X' } } }) });
    expect(unknownProp.status).toBe(422);
    expect(unknownProp.body.message).toContain('nope');
    expect((await t.api.get('/contacts/imports')).body.data).toEqual([]);
  });

  it('lists imports newest first with a status filter, 404s unknown ones and isolates teams', async () => {
    const a = await createImport({}, 'email\nx@example.com\n');
    await t.emu.clock.advance('5s');
    const b = await createImport({}, 'email\ny@example.com\n');
    const all = await t.api.get('/contacts/imports');
    expect(all.body.data.map((i: any) => i.id)).toEqual([b.body.id, a.body.id]);
    expect(Object.keys(all.body.data[0])).toEqual(['object', 'id', 'status', 'created_at', 'completed_at', 'counts']);
    const queued = await t.api.get('/contacts/imports?status=queued');
    expect(queued.body.data.map((i: any) => i.id)).toEqual([b.body.id]);
    const completed = await t.api.get('/contacts/imports?status=completed');
    expect(completed.body.data.map((i: any) => i.id)).toEqual([a.body.id]);
    expect((await t.api.get('/contacts/imports?status=done')).status).toBe(422);
    const unknown = await t.api.get(`/contacts/imports/${NIL}`);
    expect(unknown.body).toEqual({ statusCode: 404, message: 'Contact import not found', name: 'not_found' });
    const other = t.as(FIXTURES.secondTeamKey);
    expect((await other.get(`/contacts/imports/${a.body.id}`)).status).toBe(404);
    expect((await other.get('/contacts/imports')).body.data).toEqual([]);
  });

  it('applies an opt_out topic choice to created and updated contacts', async () => {
    const res = await createImport({ topics: JSON.stringify([{ id: PROMOTIONS, subscription: 'opt_out' }]) }, 'email\nfresh@example.com\nalice@example.org\n');
    expect(res.status).toBe(201);
    await t.emu.clock.advance('5s');
    expect((await t.api.get(`/contacts/imports/${res.body.id}`)).body.counts).toEqual({ total: 2, created: 1, updated: 1, skipped: 0, failed: 0 });
    for (const ref of ['fresh@example.com', ALICE]) {
      const topics = await t.api.get(`/contacts/${ref}/topics`);
      expect(topics.body.data.find((x: any) => x.id === PROMOTIONS).subscription).toBe('opt_out');
    }
  });

  it('commits rows in batches: counts, duplicates within the file and bad rows across batch boundaries', async () => {
    const rows = ['email,plan_seats'];
    const n = BATCH_ROWS + 200;
    for (let i = 0; i < n; i++) rows.push(i === BATCH_ROWS - 300 ? `bulk${i}@example.com,lots` : `bulk${i}@example.com,${i}`);
    rows.push('bulk3@example.com,42'); // seen in the first batch, repeated in the second: updated
    const res = await createImport({ segments: JSON.stringify([{ id: BETA }]) }, rows.join('\n') + '\n');
    await t.emu.clock.advance('5s');
    const done = await t.api.get(`/contacts/imports/${res.body.id}`);
    expect(done.body.status).toBe('completed');
    expect(done.body.counts).toEqual({ total: n + 1, created: n - 1, updated: 1, skipped: 0, failed: 1 });
    expect((await t.api.get(`/contacts/bulk${BATCH_ROWS - 300}@example.com`)).status).toBe(404); // the bad row left nothing behind
    expect((await t.api.get('/contacts/bulk3@example.com')).body.properties).toMatchObject({ plan_seats: { type: 'number', value: 42 } });
    expect((await t.api.get(`/contacts/bulk${n - 1}@example.com`)).body.properties).toMatchObject({ plan_seats: { type: 'number', value: n - 1 } });
    const members = storeOf(t.emu).prepare("SELECT COUNT(*) AS n FROM contact_segments WHERE segment_id = ? AND contact_id IN (SELECT id FROM contacts WHERE email LIKE 'bulk%')").get(BETA) as { n: number };
    expect(members.n).toBe(n - 1);
  });

  it('an email repeated within a batch is created by its first row and updated by each later one, in file order', async () => {
    // Rows are inserted several to a statement: the repeats share one with the row they repeat, or come after it.
    const rows = ['email,first_name'];
    for (let i = 0; i < 30; i++) rows.push(`rep${i}@example.com,R${i}`);
    rows[3] = 'twice@example.com,First';
    rows[6] = 'TWICE@example.com,Second';
    rows[28] = 'twice@example.com,Third';
    rows[27] = 'alice@example.org,Alicia';
    const res = await createImport({}, rows.join('\n') + '\n');
    await t.emu.clock.advance('5s');
    expect((await t.api.get(`/contacts/imports/${res.body.id}`)).body.counts).toEqual({ total: 30, created: 27, updated: 3, skipped: 0, failed: 0 });
    const twice = await t.api.get('/contacts/twice@example.com');
    expect(twice.body).toMatchObject({ email: 'twice@example.com', first_name: 'Third' });
    expect((await t.api.get(`/contacts/${ALICE}`)).body.first_name).toBe('Alicia');
    const stored = storeOf(t.emu).prepare("SELECT COUNT(*) AS n FROM contacts WHERE email_lower = 'twice@example.com'").get() as { n: number };
    expect(stored.n).toBe(1);
  });

  it('with on_conflict skip, a row whose cells do not parse counts as skipped only if its email exists by then', async () => {
    const csv = 'email,plan_seats\nlater@example.com,lots\nlater@example.com,5\nlater@example.com,many\nalice@example.org,plenty\n';
    const res = await createImport({ on_conflict: 'skip' }, csv);
    await t.emu.clock.advance('5s');
    expect((await t.api.get(`/contacts/imports/${res.body.id}`)).body.counts).toEqual({ total: 4, created: 1, updated: 0, skipped: 2, failed: 1 });
    expect((await t.api.get('/contacts/later@example.com')).body.properties).toMatchObject({ plan_seats: { type: 'number', value: 5 } });
  });

  it('removes the uploaded temp file when the upload is refused', async () => {
    const marker = `refused-${Date.now()}-${Math.random()}@example.com`;
    // multer writes uploads to os.tmpdir() under 32-hex names; find ours by its content.
    const ours = () => fs.readdirSync(os.tmpdir()).filter((f) => {
      if (!/^[0-9a-f]{32}$/.test(f)) return false;
      try {
        const p = path.join(os.tmpdir(), f);
        return fs.statSync(p).size < 1024 * 1024 && fs.readFileSync(p, 'utf8').includes(marker);
      } catch { return false; }
    });
    expect(ours()).toEqual([]);
    const unknownSeg = await createImport({ segments: JSON.stringify([{ id: NIL }]) }, `email\n${marker}\n`);
    expect(unknownSeg.status).toBe(404);
    const badProp = await createImport({ column_map: JSON.stringify({ properties: { nope: { column: 'email' } } }) }, `email\n${marker}\n`);
    expect(badProp.status).toBe(422);
    expect(ours()).toEqual([]);
    expect((await t.api.get('/contacts/imports')).body.data).toEqual([]);
  });

  it('deletes the uploaded temp file once the import ends', async () => {
    const res = await createImport({}, 'email\nz@example.com\n');
    const row = storeOf(t.emu).prepare('SELECT file_path FROM contact_imports WHERE id = ?').get(res.body.id) as { file_path: string };
    expect(fs.existsSync(row.file_path)).toBe(true);
    await t.emu.clock.advance('5s');
    expect(fs.existsSync(row.file_path)).toBe(false);
  });
});
