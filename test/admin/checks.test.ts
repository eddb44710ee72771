/**
 * The checks of an email (src/admin/checks.ts): the HTML check from the
 * caniemail data, the size against Gmail's clipping, List-Unsubscribe of a
 * broadcast, and the link check against a local server only. Responses are
 * validated against spec/paths/admin-checks.yaml (useFreshEmulatorPerTest).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES, useFreshEmulatorPerTest } from '../helpers.js';

const FROM = `Acme <hello@${FIXTURES.verifiedDomain}>`;

/** A local server: /ok 200, /missing 404, /no-head 405 to HEAD and 200 to GET, /slow never answers. Records each request. */
async function localServer() {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url === '/slow') return;
    if (req.url === '/no-head' && req.method === 'HEAD') return res.writeHead(405).end();
    res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'text/plain' }).end(req.method === 'GET' ? 'body' : undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

describe('admin: checks of an email', () => {
  const t = useFreshEmulatorPerTest();
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((c) => c()));
  });
  const send = async (body: Record<string, unknown>) => {
    const res = await t.api.post('/emails').send({ from: FROM, to: 'delivered@resend.dev', subject: 'Check me', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.id as string;
  };

  it('says of each finding whether it breaks the email (per client) or why it is harmless, as toRenderIn does', async () => {
    const id = await send({ html: '<!doctype html><html><body><div style="display:flex"><a href="https://acme.example.com" target="_blank">Hi</a></div></body></html>' });
    const { body } = await t.anon.get(`/_emulator/emails/${id}/html-check`).expect(200);
    const find = (slug: string) => body.findings.find((f: any) => f.slug === slug);
    expect(find('css-display-flex')).toMatchObject({ harmless: null, breaks: true });
    expect(find('css-display-flex').clients.find((c: any) => c.client === 'outlook.windows')).toMatchObject({ support: 'none', breaks: true });
    expect(find('html-target')).toMatchObject({ breaks: false, harmless: expect.stringContaining('target="_blank"') });
    expect(find('html-target').clients.find((c: any) => c.client === 'gmail.desktop-webmail')).toMatchObject({ support: 'none', breaks: false });
    expect(find('html-body')).toMatchObject({ breaks: false, harmless: expect.any(String) });
  });

  it('names display:flex and the Outlook clients that lack it, with a score per client family', async () => {
    const id = await send({ html: '<html><head><style>.row{display:flex}</style></head><body><div class="row"><p>Hi</p></div></body></html>' });
    const res = await t.anon.get(`/_emulator/emails/${id}/html-check`);
    expect(res.status).toBe(200);
    const flex = res.body.findings.find((f: any) => f.feature === 'display:flex');
    expect(flex).toMatchObject({ slug: 'css-display-flex', category: 'css', url: expect.stringContaining('caniemail.com') });
    const outlook = flex.clients.filter((c: any) => c.family === 'outlook');
    expect(outlook.map((c: any) => c.client)).toContain('outlook.windows');
    expect(outlook.find((c: any) => c.client === 'outlook.windows')).toMatchObject({ support: 'none', name: 'Outlook Windows' });
    // Apple Mail supports flex: it is not among the clients that lack it.
    expect(flex.clients.some((c: any) => c.family === 'apple-mail')).toBe(false);
    const fam = (name: string) => res.body.families.find((f: any) => f.family === name);
    expect(fam('outlook').unsupported).toBeGreaterThan(0);
    expect(fam('apple-mail')).toMatchObject({ name: 'Apple Mail' });
    expect(fam('apple-mail').supported).toBeGreaterThan(fam('outlook').supported);
    for (const f of res.body.families) expect(f.supported + f.partial + f.unsupported).toBeCloseTo(100, 0);
    expect(res.body.total.unsupported).toBeGreaterThan(0);
    expect(res.body.size).toMatchObject({ gmail_clipped: false, gmail_clip_bytes: 104448 });
    expect(res.body.list_unsubscribe).toMatchObject({ required: false, problems: [] });
    // `latest` finds it too.
    expect((await t.anon.get('/_emulator/emails/latest/html-check').query({ subject: 'Check me' })).body.email_id).toBe(id);
  });

  it('a text-only email has no finding and scores 100 %; an unknown email is 404', async () => {
    const id = await send({ text: 'plain words' });
    const res = await t.anon.get(`/_emulator/emails/${id}/html-check`).expect(200);
    expect(res.body).toMatchObject({ has_html: false, findings: [], total: { supported: 100, partial: 0, unsupported: 0 } });
    expect((await t.anon.get('/_emulator/emails/nope/html-check')).body).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect((await t.anon.get('/_emulator/inbound/emails/nope/html-check')).status).toBe(404);
  });

  it('a <style> block caniemail cannot read is reported as parse_error, not as a clean bill', async () => {
    const id = await send({ html: '<style>.a{color:</style><p class="a">x</p>' });
    const res = await t.anon.get(`/_emulator/emails/${id}/html-check`).expect(200);
    expect(res.body.parse_error).toMatch(/missing '\}'/);
    expect(res.body.findings).toEqual([]);
    const ok = await send({ html: '<p>fine</p>' });
    expect((await t.anon.get(`/_emulator/emails/${ok}/html-check`).expect(200)).body.parse_error).toBeNull();
  });

  it('flags a 110 KB email for Gmail clipping, not a 90 KB one', async () => {
    const body = (kb: number) => `<table><tr><td>${'<p>Lorem ipsum dolor sit amet.</p>'.repeat(Math.ceil((kb * 1000) / 34))}</td></tr></table>`;
    const big = await send({ html: body(110) });
    const small = await send({ html: body(90) });
    const b = (await t.anon.get(`/_emulator/emails/${big}/html-check`).expect(200)).body;
    expect(b.size.html_bytes).toBeGreaterThan(110_000);
    expect(b.size.gmail_clipped).toBe(true);
    expect(b.size.message_bytes).toBeGreaterThan(b.size.html_bytes);
    expect(b.size.source).toMatch(/^https:\/\//);
    expect((await t.anon.get(`/_emulator/emails/${small}/html-check`).expect(200)).body.size.gmail_clipped).toBe(false);
  });

  it('checks List-Unsubscribe: a broadcast\'s email is one-click; a malformed header is reported', async () => {
    const seg = (await t.api.post('/segments').send({ name: 'Readers' })).body.id;
    expect((await t.api.post('/contacts').send({ email: 'delivered+r@resend.dev', segments: [{ id: seg }] })).status).toBe(201);
    const b = await t.api.post('/broadcasts').send({ name: 'News', segment_id: seg, from: FROM, subject: 'News', html: '<p>Hi</p>' });
    await t.api.post(`/broadcasts/${b.body.id}/send`).send({}).expect(200);
    await t.emu.clock.advance('10s');
    const email = t.emu.emails({ to: 'delivered+r@' })[0];
    const res = await t.anon.get(`/_emulator/emails/${email.id}/html-check`).expect(200);
    expect(res.body.list_unsubscribe).toMatchObject({ required: true, one_click: true, problems: [], list_unsubscribe_post: 'List-Unsubscribe=One-Click' });
    expect(res.body.list_unsubscribe.uris[0]).toMatch(/^https?:\/\//);

    const bad = await send({ html: '<p>x</p>', headers: { 'List-Unsubscribe': 'https://example.com/u', 'List-Unsubscribe-Post': 'One-Click' } });
    const u = (await t.anon.get(`/_emulator/emails/${bad}/html-check`).expect(200)).body.list_unsubscribe;
    expect(u.one_click).toBe(false);
    expect(u.problems.join('\n')).toMatch(/not an angle-bracketed URI/);
    expect(u.problems.join('\n')).toMatch(/List-Unsubscribe=One-Click/);
  });

  it('link check: a link to a local /ok and /missing reports 200 and 404; HEAD refused falls back to GET; images too; nothing is requested unless asked', async () => {
    const srv = await localServer();
    closers.push(srv.close);
    const id = await send({
      html: `<p><a href="${srv.url}/ok">ok</a> <a href="${srv.url}/missing">missing</a> <a href="${srv.url}/no-head">no head</a><img src="${srv.url}/logo.png"></p>`,
      text: `ok: ${srv.url}/ok`,
    });
    await t.anon.get(`/_emulator/emails/${id}`).expect(200);
    await t.anon.get(`/_emulator/emails/${id}/html-check`).expect(200);
    expect(srv.seen).toEqual([]);
    const res = await t.anon.get(`/_emulator/emails/${id}/link-check`).expect(200);
    const by = Object.fromEntries(res.body.links.map((l: any) => [l.url.slice(srv.url.length), l]));
    expect(by['/ok']).toMatchObject({ kind: 'link', status: 200, ok: true, method: 'HEAD', error: null });
    expect(by['/missing']).toMatchObject({ status: 404, status_text: 'Not Found', ok: false });
    expect(by['/no-head']).toMatchObject({ status: 200, method: 'GET', ok: true });
    expect(by['/logo.png']).toMatchObject({ kind: 'image', status: 200 });
    expect(res.body.links).toHaveLength(4);
    expect(res.body.errors).toBe(1);
    expect(srv.seen.filter((s) => s === 'HEAD /ok')).toHaveLength(1);
  });

  it('link check: a timeout and a refused connection are errors, not failures of the request', async () => {
    const srv = await localServer();
    closers.push(srv.close);
    const dead = await localServer();
    await dead.close();
    const id = await send({ html: `<a href="${srv.url}/slow">slow</a> <a href="${dead.url}/x">dead</a>` });
    const res = await t.anon.get(`/_emulator/emails/${id}/link-check`).query({ timeout_ms: 300 }).expect(200);
    const [slow, gone] = res.body.links;
    expect(slow).toMatchObject({ status: null, ok: false, error: 'timed out after 300 ms' });
    expect(gone).toMatchObject({ status: null, ok: false });
    expect(gone.error).toMatch(/ECONNREFUSED/);
    expect(res.body.errors).toBe(2);
  });

  it('checks a received email too', async () => {
    const srv = await localServer();
    closers.push(srv.close);
    const r = await t.anon.post('/_emulator/inbound').send({
      from: 'Ada <ada@sender.test>', to: 'support@example.com', subject: 'Flex',
      html: `<style>.row{display:flex}</style><div class="row"><a href="${srv.url}/missing">x</a></div>`,
    }).expect(201);
    const h = await t.anon.get(`/_emulator/inbound/emails/${r.body.id}/html-check`).expect(200);
    expect(h.body.findings.map((f: any) => f.feature)).toContain('display:flex');
    const l = await t.anon.get(`/_emulator/inbound/emails/${r.body.id}/link-check`).expect(200);
    expect(l.body.links).toMatchObject([{ status: 404, ok: false }]);
  });
});
