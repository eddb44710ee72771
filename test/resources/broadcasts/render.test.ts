import { describe, expect, it } from 'vitest';
import { renderForContact, unsubscribeUrl, withPreviewText } from '../../../src/resources/broadcasts/render.js';
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
