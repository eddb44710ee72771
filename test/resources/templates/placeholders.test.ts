import { describe, expect, it } from 'vitest';
import { compilePlaceholders, fillPlaceholders, renderTemplate, UNKNOWN_PLACEHOLDER, type PublishedTemplate } from '../../../src/resources/templates/render.js';
import { renderForContact } from '../../../src/resources/broadcasts/render.js';
import type { Contact } from '../../../src/resources/contacts/service.js';

/** The one placeholder engine (issue 9 item 8): the grammar, then what each caller (template sends, broadcasts) makes of it. */
describe('fillPlaceholders', () => {
  const from = (values: Record<string, unknown>) => ({ lookup: (k: string) => (k in values ? values[k] : undefined) });

  it('reads {{{KEY}}} and {{{ KEY | fallback }}}, spaces ignored, dotted keys passed whole', () => {
    const seen: string[] = [];
    const out = fillPlaceholders('{{{A}}}-{{{ B }}}-{{{ contact.first_name | x y }}}', { lookup: (k) => (seen.push(k), k.toUpperCase()) });
    expect(out).toBe('A-B-CONTACT.FIRST_NAME');
    expect(seen).toEqual(['A', 'B', 'contact.first_name']);
  });

  it('takes the value, then the trimmed inline fallback, then otherwise() (default empty)', () => {
    expect(fillPlaceholders('[{{{A|fb}}}]', from({ A: 'v' }))).toBe('[v]');
    expect(fillPlaceholders('[{{{A| fb }}}]', from({ A: null }))).toBe('[fb]');
    expect(fillPlaceholders('[{{{A}}}]', from({}))).toBe('[]');
    expect(fillPlaceholders('[{{{A}}}]', { ...from({}), otherwise: (k) => `<${k}>` })).toBe('[<A>]');
    expect(() => fillPlaceholders('{{{A}}}', { ...from({}), otherwise: () => { throw new Error('no A'); } })).toThrowError('no A');
  });

  it('writes numbers and booleans as text, objects as JSON, unescaped', () => {
    expect(fillPlaceholders('{{{N}}} {{{B}}} {{{O}}} {{{H}}}', from({ N: 7, B: false, O: { a: 1 }, H: '<b>&</b>' }))).toBe('7 false {"a":1} <b>&</b>');
  });

  it('leaves a name the caller does not know as written, fallback and all', () => {
    expect(fillPlaceholders('{{{X|y}}} {{{A}}}', { lookup: (k) => (k === 'A' ? 'a' : UNKNOWN_PLACEHOLDER) })).toBe('{{{X|y}}} a');
  });

  it('leaves text that is not a placeholder alone: double braces, other key characters, an unclosed placeholder', () => {
    const values = { lookup: () => 'V' };
    expect(fillPlaceholders('{{A}} {{{a-b}}} {{{}}}', values)).toBe('{{A}} {{{a-b}}} {{{}}}');
    // The fallback holds no braces: an unclosed placeholder does not swallow the next one.
    expect(fillPlaceholders('{{{A|x {{{B}}}', values)).toBe('{{{A|x V');
  });
});

describe('compilePlaceholders', () => {
  it('fills as fillPlaceholders does, the lookups in the same order, for texts with and without placeholders', () => {
    const sources = [
      '', 'no placeholder', '{{{A}}}', '{{{A}}}{{{B|b}}}', 'x {{{ A | fa }}} y {{{X}}} z {{{contact.k}}}', '{{A}} {{{A} {{{A|{x}}}} {{{ A|}}}',
      '<p>Hello {{{FIRST_NAME|there}}},</p><a href="{{{RESEND_UNSUBSCRIBE_URL}}}">u</a>{{{N}}}',
    ];
    const valueSets: Record<string, unknown>[] = [{}, { A: 'a', B: '', N: 3, 'contact.k': { o: 1 } }, { A: null, FIRST_NAME: 'Ann', RESEND_UNSUBSCRIBE_URL: 'http://u' }];
    for (const source of sources) {
      const fill = compilePlaceholders(source);
      for (const values of valueSets) {
        const seen: [string[], string[]] = [[], []];
        const make = (log: string[]) => ({
          lookup: (k: string) => (log.push(k), k === 'X' ? UNKNOWN_PLACEHOLDER : values[k]),
          otherwise: (k: string) => `<${k}>`,
        });
        expect(fill(make(seen[0]))).toBe(fillPlaceholders(source, make(seen[1])));
        expect(seen[0]).toEqual(seen[1]);
      }
    }
  });
});

describe('the two callers of the one engine', () => {
  const tpl = (html: string, variables: PublishedTemplate['variables'] = []): PublishedTemplate => ({ id: 't', alias: null, from: null, subject: null, reply_to: null, html, text: null, variables });
  const contact: Contact = { id: 'c1', team_id: 't1', email: 'ada@example.com', first_name: '', last_name: null, unsubscribed: false, properties: {}, created_at: 0, updated_at: 0 };
  const vars = { contact, properties: { plan: '' }, unsubscribeUrl: 'http://emu/u' };

  it('template sends: an empty string is a value; a dotted key reads into an object; an unknown name is 422', () => {
    expect(renderTemplate(tpl('[{{{NAME|there}}}]'), { NAME: '' }).html).toBe('[]');
    expect(renderTemplate(tpl('{{{order.total}}}'), { order: { total: 12 } }).html).toBe('12');
    expect(() => renderTemplate(tpl('{{{PRODUCT}}}'), {})).toThrowError(/`PRODUCT`/);
  });

  it('broadcasts: an empty value takes the fallback; an unknown name stays as written', () => {
    expect(renderForContact('[{{{contact.first_name|there}}}] [{{{contact.plan|free}}}] [{{{LAST_NAME}}}]', vars)).toBe('[there] [free] []');
    expect(renderForContact('{{{PRODUCT|x}}} {{{RESEND_UNSUBSCRIBE_URL}}}', vars)).toBe('{{{PRODUCT|x}}} http://emu/u');
  });
});
