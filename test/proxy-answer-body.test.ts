/**
 * The proxy's reading of an answer body (mock-server/proxy/answer-body.ts), over any stack of content
 * codings and sizes around the bound, and over arbitrary bytes that claim a coding: the text while it
 * fits, the bound in words past it, a clear reason for bytes that do not decode, and never a throw.
 */
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerBody, decodeBody } from '../mock-server/proxy/answer-body.js';

describe('an answer body decoded within a bound', () => {
  const LIMIT = 4096;
  const ENCODE: Record<string, (b: Buffer) => Buffer> = {
    gzip: gzipSync,
    deflate: deflateSync,
    br: brotliCompressSync,
    identity: (b) => b,
  };

  it('gives the text of any stack of codings while it fits, and says the bound (never the text) past it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: LIMIT - 3, max: LIMIT + 3 }),
        fc.array(fc.constantFrom('gzip', 'deflate', 'br', 'identity'), { minLength: 1, maxLength: 3 }),
        fc.constantFrom(' ', 'x', 'é'),
        (size, codings, fill) => {
          const plain = Buffer.alloc(size, fill);
          let body: Buffer = plain;
          for (const c of codings) body = ENCODE[c]!(body);
          const read = decodeBody(body, codings.join(', '), LIMIT);
          const layers = codings.filter((c) => c !== 'identity');
          if (body.length > LIMIT)
            expect(read).toEqual({ unread: `${body.length} bytes, more than the proxy checks (${LIMIT}); the body was not checked` });
          else if (size <= LIMIT || layers.length === 0) expect(read).toEqual({ text: plain.toString('utf8') });
          else expect('unread' in read && read.unread).toMatch(new RegExp(`^decoded of (gzip|deflate|br) past ${LIMIT} bytes`));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps what passes while it fits, and lets it go past the bound (the read then says the size)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2000 }), { maxLength: 8 }), (sizes) => {
        const kept = new AnswerBody(LIMIT);
        const all = Buffer.concat(sizes.map((n, i) => Buffer.alloc(n, 97 + (i % 26))));
        let at = 0;
        for (const n of sizes) kept.add(all.subarray(at, (at += n)));
        const read = kept.read(null);
        if (all.length <= LIMIT) expect(read).toEqual({ text: all.toString('utf8') });
        else expect(read).toEqual({ unread: `${all.length} bytes, more than the proxy checks (${LIMIT}); the body was not checked` });
      }),
      { numRuns: 200 },
    );
  });

  it('reports bytes that do not decode as their coding says, whatever they are, and never throws', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        fc.constantFrom('gzip', 'x-gzip', 'deflate', 'br', 'gzip, br'),
        (bytes, coding) => {
          const read = decodeBody(Buffer.from(bytes), coding, LIMIT);
          if ('unread' in read)
            expect(read.unread).toMatch(
              /^(content-encoding (gzip|x-gzip|deflate|br), but the body does not decode as \2 \(.*\)|decoded of \w+ past 4096 bytes, more than the proxy checks); the body was not checked$/,
            );
          else expect(typeof read.text).toBe('string');
        },
      ),
      { numRuns: 300 },
    );
  });
});
