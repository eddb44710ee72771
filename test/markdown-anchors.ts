/**
 * Markdown heading anchors as GitHub makes them, for the tests that check
 * links and citations (test/docs.test.ts, test/architecture/citations.test.ts).
 */

/** GitHub's heading anchor: lower case, punctuation dropped but `-` and `_`, spaces to `-`. */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors of a Markdown file's headings, outside code fences. */
export function anchorsIn(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6} (.*)$/.exec(line);
    if (m) anchors.add(anchorOf(m[1]));
  }
  return anchors;
}
