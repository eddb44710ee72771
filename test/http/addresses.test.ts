/**
 * The one definition of an email address (src/http/addresses.ts): three
 * rules, each stricter than the one before, and no other file of src/
 * writing an address pattern of its own.
 */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, repoFiles } from '../architecture/repo-files.js';
import { isContactEmail, isMailboxAddress, isSendingAddress, MAX_CONTACT_EMAIL_LENGTH } from '../../src/http/addresses.js';

/** Addresses and near-misses, each with what the three rules answer: [mailbox, sending, contact]. */
const CASES: [string, boolean, boolean, boolean][] = [
  ['ada@example.com', true, true, true],
  ['ada+tag@mail.example.co.uk', true, true, true],
  ['root@localhost', true, false, false],
  ['a@b.c', true, true, true],
  ['a@b.c.', true, true, false],
  ['a(b)@example.com', true, true, false],
  ['a:b@example.com', true, true, false],
  ['a@.com', true, false, false],
  ['a@b.', true, false, false],
  ['', false, false, false],
  ['ada', false, false, false],
  ['@example.com', false, false, false],
  ['ada@', false, false, false],
  ['a@b@example.com', false, false, false],
  ['ada lovelace@example.com', false, false, false],
  ['Ada <ada@example.com>', false, false, false],
  ['"ada"@example.com', false, false, false],
  ['a,b@example.com', false, false, false],
  ['a;b@example.com', false, false, false],
  [' ada@example.com', false, false, false],
];

describe('email addresses (src/http/addresses.ts)', () => {
  it.each(CASES)('%s: mailbox %s, sending %s, contact %s', (address, mailbox, sending, contact) => {
    expect([isMailboxAddress(address), isSendingAddress(address), isContactEmail(address)]).toEqual([mailbox, sending, contact]);
  });

  it('a contact email is at most 320 characters; sending and mailbox rules set no length', () => {
    const long = `${'a'.repeat(64)}@${'b'.repeat(MAX_CONTACT_EMAIL_LENGTH - 65 - 4)}.com`;
    expect(long).toHaveLength(MAX_CONTACT_EMAIL_LENGTH);
    expect(isContactEmail(long)).toBe(true);
    const longer = `a${long}`;
    expect([isMailboxAddress(longer), isSendingAddress(longer), isContactEmail(longer)]).toEqual([true, true, false]);
  });

  it('each rule accepts only what the looser one before it accepts (contact ⊂ sending ⊂ mailbox)', () => {
    const samples = [...CASES.map((c) => c[0]), 'x@y.z', 'x.y@z', 'x@y..z', 'x@-.-', 'ü@exämple.de', 'a/b@c.d', 'a\\b@c.d', `${'a'.repeat(400)}@b.c`];
    const broken = samples.filter((a) => (isContactEmail(a) && !isSendingAddress(a)) || (isSendingAddress(a) && !isMailboxAddress(a)));
    expect(broken).toEqual([]);
  });

  it('no other file of src/ writes an address pattern of its own', () => {
    const own = repoFiles(['src'], (name) => name.endsWith('.ts'))
      .filter((file) => file !== 'src/http/addresses.ts')
      .filter((file) => /\[\^\\s@/.test(fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')));
    expect(own).toEqual([]);
  });
});
