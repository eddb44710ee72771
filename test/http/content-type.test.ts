import { describe, expect, it } from 'vitest';
import { contentTypeOf } from '../../src/http/format.js';
import { buildMime, givenParts, parseMessage } from '../../src/resources/receiving/mime.js';

/** One content-type table for attachments sent and received (issue 9 item 8): mime-db through mime-types. */
describe('contentTypeOf', () => {
  it('gives every type either old table gave (sending: mp3, mp4; receiving: eml), by extension, any case', () => {
    const expected: Record<string, string> = {
      'a.pdf': 'application/pdf', 'a.PNG': 'image/png', 'a.jpg': 'image/jpeg', 'a.jpeg': 'image/jpeg', 'a.gif': 'image/gif', 'a.webp': 'image/webp',
      'a.svg': 'image/svg+xml', 'a.txt': 'text/plain', 'a.csv': 'text/csv', 'a.html': 'text/html', 'a.htm': 'text/html', 'a.json': 'application/json',
      'a.xml': 'application/xml', 'a.zip': 'application/zip', 'a.ics': 'text/calendar', 'a.doc': 'application/msword',
      'a.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'a.xls': 'application/vnd.ms-excel',
      'a.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'a.mp3': 'audio/mpeg', 'a.mp4': 'video/mp4', 'a.eml': 'message/rfc822',
    };
    for (const [name, type] of Object.entries(expected)) expect(contentTypeOf(name), name).toBe(type);
  });

  it('knows types beyond the old tables, and falls back to application/octet-stream', () => {
    expect(contentTypeOf('archive.tar.gz')).toBe('application/gzip');
    expect(contentTypeOf('notes.md')).toBe('text/markdown');
    for (const name of ['data.unknownext', 'README', 'pdf', '.env', '', null, undefined]) expect(contentTypeOf(name), String(name)).toBe('application/octet-stream');
  });

  it('an inbound attachment without content_type gets the same type as a sent one', async () => {
    const input = { from: 'a@example.org', to: ['b@example.com'], subject: 's', text: 't', attachments: [{ filename: 'song.mp3', content: Buffer.from('x').toString('base64') }] };
    const parsed = await parseMessage((await buildMime(input, 0)).raw);
    expect(parsed.attachments.map((a) => a.contentType)).toEqual(['audio/mpeg']);
    expect(givenParts(input).attachments.map((a) => a.contentType)).toEqual(['audio/mpeg']);
  });
});
