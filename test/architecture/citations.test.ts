/**
 * Every citation in the code resolves inside the repository (issue 31 item 1).
 *
 * The facts the code relies on are recorded in `docs/reference/` (and the
 * user-facing pages of `docs/`); comments, docstrings, `spec/` descriptions
 * and messages cite them as `docs/<page>.md#<anchor>` (or `CONTRIBUTING.md#…`).
 * Scanned: every text file of `src/` (the generated types excepted), `spec/`
 * and `web/`. A file fails when:
 * - a cited page does not exist, or its anchor is no heading of that page
 *   (GitHub's anchors, test/markdown-anchors.ts);
 * - it cites a document that is not in the repository: the fact sheets
 *   (`API-FACTS`, `INBOXES-FACTS`), the interface specification by file or
 *   section name (`interface-spec "…"`, `SPEC`), `DESIGN.md`, a README
 *   section (`README "…"`: the reference moved to docs/), `../shared` (but
 *   the reference document `check-reference` reads),
 *   or a bare `§N` section number (an RFC's, `RFC 5322 §3.6.4`, is fine).
 * Each check has a self-test on a deliberately wrong case.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT as root, repoFiles } from './repo-files.js';
import { anchorsIn } from '../markdown-anchors.js';


/** Text files of the scanned folders (repo-relative, `/`-separated). */
function scannedFiles(): string[] {
  return repoFiles(['src', 'spec', 'web'], (name) => /\.(ts|js|mjs|cjs|yaml|yml|json|html|css)$/.test(name));
}

const anchorCache = new Map<string, Set<string> | null>();
/** The anchors of a repository page, or null when it does not exist. */
function pageAnchors(page: string): Set<string> | null {
  if (!anchorCache.has(page)) {
    const file = path.join(root, page);
    anchorCache.set(page, fs.existsSync(file) ? anchorsIn(fs.readFileSync(file, 'utf8')) : null);
  }
  return anchorCache.get(page)!;
}

/** Citations of documents outside the repository, each with what to write instead. */
const OUTSIDE: { pattern: RegExp; what: string }[] = [
  { pattern: /API-FACTS|INBOXES-FACTS/, what: 'a fact sheet outside the repository: cite docs/reference/<page>.md#<anchor>' },
  { pattern: /interface[- ]spec(?:\.md)? ?(?:"|[A-Z]|$)|(?<!docs\/reference\/)interface-spec\.md|(?<![\w_])SPEC(?![\w_])|\bspec Errors/, what: 'the interface specification: cite docs/reference/interface-spec.md#<section>' },
  { pattern: /DESIGN\.md/, what: 'DESIGN.md: cite docs/reference/design.md#<section>' },
  { pattern: /\bREADME\b(?!\.md)/, what: 'a README section: cite the docs/<topic>.md page' },
  { pattern: /\.\.\/shared\/(?!reference\/resend-openapi\.yaml)/, what: 'a path outside the repository' },
  { pattern: /(?<!RFC \d{3,5} )§ ?\d/, what: 'a section number of a document outside the repository' },
];

/** The citation problems of one file's text: `line: what`. */
function citationProblems(text: string): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [, page, anchor] of line.matchAll(/(?<![\w./-])((?:docs\/[\w./-]+|CONTRIBUTING|README)\.md)(?:#([\w-]+))?/g)) {
      const anchors = pageAnchors(page);
      if (!anchors) problems.push(`${i + 1}: ${page} does not exist`);
      else if (anchor && !anchors.has(anchor)) problems.push(`${i + 1}: ${page} has no heading #${anchor}`);
    }
    for (const { pattern, what } of OUTSIDE) if (pattern.test(line)) problems.push(`${i + 1}: ${what}: ${line.trim().slice(0, 120)}`);
  });
  return problems;
}

describe('citations in src/, spec/ and web/', () => {
  it('each resolves to a page and heading of the repository, and none cites a document outside it', () => {
    const problems = scannedFiles().flatMap((file) => citationProblems(fs.readFileSync(path.join(root, file), 'utf8')).map((p) => `${file}:${p}`));
    expect(problems).toEqual([]);
  });

  it('the scan finds the citations (more than a hundred, on every reference page)', () => {
    const cited = new Set<string>();
    let count = 0;
    for (const file of scannedFiles()) {
      for (const [, page] of fs.readFileSync(path.join(root, file), 'utf8').matchAll(/(docs\/reference\/[\w-]+\.md)/g)) { cited.add(page); count++; }
    }
    expect(count).toBeGreaterThan(100);
    const pages = fs.readdirSync(path.join(root, 'docs/reference')).filter((f) => f.endsWith('.md') && f !== 'README.md').map((f) => `docs/reference/${f}`);
    expect(pages.filter((p) => !cited.has(p))).toEqual([]);
  });

  describe('self-test: deliberately wrong citations are caught', () => {
    it.each([
      ['a missing page', '/** (docs/reference/nowhere.md#x) */', 'does not exist'],
      ['a missing anchor', '// (docs/reference/errors.md#no-such-heading)', 'has no heading'],
      ['a fact sheet', ' * (API-FACTS §2.1)', 'fact sheet'],
      ['the inbox fact sheet', '# INBOXES-FACTS §7', 'fact sheet'],
      ['the specification by section name', ' * (interface-spec "Pagination")', 'interface specification'],
      ['the specification as SPEC', "description: 'Four values (SPEC)'", 'interface specification'],
      ['DESIGN.md', '// DESIGN.md "Admin API"', 'DESIGN.md'],
      ['a README section', ' * (README "Fault injection")', 'README section'],
      ['a bare section number', ' * §5.13, §8 #7', 'section number'],
      ['the specification named at a line end', ' * (interface-spec', 'interface specification'],
      ['a README named without its section', ' * (listed in README)', 'README section'],
      ['a path to the shared folder', ' * ../shared/reference/INBOXES.md', 'outside the repository'],
    ])('%s', (_, line, expected) => {
      const problems = citationProblems(line);
      expect(problems.length).toBeGreaterThan(0);
      expect(problems.join('\n')).toContain(expected);
    });

    it('a citation that resolves, and an RFC section, pass', () => {
      expect(citationProblems('/** (docs/reference/errors.md#error-names-and-statuses; RFC 5322 §3.6.4; docs/outcomes.md) */')).toEqual([]);
    });
  });
});
