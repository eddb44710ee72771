import { describe, expect, it } from 'vitest';
import { renderForContact, textDeriver, unsubscribeUrl, withPreviewText } from '../../../src/resources/broadcasts/render.js';
import { htmlToText } from '../../../src/resources/emails/text.js';
import type { Contact } from '../../../src/resources/contacts/service.js';

const contact = (over: Partial<Contact> = {}): Contact => ({
  id: 'c1',
  team_id: 't1',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  unsubscribed: false,
  properties: {},
  created_at: 0,
  updated_at: 0,
  ...over,
});

const vars = (c: Contact, properties: Record<string, string | number | boolean | null> = {}) => ({ contact: c, properties, unsubscribeUrl: 'http://emu/_emulator/unsubscribe/tok' });

describe('broadcast rendering', () => {
  it('fills contact fields, with fallbacks when empty', () => {
    expect(renderForContact('Hi {{{contact.first_name|there}}} {{{contact.last_name}}} <{{{contact.email}}}>', vars(contact()))).toBe('Hi Ada Lovelace <ada@example.com>');
    expect(renderForContact('Hi {{{contact.first_name|there}}}!', vars(contact({ first_name: null })))).toBe('Hi there!');
    expect(renderForContact('Hi {{{ contact.first_name | friend }}}!', vars(contact({ first_name: '' })))).toBe('Hi friend!');
    expect(renderForContact('Hi {{{contact.first_name}}}!', vars(contact({ first_name: null })))).toBe('Hi !');
  });

  it('fills the older upper-case names and the unsubscribe URL', () => {
    expect(renderForContact('{{{FIRST_NAME|there}}} {{{EMAIL}}} {{{RESEND_UNSUBSCRIBE_URL}}} {{{UNSUBSCRIBE_URL}}}', vars(contact()))).toBe('Ada ada@example.com http://emu/_emulator/unsubscribe/tok http://emu/_emulator/unsubscribe/tok');
  });

  it('fills contact properties (fallbacks applied by the caller), numbers included', () => {
    expect(renderForContact('{{{contact.company}}} {{{contact.seats}}} {{{contact.plan|free}}}', vars(contact(), { company: 'Acme', seats: 3, plan: null }))).toBe('Acme 3 free');
  });

  it('leaves unknown placeholders as written and null content null', () => {
    expect(renderForContact('{{{PRODUCT}}} {{{contact.first_name}}}', vars(contact()))).toBe('{{{PRODUCT}}} Ada');
    expect(renderForContact(null, vars(contact()))).toBeNull();
  });

  it('puts the preview text, escaped, at the top of the body', () => {
    expect(withPreviewText('<html><body class="x"><p>Hi</p></body></html>', 'News & <more>')).toMatch(/^<html><body class="x"><div style="display:none[^"]*">News &amp; &lt;more&gt;<\/div><p>Hi<\/p>/);
    expect(withPreviewText('<p>Hi</p>', 'Soon')).toMatch(/^<div [^>]*>Soon<\/div><p>Hi<\/p>$/);
    expect(withPreviewText('<p>Hi</p>', null)).toBe('<p>Hi</p>');
  });

  it('makes an emulator unsubscribe URL per contact and broadcast', () => {
    const a = unsubscribeUrl('http://127.0.0.1:4400', 'b1', 'c1');
    expect(a).toMatch(/^http:\/\/127\.0\.0\.1:4400\/_emulator\/unsubscribe\/[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(unsubscribeUrl('http://127.0.0.1:4400', 'b1', 'c2'));
  });
});

describe('the text part derived once per broadcast (issue 30)', () => {
  const htmls = [
    '<p>Hello {{{FIRST_NAME|there}}}, news from Acme.</p><p><a href="{{{RESEND_UNSUBSCRIBE_URL}}}">Unsubscribe</a></p>',
    '<html><body><h1>Hi {{{FIRST_NAME}}}</h1><p>{{{contact.plan|free}}} plan</p></body></html>',
    '<p>Caf&eacute; for {{{FIRST_NAME}}} &amp; {{{LAST_NAME|friends}}}</p><ul><li>{{{EMAIL}}}</li></ul><a href="mailto:{{{EMAIL}}}">{{{EMAIL}}}</a>',
    '<p>&{{{FIRST_NAME}}};</p>',
    '<!-- {{{FIRST_NAME}}} --><p>x{{{FIRST_NAME}}}y{{{LAST_NAME}}}{{{EMAIL}}}</p><table><tr><th>{{{FIRST_NAME}}}</th></tr></table>',
    '<pre>  {{{FIRST_NAME}}}   </pre><img alt="{{{FIRST_NAME}}}" src="{{{RESEND_UNSUBSCRIBE_URL}}}">',
  ];
  const people = [
    contact(),
    contact({ first_name: null, last_name: '' }),
    contact({ first_name: 'Mary Ann', last_name: "O'Brien" }),
    contact({ first_name: '<b>Bo</b> & co', last_name: '  spaced  out ' }),
    contact({ first_name: 'amp', email: 'x+y@example.com' }),
    contact({ first_name: 'mailto:a@b.c', last_name: '#top' }),
  ];
  it('gives, for every contact, the text html-to-text gives for its rendered html', () => {
    let derived = 0;
    for (const html of htmls) {
      const derive = textDeriver(html);
      for (const c of people) {
        const v = { ...vars(c, { plan: 'pro' }), unsubscribeUrl: `http://127.0.0.1:3000/_emulator/unsubscribe/${unsubscribeUrl('http://x', 'b_1', c.id).slice(-12)}${c.first_name ?? 'x'}` };
        const expected = htmlToText(renderForContact(html, v)!);
        const got = derive?.(v);
        if (got !== undefined) {
          derived++;
          expect(got, `${html} / ${JSON.stringify(c)}`).toBe(expected);
        }
      }
    }
    expect(derived).toBeGreaterThan(5); // the fast path is taken for plain values
  });
  it('declines an html where a placeholder is upper-cased, hidden or part of an entity', () => {
    expect(textDeriver('<h1>Hi {{{FIRST_NAME}}}</h1>')).toBeNull();
    expect(textDeriver('<!-- {{{FIRST_NAME}}} --><p>x</p>')).toBeNull();
    expect(textDeriver('<p>&{{{FIRST_NAME}}};</p>')).toBeNull();
    expect(textDeriver('<p>No placeholders</p>')).toBeNull();
  });
});
