/**
 * The installed package stands alone (issue 35 item 5): every link of the
 * markdown it ships (README.md, docs/*.md, docs/reference/*.md) resolves
 * inside the package, anchors included, or is an absolute URL; a link into
 * the repository (package.json's `repository`, `…/blob/main/PATH#anchor`)
 * names a file of this tree and a heading of it; every image the markdown
 * shows is shipped, no image is shipped that none shows, and the shipped
 * images stay within `IMAGE_BUDGET_BYTES`. The file list is
 * `npm pack --dry-run --json`'s, so it is what `files` in package.json
 * ships, whatever the working tree holds.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { anchorsIn } from '../markdown-anchors.js';
import { root, scratchEnv } from './scratch.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Most bytes the shipped images (docs/*.png: README's hero and the inbox page's screenshots) may take together: 1.5 MB (1.27 MB now). */
const IMAGE_BUDGET_BYTES = 1_500_000;

const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  repository?: { type?: string; url?: string };
  homepage?: string;
  bugs?: { url?: string };
};
/** `https://github.com/OWNER/NAME`, from package.json's `repository`. */
const repoUrl = (manifest.repository?.url ?? '').replace(/^git\+/, '').replace(/\.git$/, '');

/** Shipped path → size in bytes. */
let shipped: Map<string, number>;
let markdown: string[];

beforeAll(() => {
  const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, env: scratchEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [info] = JSON.parse(out) as { files: { path: string; size: number }[] }[];
  shipped = new Map(info.files.map((f) => [f.path, f.size]));
  markdown = [...shipped.keys()].filter((f) => f.endsWith('.md')).sort();
}, 60_000);

interface Link {
  target: string;
  image: boolean;
}

/** The links of a markdown text outside code fences and code spans: `[text](target)`, `![alt](target)`, `[ref]: target`, `<a href>`, `<img src>`. */
function linksIn(text: string): Link[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const links: Link[] = [];
  for (const m of prose.matchAll(/(!?)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: m[2], image: m[1] === '!' });
  for (const m of prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) links.push({ target: m[1], image: false });
  for (const m of prose.matchAll(/<a\s[^>]*href="([^"]+)"/g)) links.push({ target: m[1], image: false });
  for (const m of prose.matchAll(/<img\s[^>]*src="([^"]+)"/g)) links.push({ target: m[1], image: true });
  return links;
}

const isAbsolute = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** Why `link` of shipped `page` breaks in the installed package, or null. */
function brokenInPackage(page: string, { target }: Link): string | null {
  if (isAbsolute(target)) return /^(https?|mailto):/i.test(target) ? null : `${target}: not a web or mail address`;
  const [file, anchor] = target.split('#');
  const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(file))) : page;
  if (!shipped.has(resolved)) return `${target}: ${resolved} is not in the package`;
  if (anchor && resolved.endsWith('.md') && !anchorsIn(fs.readFileSync(path.join(root, resolved), 'utf8')).has(anchor)) return `${target}: no heading #${anchor} in ${resolved}`;
  return null;
}

/** Why an absolute link into this repository (`REPO/blob/main/PATH#anchor`, `REPO/tree/main/PATH`) names nothing of this tree, or null. */
function brokenInRepository({ target }: Link): string | null {
  const m = new RegExp(`^${repoUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(?:blob|tree)/main/([^#?]+)(?:#(.*))?$`).exec(target);
  if (!m) return null;
  const file = path.join(root, decodeURI(m[1]));
  if (!fs.existsSync(file)) return `${target}: ${m[1]} is not in the repository`;
  if (m[2] && file.endsWith('.md') && !anchorsIn(fs.readFileSync(file, 'utf8')).has(m[2])) return `${target}: no heading #${m[2]} in ${m[1]}`;
  return null;
}

describe('the installed package stands alone', () => {
  it('package.json names the repository, its homepage and where to report bugs, all on the same repository', () => {
    expect(manifest.repository?.type).toBe('git');
    expect(repoUrl).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    expect(manifest.homepage).toBe(`${repoUrl}#readme`);
    expect(manifest.bugs?.url).toBe(`${repoUrl}/issues`);
  });

  it('ships README.md, the docs and the record', () => {
    expect(markdown).toContain('README.md');
    expect(markdown).toContain('docs/webhooks.md');
    expect(markdown).toContain('docs/reference/README.md');
  });

  it('every link of the shipped markdown resolves inside the package (anchors included) or is an absolute URL', () => {
    const broken = markdown.flatMap((page) => linksIn(fs.readFileSync(path.join(root, page), 'utf8')).map((l) => brokenInPackage(page, l)).filter((b) => b !== null).map((b) => `${page}: ${b}`));
    expect(broken).toEqual([]);
  });

  it('every absolute link into the repository names a file of this tree and a heading of it', () => {
    const broken = markdown.flatMap((page) => linksIn(fs.readFileSync(path.join(root, page), 'utf8')).map(brokenInRepository).filter((b) => b !== null).map((b) => `${page}: ${b}`));
    expect(broken).toEqual([]);
  });

  it("README's images are shipped (the hero image of the inbox page included)", () => {
    const images = linksIn(fs.readFileSync(path.join(root, 'README.md'), 'utf8')).filter((l) => l.image && !isAbsolute(l.target));
    expect(images.map((l) => l.target)).toContain('docs/inbox.png');
    for (const { target } of images) expect(shipped.has(path.posix.normalize(target)), target).toBe(true);
  });

  it(`ships only the images the markdown shows, ${IMAGE_BUDGET_BYTES} bytes at most together`, () => {
    const shown = new Set(markdown.flatMap((page) => linksIn(fs.readFileSync(path.join(root, page), 'utf8')).filter((l) => l.image && !isAbsolute(l.target)).map((l) => path.posix.normalize(path.posix.join(path.posix.dirname(page), l.target)))));
    const images = [...shipped.keys()].filter((f) => /\.(png|jpe?g|gif|svg|webp)$/i.test(f) && !f.startsWith('web/') && !f.startsWith('dist/'));
    expect(images.filter((f) => !shown.has(f))).toEqual([]);
    const bytes = images.reduce((sum, f) => sum + shipped.get(f)!, 0);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(IMAGE_BUDGET_BYTES);
  });

  it('the link reader finds every kind of link it checks (self-test)', () => {
    const found = linksIn('[a](x.md#h) ![b](i.png "t") `[c](code.md)`\n[ref]: ../r.md\n<a href="h.md">h</a> <img src="p.png">\n```\n[d](fenced.md)\n```\n');
    expect(found).toEqual([
      { target: 'x.md#h', image: false },
      { target: 'i.png', image: true },
      { target: '../r.md', image: false },
      { target: 'h.md', image: false },
      { target: 'p.png', image: true },
    ]);
  });
});
