/**
 * The link check of an email (so broken links show before sending; what Mailpit's "Link check" does,
 * `GET /api/v1/message/{ID}/link-check`): each http(s) link and image of
 * the email is requested, only when asked (the admin API's `link-check`;
 * never on its own, so tests and CI stay off the network), and its status or
 * error reported.
 *
 * Each URL: `HEAD` first; where the server refuses it (405 Method Not
 * Allowed or 501 Not Implemented) a `GET`, whose body is not read.
 * Redirects are followed (the status is the last one's). Each request has a
 * timeout (`timeout_ms`, default 5000 ms wall clock); at most
 * `LINK_CHECK_CONCURRENCY` requests run at once.
 */

/** Requests in flight at once. */
export const LINK_CHECK_CONCURRENCY = 5;
/** Default timeout of one request, ms (wall clock). */
export const LINK_CHECK_TIMEOUT_MS = 5000;

/** The result for one URL. */
export interface LinkResult {
  url: string;
  /** `link` (an `href` or a URL in the text) or `image` (an `<img src>`). */
  kind: 'link' | 'image';
  /** The final HTTP status, null when no response came. */
  status: number | null;
  /** Its reason phrase (`OK`, `Not Found`), null when no response came. */
  status_text: string | null;
  /** The method of the answer counted: `HEAD`, or `GET` when HEAD was refused. */
  method: 'HEAD' | 'GET';
  /** 2xx and 3xx (after redirects) are `ok`. */
  ok: boolean;
  /** Why no response came (timeout, refused connection, DNS), null otherwise. */
  error: string | null;
}

/** The whole check. */
export interface LinkCheck {
  object: 'link_check';
  email_id: string;
  /** Each link and image once, links first, in order of appearance. */
  links: LinkResult[];
  /** How many are not `ok`. */
  errors: number;
}

/** `<img src>` http(s) URLs of the HTML, in order, without repeats. */
export function imageUrls(html: string | null): string[] {
  const out: string[] = [];
  if (!html) return out;
  for (const m of html.matchAll(/<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
    const url = (m[1] ?? m[2] ?? m[3]).trim().replace(/&amp;/g, '&');
    if (/^https?:\/\//i.test(url) && !out.includes(url)) out.push(url);
  }
  return out;
}

/** Why a fetch failed, in a few words (its cause's code when there is one). */
function reason(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `timed out after ${timeoutMs} ms`;
  const cause = e?.cause;
  if (cause?.code) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`;
  return e?.message ?? String(err);
}

/** One URL: HEAD, then GET where HEAD is refused (405, 501). */
async function checkOne(url: string, kind: 'link' | 'image', timeoutMs: number): Promise<LinkResult> {
  const request = async (method: 'HEAD' | 'GET') => {
    const res = await fetch(url, { method, redirect: 'follow', signal: AbortSignal.timeout(timeoutMs), headers: { 'user-agent': 'resend-emulator link check' } });
    // The body is never read: drop it so the connection is freed.
    await res.body?.cancel().catch(() => undefined);
    return res;
  };
  let method: 'HEAD' | 'GET' = 'HEAD';
  try {
    let res = await request('HEAD');
    if (res.status === 405 || res.status === 501) {
      method = 'GET';
      res = await request('GET');
    }
    return { url, kind, status: res.status, status_text: res.statusText || null, method, ok: res.status >= 200 && res.status < 400, error: null };
  } catch (err) {
    return { url, kind, status: null, status_text: null, method, ok: false, error: reason(err, timeoutMs) };
  }
}

/**
 * Requests every link and image (see the module comment). Resolves when all
 * are done; never rejects (a failure is a result with `error`).
 */
export async function linkCheck(emailId: string, links: string[], images: string[], timeoutMs = LINK_CHECK_TIMEOUT_MS): Promise<LinkCheck> {
  const todo: { url: string; kind: 'link' | 'image' }[] = [];
  for (const url of links) if (!todo.some((t) => t.url === url)) todo.push({ url, kind: 'link' });
  for (const url of images) if (!todo.some((t) => t.url === url)) todo.push({ url, kind: 'image' });
  const results: LinkResult[] = new Array(todo.length);
  let next = 0;
  const worker = async () => {
    while (next < todo.length) {
      const i = next++;
      results[i] = await checkOne(todo[i].url, todo[i].kind, timeoutMs);
    }
  };
  await Promise.all(Array.from({ length: Math.min(LINK_CHECK_CONCURRENCY, todo.length) }, worker));
  return { object: 'link_check', email_id: emailId, links: results, errors: results.filter((r) => !r.ok).length };
}
