/**
 * The HTML check of an email (so a team knows before sending whether a client breaks the email; what Mailpit's "HTML check" does,
 * `GET /api/v1/message/{ID}/html-check`): which HTML elements, attributes,
 * CSS properties, selectors and at-rules the email uses that some email
 * client supports only partly or not at all, from the caniemail.com data
 * through the `caniemail` package (its parser and its data; nothing is
 * copied by hand), with a score per client family; the message's size
 * against Gmail's clipping threshold; and, for a broadcast, the
 * `List-Unsubscribe` / `List-Unsubscribe-Post` headers (RFC 2369, RFC 8058).
 *
 * Score (per client family and in total), as Mailpit shows it: over every
 * pair (feature found, client of the family), the share of pairs fully
 * supported, partly supported and not supported, in percent (one decimal).
 * The features counted are those the email uses that at least one client
 * lacks in full (caniemail reports no others); a family that supports all of
 * them scores 100 % supported.
 *
 * Which findings break rendering (docs/reference/design.md#the-html-check-what-breaks-rendering):
 * a client that does not support a feature breaks the email there, whatever
 * caniemail's category (`html`, `css`, `image`, `others`), unless the
 * feature is one of `HARMLESS` (dropping it has no visible effect, or only
 * loses a decoration: the content and the layout stay). Each finding says
 * so (`harmless`, `breaks`; each client's `breaks`); the scores count every
 * finding, harmless ones too: a score measures support, as Mailpit's does,
 * and a client that drops a decoration still lacks the feature.
 *
 * Served by src/admin/checks.ts; the matcher `toRenderIn` of the test entries
 * (src/testing/render-check.ts) reads the same result.
 */
import { lazy, requirePackage } from '../lazy.js';

/** caniemail (an ES module), imported on first use. */
const caniemailModule = lazy(() => import('caniemail'));
/** htmlparser2 (what caniemail parses with), required on first use: `missedFeatures`. */
const htmlparser2 = lazy(() => requirePackage<typeof import('htmlparser2')>('htmlparser2'));

/** How well a client supports a feature, as caniemail says (`full` is never reported as a finding). */
export type SupportLevel = 'partial' | 'none';

/** One client's support of one feature the email uses. */
export interface ClientFinding {
  /** caniemail's client id, `family.platform` (e.g. `outlook.windows`). */
  client: string;
  /** The family (e.g. `outlook`). */
  family: string;
  /** The platform (e.g. `windows`, `ios`, `desktop-webmail`). */
  platform: string;
  /** Its readable name (e.g. `Outlook Windows`), from caniemail's nicenames. */
  name: string;
  support: SupportLevel;
  /** caniemail's notes for this client (markdown), possibly none. */
  notes: string[];
  /** The feature breaks the email in this client: it is not supported there (`none`) and not harmless. */
  breaks: boolean;
}

/** caniemail's feature categories (its data's `category`; the document's `HtmlCheck` enumerates the same four). */
export type FeatureCategory = 'html' | 'css' | 'image' | 'others';

/** A feature the email uses that some client supports partly or not at all. */
export interface HtmlFinding {
  /** caniemail's title (e.g. `display:flex`, `<style> element`). */
  feature: string;
  /** caniemail's slug (e.g. `css-display-flex`), null if its data has no feature of that title. */
  slug: string | null;
  /** `html`, `css`, `image` or `others`. */
  category: FeatureCategory | null;
  /** The caniemail.com page of the feature. */
  url: string | null;
  /** The clients that lack it (in part or in full), in caniemail's client order. */
  clients: ClientFinding[];
  /** Why a client lacking the feature still shows the email as meant (`HARMLESS`), null when the feature is not harmless. */
  harmless: string | null;
  /** Some client's `breaks`: a client does not support it and it is not harmless. */
  breaks: boolean;
}

/**
 * The features a client may lack without breaking the email, each with why
 * (docs/reference/design.md#the-html-check-what-breaks-rendering), by
 * caniemail slug. Three reasons: nothing is drawn differently (the client
 * drops the element or attribute, or does what it asks anyway), the rule
 * only applies to an interaction or a preference (the email at rest is
 * drawn the same), or only a decoration is lost (the content and the
 * layout stay). `html-dir` is harmless only while no `dir` asks for `rtl`
 * or `auto` (`harmlessReason`): `ltr` is the default direction.
 */
export const HARMLESS: Readonly<Record<string, string>> = Object.freeze({
  'html-body': 'the client wraps the content in an element of its own (caniemail: replaced by a `<div>`); the content shows, only `<body>`\'s own attributes and styles are lost (give a wrapper table cell the background too)',
  'html-doctype': 'a webmail shows the message inside its own page and Outlook for Windows renders with Word, whatever the doctype',
  'html-role': 'read by screen readers only; nothing is drawn differently',
  'html-aria-describedby': 'read by screen readers only; nothing is drawn differently',
  'html-aria-hidden': 'read by screen readers only; nothing is drawn differently',
  'html-aria-label': 'read by screen readers only; nothing is drawn differently',
  'html-aria-labelledby': 'read by screen readers only; nothing is drawn differently',
  'html-aria-live': 'read by screen readers only; nothing is drawn differently',
  'html-lang': 'read by screen readers, spell checkers and hyphenation; nothing is drawn differently',
  'html-dir': 'only `ltr` is used, the default direction: nothing is drawn differently',
  'html-target': 'links open in a new window or tab anyway (caniemail: Gmail forces `target="_blank"` on every link; other clients always open a new window)',
  'html-loading-attribute': 'the images load at once instead of lazily',
  'html-meta-color-scheme': 'a dark-mode hint; without it the client treats the email as it treats any email without one',
  'css-at-media-prefers-color-scheme': 'dark-mode styles; without them the client shows the email\'s own colours or its own dark-mode treatment',
  'css-at-media-prefers-reduced-motion': 'applies only to a reader who asks for less motion; the email at rest is drawn the same',
  'css-at-media-hover': 'applies only to a device that hovers; the email at rest is drawn the same',
  'css-pseudo-class-hover': 'an interaction state; the email at rest is drawn the same',
  'css-pseudo-class-focus': 'an interaction state; the email at rest is drawn the same',
  'css-pseudo-class-active': 'an interaction state; the email at rest is drawn the same',
  'css-transition': 'animates a change between states; the email at rest is drawn the same',
  'css-cursor': 'the pointer\'s shape only; nothing is drawn differently',
  'css-outline': 'an outline takes no room (it does not move anything); email CSS mostly turns it off (`outline:none`, as React Email\'s `Img`)',
  'css-border-radius': 'a decoration: the corners are square, the content and layout stay (caniemail notes VML for rounded corners in Outlook)',
  'css-box-shadow': 'a decoration: the shadow is lost, the content and layout stay',
  'css-text-shadow': 'a decoration: the shadow is lost, the text and layout stay',
  'css-text-decoration-line': 'a decoration: links keep the client\'s own underline, the text and layout stay',
  'css-text-decoration-color': 'a decoration: the line keeps the text\'s colour, the text and layout stay',
  'css-text-decoration-style': 'a decoration: the line is solid, the text and layout stay',
  'css-text-decoration-thickness': 'a decoration: the line keeps its default thickness, the text and layout stay',
  'css-text-decoration-skip-ink': 'a decoration: the underline crosses descenders, the text and layout stay',
  'css-text-underline-offset': 'a decoration: the underline sits at its default place, the text and layout stay',
  'css-text-underline-position': 'a decoration: the underline sits at its default place, the text and layout stay',
});

/** A `dir` attribute asking for another direction than `ltr` (the default): then `html-dir` is not harmless. */
const NON_LTR_DIR = /\sdir\s*=\s*["']?\s*(rtl|auto)\b/i;

/** Why `slug` is harmless in `html` (`HARMLESS`), or null. */
export function harmlessReason(slug: string | null, html: string): string | null {
  if (slug === null || !Object.hasOwn(HARMLESS, slug)) return null;
  if (slug === 'html-dir' && NON_LTR_DIR.test(html)) return null;
  return HARMLESS[slug];
}

/** Shares of (feature, client) pairs, percent with one decimal. */
export interface Score {
  supported: number;
  partial: number;
  unsupported: number;
}

/** The score of one client family. */
export interface FamilyScore extends Score {
  family: string;
  name: string;
  /** Its clients (`family.platform`). */
  clients: string[];
}

/** Gmail clips a message whose HTML is larger than this many bytes: 102 KB (102 × 1024). */
export const GMAIL_CLIP_BYTES = 102 * 1024;
/**
 * Where the figure comes from: Google does not publish it; the common
 * guidance (and measurements: ~102-105 KB of HTML, depending on the
 * transfer encoding) is in Al Iverson's "What is Gmail clipping and what to
 * do about it" (Spam Resource, January 2022).
 */
export const GMAIL_CLIP_SOURCE = 'https://www.spamresource.com/2022/01/what-is-gmail-clipping-and-what-to-do.html';

/** The message's size against Gmail's clipping. */
export interface SizeCheck {
  /** UTF-8 bytes of the HTML part (0 when none). */
  html_bytes: number;
  /** Bytes of the whole message as on the wire (RFC 5322, attachments included). */
  message_bytes: number;
  /** `GMAIL_CLIP_BYTES`. */
  gmail_clip_bytes: number;
  /** The HTML is larger than Gmail's threshold: Gmail shows "[Message clipped]". */
  gmail_clipped: boolean;
  source: string;
}

/** List-Unsubscribe and List-Unsubscribe-Post of the message. */
export interface UnsubscribeCheck {
  /** The email is a broadcast's: bulk mail, which Gmail and Yahoo require to carry both headers (one-click). */
  required: boolean;
  list_unsubscribe: string | null;
  list_unsubscribe_post: string | null;
  /** The URIs of List-Unsubscribe (RFC 2369: `<uri>`, comma-separated). */
  uris: string[];
  /** Both present and well-formed: an https URI (or http on a loopback host: the emulator's own link) and `List-Unsubscribe=One-Click` (RFC 8058 section 3.1). */
  one_click: boolean;
  /** What is missing or malformed, in words (empty when all is well, or when nothing is required and nothing given). */
  problems: string[];
}

/** The whole check. */
export interface HtmlCheck {
  object: 'html_check';
  email_id: string;
  /** The email has an HTML part (without one, `findings` is empty and every score 100 % supported). */
  has_html: boolean;
  /**
   * Why caniemail could not read the HTML (its CSS parser's message, e.g.
   * `:1:10: missing '}'` for a `<style>` block cut short), null when it could.
   * Then `findings` is empty: the check found nothing because it could not look.
   */
  parse_error: string | null;
  /** Features found that some client lacks, in the order caniemail's data lists them. */
  findings: HtmlFinding[];
  /** The score over every client. */
  total: Score;
  /** The score per client family, in caniemail's client order. */
  families: FamilyScore[];
  size: SizeCheck;
  list_unsubscribe: UnsubscribeCheck;
  /** The caniemail data's date (its `last_update_date`). */
  data_date: string;
}

/** What the check reads of an email, sent or received. */
export interface CheckInput {
  id: string;
  html: string | null;
  /** Header name (any case) → value. */
  headers: Record<string, string>;
  /** The whole message's bytes. */
  message_bytes: number;
  /** A broadcast's email (List-Unsubscribe required). */
  broadcast: boolean;
}

const pct = (n: number, of: number) => (of === 0 ? 0 : Math.round((n / of) * 1000) / 10);

/** Shares of pairs: `full + partial + none` pairs in all. */
function score(full: number, partial: number, none: number): Score {
  const all = full + partial + none;
  if (all === 0) return { supported: 100, partial: 0, unsupported: 0 };
  return { supported: pct(full, all), partial: pct(partial, all), unsupported: pct(none, all) };
}

/** A header's value, whatever the case of its name. */
function header(headers: Record<string, string>, name: string): string | null {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? null : String(headers[key]);
}

/**
 * List-Unsubscribe (RFC 2369 section 3.2: one or more `<URI>`, comma
 * separated, mailto or http(s)) and List-Unsubscribe-Post (RFC 8058 section
 * 3.1: exactly `List-Unsubscribe=One-Click`, with an https URI in
 * List-Unsubscribe). Required (both) for a broadcast.
 */
export function checkUnsubscribe(headers: Record<string, string>, required: boolean): UnsubscribeCheck {
  const value = header(headers, 'List-Unsubscribe');
  const post = header(headers, 'List-Unsubscribe-Post');
  const problems: string[] = [];
  const uris: string[] = [];
  if (value !== null) {
    const parts = value.split(',').map((p) => p.trim()).filter(Boolean);
    if (parts.length === 0) problems.push('List-Unsubscribe is empty (RFC 2369: one or more <URI>).');
    for (const p of parts) {
      const m = /^<([^<>\s]+)>$/.exec(p);
      if (!m) problems.push(`List-Unsubscribe entry \`${p}\` is not an angle-bracketed URI (RFC 2369 section 2).`);
      else if (!/^(mailto:[^@\s]+@[^@\s]+|https?:\/\/[^\s]+)$/i.test(m[1])) problems.push(`List-Unsubscribe URI \`${m[1]}\` is neither mailto: nor http(s):.`);
      else uris.push(m[1]);
    }
  } else if (required) {
    problems.push('A broadcast should carry List-Unsubscribe (RFC 2369); Gmail and Yahoo require it of bulk senders.');
  }
  // An http URI on a loopback host counts as https: the emulator's own unsubscribe link is served over plain http on 127.0.0.1
  // (the real service's is https).
  const https = uris.some((u) => /^https:\/\//i.test(u) || /^http:\/\/(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?\//i.test(u));
  if (post !== null) {
    if (post.trim() !== 'List-Unsubscribe=One-Click') problems.push(`List-Unsubscribe-Post is \`${post}\`; RFC 8058 section 3.1 requires exactly \`List-Unsubscribe=One-Click\`.`);
    if (!https) problems.push('List-Unsubscribe-Post needs an https URI in List-Unsubscribe (RFC 8058 section 3.1).');
  } else if (required) {
    problems.push('A broadcast should carry List-Unsubscribe-Post: List-Unsubscribe=One-Click (RFC 8058 one-click unsubscribe).');
  }
  return {
    required,
    list_unsubscribe: value,
    list_unsubscribe_post: post,
    uris,
    one_click: https && post !== null && post.trim() === 'List-Unsubscribe=One-Click' && problems.length === 0,
    problems,
  };
}

/**
 * Checks an email (see the module comment). Async: caniemail is imported on
 * first use. Never throws for any HTML: where caniemail cannot read it (a
 * malformed `<style>` block), `parse_error` says why and `findings` is empty.
 */
export async function htmlCheck(input: CheckInput): Promise<HtmlCheck> {
  const { caniemail, rawData, getAllFeatures } = await caniemailModule();
  const data = rawData as unknown as {
    last_update_date: string;
    nicenames: { family: Record<string, string>; platform: Record<string, string> };
    data: { slug: string; title: string; url: string; category: FeatureCategory }[];
  };
  const html = input.html ?? '';
  const byTitle = new Map(data.data.map((f) => [f.title, f]));
  const order = new Map(data.data.map((f, i) => [f.title, i]));
  const findings = new Map<string, HtmlFinding>();
  const clientIds = checkedClients(caniemail, data.data as unknown as { stats: Record<string, Record<string, unknown>> }[]);
  let parseError: string | null = null;
  if (html.trim()) {
    let result: ReturnType<typeof caniemail> | null = null;
    try {
      result = caniemail({ clients: ['*'], html });
    } catch (err) {
      parseError = (err as Error).message ?? String(err);
    }
    /** Records that `client` supports the feature titled `title` only partly or not at all. */
    const add = (client: string, title: string, level: string, notes: string[]) => {
      const [family, platform] = client.split('.');
      const meta = byTitle.get(title);
      let f = findings.get(title);
      if (!f) {
        const harmless = harmlessReason(meta?.slug ?? null, html);
        f = { feature: title, slug: meta?.slug ?? null, category: meta?.category ?? null, url: meta?.url ?? null, clients: [], harmless, breaks: false };
        findings.set(title, f);
      }
      if (f.clients.some((c) => c.client === client)) return;
      const support: SupportLevel = level === 'partial' ? 'partial' : 'none';
      const breaks = support === 'none' && f.harmless === null;
      f.breaks ||= breaks;
      f.clients.push({
        client,
        family,
        platform,
        name: `${data.nicenames.family[family] ?? family} ${data.nicenames.platform[platform] ?? platform}`,
        support,
        notes,
        breaks,
      });
    };
    const issues = result?.issues;
    for (const kind of ['errors', 'warnings'] as const) {
      for (const [client, list] of issues?.[kind] ?? new Map()) {
        for (const issue of list) add(String(client), issue.title, issue.support, issue.notes ?? []);
      }
    }
    if (result) {
      const slugs = missedFeatures(html);
      if (slugs.size) {
        const support = supportOf(getAllFeatures, clientIds);
        for (const f of data.data) {
          if (!slugs.has(f.slug)) continue;
          for (const client of clientIds) {
            const s = support.get(`${client}\n${f.title}`);
            if (s && s.support !== 'full') add(client, f.title, s.support, s.notes);
          }
        }
      }
    }
  }
  const rank = new Map(clientIds.map((c, i) => [c, i]));
  const list = [...findings.values()].sort((a, b) => (order.get(a.feature) ?? 1e9) - (order.get(b.feature) ?? 1e9));
  for (const f of list) f.clients.sort((a, b) => (rank.get(a.client) ?? 1e9) - (rank.get(b.client) ?? 1e9));

  // Scores: each (feature, client) pair is full unless a finding says otherwise.
  const families: FamilyScore[] = [];
  const tally = { full: 0, partial: 0, none: 0 };
  for (const client of clientIds) {
    const family = client.split('.')[0];
    let fam = families.find((x) => x.family === family);
    if (!fam) {
      fam = { family, name: data.nicenames.family[family] ?? family, clients: [], supported: 0, partial: 0, unsupported: 0 };
      families.push(fam);
    }
    fam.clients.push(client);
  }
  for (const fam of families) {
    const t = { full: 0, partial: 0, none: 0 };
    for (const f of list) {
      for (const client of fam.clients) {
        const c = f.clients.find((x) => x.client === client);
        if (!c) t.full++;
        else if (c.support === 'partial') t.partial++;
        else t.none++;
      }
    }
    Object.assign(fam, score(t.full, t.partial, t.none));
    tally.full += t.full;
    tally.partial += t.partial;
    tally.none += t.none;
  }
  const htmlBytes = Buffer.byteLength(html, 'utf8');
  return {
    object: 'html_check',
    email_id: input.id,
    has_html: html.trim() !== '',
    parse_error: parseError,
    findings: list,
    total: score(tally.full, tally.partial, tally.none),
    families,
    size: {
      html_bytes: htmlBytes,
      message_bytes: input.message_bytes,
      gmail_clip_bytes: GMAIL_CLIP_BYTES,
      gmail_clipped: htmlBytes > GMAIL_CLIP_BYTES,
      source: GMAIL_CLIP_SOURCE,
    },
    list_unsubscribe: checkUnsubscribe(input.headers, input.broadcast),
    data_date: data.last_update_date,
  };
}

/** Every feature of caniemail's data: its slug (`css-display-flex`) and title (`display:flex`). */
export async function caniemailFeatures(): Promise<{ slug: string; title: string }[]> {
  const { rawData } = await caniemailModule();
  return (rawData as unknown as { data: { slug: string; title: string }[] }).data.map((f) => ({ slug: f.slug, title: f.title }));
}

/**
 * The image formats of caniemail's data (category `image`) by file
 * extension of an `<img src>`, or by the media type of a `data:` URI.
 */
const IMAGE_FORMATS: Readonly<Record<string, string>> = {
  png: 'image-png', jpg: 'image-jpg', jpeg: 'image-jpg', gif: 'image-gif', webp: 'image-webp', avif: 'image-avif', svg: 'image-svg',
  bmp: 'image-bmp', tif: 'image-tiff', tiff: 'image-tiff', ico: 'image-ico', heic: 'image-heif', heif: 'image-heif', apng: 'image-apng', mp4: 'image-mp4',
};

/** The image format features of one `<img src>`: `data:` URIs are `image-base64` and their media type's format; a URL, its path's extension. */
function imageFormats(src: string): string[] {
  const data = /^\s*data:image\/([a-z0-9.+-]+)/i.exec(src);
  if (data) {
    const format = IMAGE_FORMATS[data[1].toLowerCase().replace(/\+xml$/, '')];
    return format ? ['image-base64', format] : ['image-base64'];
  }
  if (/^\s*data:/i.test(src)) return ['image-base64'];
  const ext = /\.([a-z0-9]+)$/i.exec(src.trim().split(/[?#]/)[0]);
  const format = ext ? IMAGE_FORMATS[ext[1].toLowerCase()] : undefined;
  return format ? [format] : [];
}

/**
 * The slugs of the features the email uses that caniemail 1.0.5's parser
 * does not look for: `html-svg` (an `<svg>` element: its parser matches the
 * feature's title, "Embedded <svg> image", to `<image>` elements only) and
 * the image formats of `<img src>` (category `image`, which it never
 * checks). Read with htmlparser2 (comments, and so Outlook's conditional
 * blocks, are not elements).
 */
function missedFeatures(html: string): Set<string> {
  const found = new Set<string>();
  const parser = new (htmlparser2().Parser)({
    onopentag(name, attrs) {
      if (name === 'svg') found.add('html-svg');
      else if (name === 'img' && typeof attrs.src === 'string') for (const slug of imageFormats(attrs.src)) found.add(slug);
    },
  });
  parser.write(html);
  parser.end();
  return found;
}

type AllFeatures = typeof import('caniemail').getAllFeatures;
let supportTable: Map<string, { support: string; notes: string[] }> | null = null;
/** Each client's support of each feature (`client\ntitle` → support and notes), as caniemail's `getAllFeatures` gives it. Worked out once. */
function supportOf(getAll: AllFeatures, clientIds: string[]): Map<string, { support: string; notes: string[] }> {
  if (supportTable) return supportTable;
  const table = new Map<string, { support: string; notes: string[] }>();
  const all = getAll(clientIds as Parameters<AllFeatures>[0]);
  for (const map of [all.supported, all.unsupported]) {
    for (const [client, list] of map) for (const f of list) table.set(`${String(client)}\n${f.title}`, { support: f.support, notes: f.notes });
  }
  supportTable = table;
  return table;
}

let clients: string[] | null = null;
/**
 * The clients caniemail checks, in the order of its data: every
 * `family.platform` of the data's stats that caniemail accepts as a client
 * (it throws "not found" for the others, such as `outlook.outlook-com`).
 * Worked out once.
 */
function checkedClients(check: (o: { clients: any[]; css?: string }) => unknown, features: { stats: Record<string, Record<string, unknown>> }[]): string[] {
  if (clients) return clients;
  const seen: string[] = [];
  for (const f of features) {
    for (const [family, platforms] of Object.entries(f.stats ?? {})) {
      for (const platform of Object.keys(platforms ?? {})) {
        const id = `${family}.${platform}`;
        if (!seen.includes(id)) seen.push(id);
      }
    }
  }
  clients = seen.filter((id) => {
    try {
      check({ clients: [id], css: 'a{color:red}' });
      return true;
    } catch {
      return false;
    }
  });
  return clients;
}
