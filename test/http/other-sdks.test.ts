/**
 * The wire habits of the official SDKs other than Node's, sent over plain
 * HTTP exactly as each SDK's source builds them (README "From other
 * languages"): attachment `content` as a byte array (Python
 * `list(f.read())`, Ruby `file.bytes`), `inline_content_id` (Python), the
 * base URL given with a trailing slash (Node, Python and PHP then send
 * `//emails`; Go and Rust resolve the path against it) or without, and the
 * `User-Agent` each sends; and one test per row of the table of
 * `./sdk-requests.ts` (issue 27): every request of an official SDK that
 * differs from the document, sent exactly as the SDK builds it; and one
 * test per row of `./library-requests.ts` (issue 37): what the libraries
 * built on the API (Payload, Novu, Strapi, Laravel, Symfony, django-anymail,
 * Swoosh, Auth.js) send; and the multipart bodies of a contact import as
 * the Ruby and PHP SDKs build them (issue 38).
 */
import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { useFreshEmulatorPerTest } from '../helpers.js';
import { SDK_REQUESTS, USER_AGENTS, fill, makeNeeds } from './sdk-requests.js';
import { LIBRARY_REQUESTS } from './library-requests.js';

const PDF = Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1');

describe('what the other SDKs send', () => {
  const t = useFreshEmulatorPerTest();
  const post = (path: string, ua: string) =>
    request(t.emu.url).post(path).set('Authorization', `Bearer ${t.emu.apiKey}`).set('User-Agent', ua).set('Content-Type', 'application/json').set('Accept', 'application/json');

  it('Python: attachment content as list(f.read()) and inline_content_id, to `{api_url}/emails`', async () => {
    // resend-python: `requests.request("post", f"{resend.api_url}{path}", json=params, headers=...)`.
    const body = {
      from: 'Acme <hello@example.com>',
      to: ['delivered@resend.dev'],
      subject: 'Invoice',
      html: '<p>Invoice attached <img src="cid:logo"></p>',
      attachments: [
        { filename: 'invoice.pdf', content: [...PDF] },
        { filename: 'logo.png', content: [137, 80, 78, 71], inline_content_id: 'logo' },
      ],
    };
    const res = await post('/emails', USER_AGENTS.python).send(JSON.stringify(body));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const list = (await t.api.get(`/emails/${res.body.id}/attachments`)).body.data;
    const byName = Object.fromEntries(list.map((a: any) => [a.filename, a]));
    expect(byName['invoice.pdf']).toMatchObject({ size: PDF.length, content_type: 'application/pdf', content_disposition: 'attachment' });
    expect(byName['logo.png']).toMatchObject({ size: 4, content_id: 'logo', content_disposition: 'inline' });
    const download = await t.anon.get(new URL(byName['invoice.pdf'].download_url).pathname).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(Buffer.compare(download.body, PDF)).toBe(0);
  });

  it('Ruby: attachment content as file.bytes, to `BASE_URL + "emails"` (a trailing slash is part of the base)', async () => {
    // resend-ruby request.rb: HTTParty.send(verb, "#{BASE_URL}#{@path}") with @path "emails".
    const res = await post('/emails', USER_AGENTS.ruby).send({
      from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'Report', text: 'x',
      attachments: [{ filename: 'report.csv', content: [...Buffer.from('a,b\n1,2\n')] }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await t.api.get(`/emails/${res.body.id}/attachments`)).body.data).toMatchObject([{ filename: 'report.csv', size: 8, content_type: 'text/csv' }]);
  });

  it('a base URL with a trailing slash: `//emails` (Node, Python, PHP join base and path as they are) is served as `/emails`', async () => {
    for (const ua of [USER_AGENTS.node, USER_AGENTS.python, USER_AGENTS.php]) {
      const res = await post('//emails', ua).send({ from: 'hello@example.com', to: 'delivered@resend.dev', subject: 'Slash', text: 'x' });
      expect(res.status, ua).toBe(200);
      const got = await request(t.emu.url).get(`//emails/${res.body.id}`).set('Authorization', `Bearer ${t.emu.apiKey}`).set('User-Agent', ua);
      expect(got.status, ua).toBe(200);
      expect(got.body.subject).toBe('Slash');
    }
  });

  it('accepts each SDK\'s User-Agent and records it in GET /logs', async () => {
    for (const ua of Object.values(USER_AGENTS)) {
      const res = await request(t.emu.url).get('/domains').set('Authorization', `Bearer ${t.emu.apiKey}`).set('User-Agent', ua);
      expect(res.status, ua).toBe(200);
    }
    const logs = (await t.api.get('/logs?limit=100')).body.data;
    const agents = new Set(logs.map((l: any) => l.user_agent));
    for (const ua of Object.values(USER_AGENTS)) expect(agents.has(ua), ua).toBe(true);
  });

  /** A multipart body as the SDKs build it by hand: each part's headers, a blank line, its bytes. */
  function multipart(boundary: string, parts: { headers: string[]; body: string }[]): Buffer {
    const chunks = parts.map((p) => `--${boundary}\r\n${p.headers.join('\r\n')}\r\n\r\n${p.body}\r\n`);
    return Buffer.from(`${chunks.join('')}--${boundary}--\r\n`);
  }
  const importCsv = 'Email Address,First\nimport@example.net,Ann\n';
  const postImport = (ua: string, boundary: string, body: Buffer) =>
    request(t.emu.url).post('/contacts/imports').set('Authorization', `Bearer ${t.emu.apiKey}`).set('User-Agent', ua)
      .set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(body);

  it('Ruby Contacts::Imports.create: the CSV as a part named `import.csv` (text/csv), column_map, segments and topics as JSON text parts', async () => {
    // resend-ruby multipart_request.rb: part(boundary, "file", …, filename: "import.csv", content_type: "text/csv"),
    // then column_map / on_conflict / segments ([{id}]) / topics, each `value.to_json` without a Content-Type.
    const segment = (await t.api.post('/segments').send({ name: 'Imported' })).body.id;
    const topic = (await t.api.post('/topics').send({ name: 'News', default_subscription: 'opt_in' })).body.id;
    const boundary = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const res = await postImport(USER_AGENTS.ruby, boundary, multipart(boundary, [
      { headers: ['Content-Disposition: form-data; name="file"; filename="import.csv"', 'Content-Type: text/csv'], body: importCsv },
      { headers: ['Content-Disposition: form-data; name="column_map"'], body: JSON.stringify({ email: 'Email Address', first_name: 'First' }) },
      { headers: ['Content-Disposition: form-data; name="on_conflict"'], body: 'upsert' },
      { headers: ['Content-Disposition: form-data; name="segments"'], body: JSON.stringify([{ id: segment }]) },
      { headers: ['Content-Disposition: form-data; name="topics"'], body: JSON.stringify([{ id: topic, subscription: 'opt_out' }]) },
    ]));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await t.emu.clock.advance('2s');
    expect((await t.api.get(`/contacts/imports/${res.body.id}`)).body).toMatchObject({ status: 'completed', counts: { created: 1, failed: 0 } });
    expect((await t.api.get('/contacts/import@example.net')).body.first_name).toBe('Ann');
    expect((await t.api.get('/contacts/import@example.net/segments')).body.data.map((s: any) => s.id)).toEqual([segment]);
    const topics = (await t.api.get('/contacts/import@example.net/topics')).body.data;
    expect(topics.find((x: any) => x.id === topic)).toMatchObject({ subscription: 'opt_out' });
  });

  it('PHP contacts->imports->create with a stream: the CSV as a part named `file` without a Content-Type, each part with its Content-Length', async () => {
    // resend-php Payload::toRequest (ContentType::MULTIPART): a resource becomes ['name' => 'file', 'contents' => $f,
    // 'filename' => 'file']; an array is json_encode'd; Guzzle's MultipartStream adds Content-Length to each part.
    const boundary = '54db83ef6d96b391b3107fb30dd150f574da1db5';
    const map = JSON.stringify({ email: 'Email Address', first_name: 'First' });
    const res = await postImport(USER_AGENTS.php, boundary, multipart(boundary, [
      { headers: ['Content-Disposition: form-data; name="file"; filename="file"', `Content-Length: ${Buffer.byteLength(importCsv)}`], body: importCsv },
      { headers: ['Content-Disposition: form-data; name="column_map"', `Content-Length: ${map.length}`], body: map },
    ]));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await t.emu.clock.advance('2s');
    expect((await t.api.get(`/contacts/imports/${res.body.id}`)).body).toMatchObject({ status: 'completed', counts: { created: 1, failed: 0 } });
    expect((await t.api.get('/contacts/import@example.net')).body.first_name).toBe('Ann');
  });

  it('PHP contacts->imports->create with the CSV as a string: a plain form field, not a file part, so 422 Missing `file`', async () => {
    // resend-php Payload::toRequest: a string is a scalar part (no filename); the document's `file` is `format: binary`.
    const boundary = '3b5f70185cf22dbfee22421dbb3e0be48b669d12';
    const res = await postImport(USER_AGENTS.php, boundary, multipart(boundary, [
      { headers: ['Content-Disposition: form-data; name="file"', `Content-Length: ${Buffer.byteLength(importCsv)}`], body: importCsv },
    ]));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ statusCode: 422, name: 'missing_required_field', message: 'Missing `file` field.' });
  });

  describe('every request of the table (test/http/sdk-requests.ts), as the SDK sends it', () => {
    it.each(SDK_REQUESTS.map((row) => [`${row.sdks.join(', ')}: ${row.method}: ${row.habit}`, row] as const))('%s', async (_name, row) => {
      const made = await makeNeeds(t, row.needs);
      const path = fill(row.request.path, made) as string;
      let req = request(t.emu.url)[row.request.method === 'DELETE' ? 'delete' : (row.request.method.toLowerCase() as 'get' | 'post' | 'patch')](path)
        .set('Authorization', `Bearer ${t.emu.apiKey}`).set('User-Agent', USER_AGENTS[row.sdks[0]]).set('Accept', 'application/json');
      // The exact JSON text (a `null`, a `""`, an `{}` as they are).
      if (row.request.body !== undefined) req = req.set('Content-Type', 'application/json').send(JSON.stringify(fill(row.request.body, made)));
      const res = await req;
      expect(res.status, JSON.stringify(res.body)).toBe(row.expect.status);
      if (row.expect.name) expect(res.body).toEqual({ statusCode: row.expect.status, name: row.expect.name, message: row.expect.message ?? expect.any(String) });
      await row.check?.(t, made, res.body);
    });

    it('covers every SDK read, each with a source and a habit', () => {
      const sdks = new Set(SDK_REQUESTS.flatMap((r) => r.sdks));
      expect([...sdks].sort()).toEqual(Object.keys(USER_AGENTS).sort());
      for (const row of SDK_REQUESTS) expect(row.source.length && row.habit.length, row.method).toBeTruthy();
    });
  });
  describe('every request of the libraries table (test/http/library-requests.ts), as the library sends it', () => {
    it.each(LIBRARY_REQUESTS.map((row) => [`${row.library}: ${row.habit}`, row] as const))('%s', async (_name, row) => {
      const made = await makeNeeds(t, row.needs);
      const res = await request(t.emu.url).post(fill(row.request.path, made) as string)
        .set('Authorization', `Bearer ${t.emu.apiKey}`).set('User-Agent', row.userAgent).set('Content-Type', 'application/json')
        .set(row.request.headers ?? {})
        .send(JSON.stringify(fill(row.request.body, made)));
      expect(res.status, JSON.stringify(res.body)).toBe(row.expect.status);
      if (row.expect.name) expect(res.body).toEqual({ statusCode: row.expect.status, name: row.expect.name, message: row.expect.message ?? expect.any(String) });
      await row.check?.(t, made, res.body);
    });
  });
});
