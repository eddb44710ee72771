import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../../src/resources/emails/text.js';

describe('htmlToText (the generated plain-text part)', () => {
  it('converts html, gives the same text for the same html again, and is not confused by many others in between', () => {
    const html = '<p>Welcome aboard! <a href="https://example.com/start">Get started</a></p>';
    const first = htmlToText(html);
    expect(first).toBe('Welcome aboard! Get started [https://example.com/start]');
    for (let i = 0; i < 200; i++) expect(htmlToText(`<p>n${i}</p>`)).toBe(`n${i}`);
    expect(htmlToText(html)).toBe(first);
    const big = `<p>${'x'.repeat(20_000)}</p>`;
    expect(htmlToText(big)).toBe('x'.repeat(20_000));
    expect(htmlToText(big)).toBe('x'.repeat(20_000));
  });
});
