/**
 * The SMTP relay's reply code of a refused send comes from the error's
 * machine-readable reason (`ApiError.reason`, src/http/errors.ts
 * `ERROR_REASONS`; `SMTP_REPLY_CODES` in src/smtp/server.ts), never from its
 * text: rewording a message cannot change a code. The relay end to end
 * (553 and 550 over a real session) is in smtp.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, ERROR_REASONS, type ErrorReason } from '../../src/http/errors.js';
import { emailMessages } from '../../src/resources/emails/messages.js';
import { SMTP_REPLY_CODES, SmtpReply, smtpReplyFor } from '../../src/smtp/server.js';

const reworded = (err: ApiError, text: string): ApiError => new ApiError(err.statusCode, err.name, text, err.headers, err.reason);

describe('SMTP reply codes by reason', () => {
  it('every reason has a code: 553 for the sender, 550 for a recipient or another address', () => {
    expect(Object.keys(SMTP_REPLY_CODES).sort()).toEqual(Object.keys(ERROR_REASONS).sort());
    const senders = (Object.keys(SMTP_REPLY_CODES) as ErrorReason[]).filter((r) => SMTP_REPLY_CODES[r] === 553);
    expect(senders.sort()).toEqual(['sender_domain_not_allowed', 'sender_domain_not_verified', 'sender_invalid', 'sender_missing']);
  });

  it("the emails room's sender refusals carry their reason, and answer 553 with the API's message", () => {
    const made: [ApiError, ErrorReason][] = [
      [emailMessages.missingFrom(), 'sender_missing'],
      [emailMessages.invalidAddress('from'), 'sender_invalid'],
      [emailMessages.domainNotVerified('x.io'), 'sender_domain_not_verified'],
      [emailMessages.keyRestrictedToDomain('example.com'), 'sender_domain_not_allowed'],
    ];
    for (const [err, reason] of made) {
      expect(err.reason).toBe(reason);
      const reply = smtpReplyFor(err);
      expect(reply).toBeInstanceOf(SmtpReply);
      expect([reply.responseCode, reply.message]).toEqual([553, err.message]);
    }
  });

  it('a recipient refusal or an invalid recipient address answers 550', () => {
    expect(smtpReplyFor(emailMessages.testingSenderOnly('owner@example.com')).responseCode).toBe(550);
    expect(smtpReplyFor(emailMessages.invalidAddress('to')).responseCode).toBe(550);
    expect(emailMessages.invalidAddress('reply_to').reason).toBe('address_invalid');
  });

  it('rewording a message keeps its code: the same reason with any text answers the same', () => {
    for (const err of [emailMessages.domainNotVerified('x.io'), emailMessages.missingFrom(), emailMessages.testingSenderOnly('o@example.com')]) {
      const code = smtpReplyFor(err).responseCode;
      for (const text of ['Reworded entirely.', 'Missing `subject` field.', '']) {
        expect(smtpReplyFor(reworded(err, text)).responseCode).toBe(code);
      }
    }
  });

  it("a sender's text without its reason answers 550: the text is never read", () => {
    const textOnly = new ApiError(403, 'validation_error', emailMessages.domainNotVerified('x.io').message);
    expect(textOnly.reason).toBeNull();
    expect(smtpReplyFor(textOnly).responseCode).toBe(550);
  });

  it('withReason keeps status, name, text and headers', () => {
    const err = new ApiError(429, 'daily_quota_exceeded', 'Over.', { 'retry-after': '1' }).withReason('sender_missing');
    expect([err.statusCode, err.name, err.message, err.headers, err.reason]).toEqual([429, 'daily_quota_exceeded', 'Over.', { 'retry-after': '1' }, 'sender_missing']);
    expect(err.toJSON()).toEqual({ statusCode: 429, message: 'Over.', name: 'daily_quota_exceeded' });
  });

  it('over a quota (429) answers 452 whatever the reason; an error of no ApiError answers 451', () => {
    expect(smtpReplyFor(new ApiError(429, 'daily_quota_exceeded', 'Over.')).responseCode).toBe(452);
    expect(smtpReplyFor(new ApiError(429, 'daily_quota_exceeded', 'Over.').withReason('sender_missing')).responseCode).toBe(452);
    expect(smtpReplyFor(new Error('boom'))).toMatchObject({ responseCode: 451, message: 'Local error in processing: boom' });
  });
});
