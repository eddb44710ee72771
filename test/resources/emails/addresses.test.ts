import { describe, expect, it } from 'vitest';
import { bareAddress, parseAddress, testOutcome } from '../../../src/resources/emails/addresses.js';

describe('bareAddress', () => {
  it('gives the parsed address lower-cased, or the trimmed input lower-cased when it does not parse, with or without a display name', () => {
    const cases: [string, string][] = [
      ['Ada@Example.ORG', 'ada@example.org'],
      ['  Ada@Example.ORG  ', 'ada@example.org'],
      ['Ada Lovelace <Ada@Example.org>', 'ada@example.org'],
      ['"Lovelace, Ada" <ada@example.org> ', 'ada@example.org'],
      ['not an address', 'not an address'],
      [' Broken <x> ', 'broken <x>'],
      ['<Bounced+1@Resend.dev>', 'bounced+1@resend.dev'],
    ];
    for (const [input, bare] of cases) {
      expect(bareAddress(input), input).toBe(bare);
      expect(bareAddress(input), input).toBe((parseAddress(input)?.address ?? input.trim()).toLowerCase());
    }
    expect(testOutcome(' Bounced+x@RESEND.dev ')).toBe('bounced');
    expect(testOutcome('Someone <complained@resend.dev>')).toBe('complained');
  });
});
