/**
 * Helpers of the receiving tests: messages to feed `POST /_emulator/inbound`.
 */
import type { TestEmulator } from '../../helpers.js';

/** A small PDF-like payload (bytes that are not valid UTF-8, to catch re-encoding). */
export const PDF_BYTES = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34, 0x0a, 0xff, 0xfe, 0x00, 0x80, 0x81, 0x0a]);

/** A raw multipart message with a text part, an html part and a PDF attachment (CRLF line ends). */
export function rawMessage(opts: { from?: string; to?: string; cc?: string; subject?: string; messageId?: string } = {}): string {
  const b = 'b-outer';
  const a = 'b-alt';
  return [
    `From: ${opts.from ?? 'Ada Lovelace <ada@sender.test>'}`,
    `To: ${opts.to ?? 'support@example.com'}`,
    ...(opts.cc ? [`Cc: ${opts.cc}`] : []),
    `Subject: ${opts.subject ?? 'Invoice attached'}`,
    `Message-ID: ${opts.messageId ?? '<raw-1@sender.test>'}`,
    'Date: Sun, 22 Nov 2026 10:00:00 +0000',
    'X-Custom-Header: hello',
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${b}"`,
    '',
    `--${b}`,
    `Content-Type: multipart/alternative; boundary="${a}"`,
    '',
    `--${a}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Please find the invoice attached.',
    `--${a}`,
    'Content-Type: text/html; charset=utf-8',
    '',
    '<p>Please find the <b>invoice</b> attached.</p>',
    `--${a}--`,
    `--${b}`,
    'Content-Type: application/pdf; name="invoice.pdf"',
    'Content-Disposition: attachment; filename="invoice.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    PDF_BYTES.toString('base64'),
    `--${b}--`,
    '',
  ].join('\r\n');
}

/** Posts a raw message to the admin API. */
export function postRaw(t: Pick<TestEmulator, 'anon'>, raw: string, contentType = 'message/rfc822', query = '') {
  return t.anon.post(`/_emulator/inbound${query}`).set('Content-Type', contentType).send(raw);
}

/** Posts JSON fields to the admin API. */
export function postJson(t: Pick<TestEmulator, 'anon'>, body: Record<string, unknown>) {
  return t.anon.post('/_emulator/inbound').send(body);
}
