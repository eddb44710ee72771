/**
 * The app under test of the Playwright tests: a sign-up page with an email
 * field, and server routes that send a one-time code or a sign-in link with
 * the official `resend` SDK. The SDK reaches the emulator through its own
 * `RESEND_BASE_URL` environment variable (or `resendBaseUrl` given to
 * `startApp`), the way a real app is pointed at it in a test.
 *
 * - `GET /`: the form (Email; buttons "Sign up" and "Email me a sign-in link").
 * - `POST /signup`: emails a 6-digit code ("Your Acme sign-up code"), answers a form for it.
 * - `POST /verify`: the right code answers "Welcome, EMAIL"; a wrong one 400.
 * - `POST /magic-link`: emails a link to `/magic?token=...` ("Your Acme sign-in link").
 * - `GET /magic?token=`: a token it sent answers "Signed in as EMAIL" (once); else 400.
 *
 * Run as a program (`node server.mjs`, the Playwright config's `webServer`):
 * listens on `PORT` with `RESEND_API_KEY`. Imported: `startApp(options)`.
 */
import http from 'node:http';
import { randomBytes, randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Resend } from 'resend';

const FROM = 'Acme <onboarding@example.com>';

const escape = (s) => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title, body) => `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title></head><body>${body}</body></html>`;

/** Reads an `application/x-www-form-urlencoded` body. */
async function form(req) {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

/**
 * Starts the app; resolves with `{ url, close() }`. `port` 0 (default)
 * picks a free one; `resendBaseUrl` / `apiKey` default to the SDK's
 * environment (`RESEND_BASE_URL`, `RESEND_API_KEY`).
 */
export async function startApp({ port = 0, resendBaseUrl, apiKey = process.env.RESEND_API_KEY } = {}) {
  const resend = new Resend(apiKey, resendBaseUrl ? { baseUrl: resendBaseUrl } : undefined);
  /** Pending sign-ups: email → code. Sign-in links: token → email. */
  const codes = new Map();
  const tokens = new Map();

  async function send(res, to, subject, html, next) {
    const { error } = await resend.emails.send({ from: FROM, to, subject, html });
    if (error) {
      res.writeHead(502, { 'content-type': 'text/html' }).end(page('Error', `<p role="alert">Could not send the email: ${escape(error.message)}</p>`));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(next);
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, `http://${req.headers.host}`);
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(page('Sign up', `<h1>Join Acme</h1>
<form method="post" action="/signup"><label>Email <input type="email" name="email" required></label>
<button type="submit">Sign up</button><button type="submit" formaction="/magic-link">Email me a sign-in link</button></form>`));
    } else if (route === 'POST /signup') {
      const email = (await form(req)).get('email') ?? '';
      const code = String(randomInt(100000, 1000000));
      codes.set(email, code);
      await send(res, email, 'Your Acme sign-up code', `<p>Welcome to Acme!</p><p>Your code is <strong>${code}</strong>. It expires in 10 minutes.</p>`, page('Check your inbox', `<h1>Check your inbox</h1>
<form method="post" action="/verify"><input type="hidden" name="email" value="${escape(email)}"><label>Code <input name="code" inputmode="numeric" required></label><button type="submit">Verify</button></form>`));
    } else if (route === 'POST /verify') {
      const body = await form(req);
      const email = body.get('email') ?? '';
      if (codes.has(email) && codes.get(email) === body.get('code')) {
        codes.delete(email);
        res.writeHead(200, { 'content-type': 'text/html' }).end(page('Welcome', `<h1>Welcome, ${escape(email)}</h1>`));
      } else {
        res.writeHead(400, { 'content-type': 'text/html' }).end(page('Wrong code', '<p role="alert">Wrong code</p>'));
      }
    } else if (route === 'POST /magic-link') {
      const email = (await form(req)).get('email') ?? '';
      const token = randomBytes(16).toString('hex');
      tokens.set(token, email);
      const link = `${url.origin}/magic?token=${token}`;
      await send(res, email, 'Your Acme sign-in link', `<p>Sign in to Acme: <a href="${link}">sign in</a>. Or read our <a href="https://acme.example.com/help">help</a>.</p>`, page('Check your inbox', '<h1>Check your inbox for a sign-in link</h1>'));
    } else if (route === 'GET /magic') {
      const email = tokens.get(url.searchParams.get('token'));
      if (email === undefined) {
        res.writeHead(400, { 'content-type': 'text/html' }).end(page('Bad link', '<p role="alert">This link is not valid</p>'));
        return;
      }
      tokens.delete(url.searchParams.get('token'));
      res.writeHead(200, { 'content-type': 'text/html' }).end(page('Signed in', `<h1>Signed in as ${escape(email)}</h1>`));
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    }
  });
  await new Promise((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const app = await startApp({ port: Number(process.env.PORT ?? 3000) });
  console.log(`app listening on ${app.url}`);
  const stop = () => app.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
