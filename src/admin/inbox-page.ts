/**
 * Where the inbox page's files are (web/inbox/: index.html, its ES modules
 * (inbox.js the entry, store.js, list.js, …), inbox.css; the page is described in web/inbox/index.html and served by
 * src/admin/inbox.ts), from wherever this module runs: the sources
 * (src/admin/), the compiled package (dist/src/admin/) or the bundled CLI
 * (dist/cli.mjs). The folder ships in the package (`files`) and the Docker
 * image.
 *
 * What the page shows, for the selected team (a dashboard, read-only but for
 * replay, the clock, Delete and Clear of sent emails and Send to a real
 * inbox; light or dark, unread emails counted in the title): sent emails newest first with the search language
 * (`q`), an email's HTML in a sandboxed iframe (`sandbox=""`, `srcdoc`) at
 * 375 / 768 px or full width beside its text, its one-time codes and links,
 * its raw source, headers, attachments, tags and event timeline; received
 * emails; webhook deliveries with a Replay button; domains, contacts,
 * broadcasts, automation runs; the emulated clock with an advance control; a
 * team switcher; live updates over server-sent events (`events`). Every
 * value from the store is put in the page as text (never as markup); only
 * the email's own HTML is rendered, inside the sandboxed iframe.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazy } from '../lazy.js';

/** The folder web/inbox/ of the package: the first ancestor of this module's folder that holds it. Throws if none does. */
const inboxDir = lazy((): string => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const candidate = path.join(dir, 'web', 'inbox');
    if (fs.existsSync(path.join(candidate, 'index.html'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('the inbox page (web/inbox/index.html) is missing from the package');
});

/** The absolute path of `file` in web/inbox/ (`''`: the folder). */
export function inboxAsset(file: string): string {
  return path.join(inboxDir(), file);
}

/** The page's HTML as the file holds it (read once): `%BASE%` and `%ADMIN_COOKIE%` are filled in per request. */
export const inboxPage = lazy((): string => fs.readFileSync(inboxAsset('index.html'), 'utf8'));
