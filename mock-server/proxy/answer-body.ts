/**
 * The upstream's answer body as the proxy checks it, read within a bound: the bytes are kept as they
 * pass on to the client (never held back from it) up to `limit`, then decoded of each content coding
 * with zlib's maxOutputLength at the same bound, so a 1 MB gzip answer or an 841-byte brotli bomb
 * costs at most `limit` bytes, not gigabytes. What cannot be read (more than the bound before or
 * after decoding, a coding the proxy does not know, bytes that do not decode as their coding says) is
 * said in words: the check reports it instead of passing an answer it never saw.
 */
import { brotliDecompressSync, gunzipSync, inflateSync, type ZlibOptions } from 'node:zlib';

/** The most of an answer body the proxy checks, raw and decoded: 8 MiB (the API's largest page is far below). */
export const MAX_CHECKED_BODY = 8 * 1024 * 1024;
/** More content codings than this on one answer are not undone (each would be one more bounded pass). */
const MAX_CODINGS = 4;

/** The content codings the proxy undoes, by name (RFC 9110 §8.4.1; x-gzip is gzip). */
const DECODERS: Readonly<Record<string, (raw: Buffer, options: ZlibOptions) => Buffer>> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: (raw, options) => brotliDecompressSync(raw, options),
};

/** The body as text, or why it was not read (then nothing of it was checked). */
export type ReadBody = { text: string } | { unread: string };

/** `raw` decoded of `contentEncoding` (codings in the order applied; the last is undone first), within `limit` bytes at each step. */
export function decodeBody(raw: Buffer, contentEncoding: string | null, limit = MAX_CHECKED_BODY): ReadBody {
  if (raw.length > limit) return { unread: `${raw.length} bytes, more than the proxy checks (${limit}); the body was not checked` };
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  // An empty body has nothing to undo (a HEAD-like or 204 answer that still names its coding).
  if (raw.length === 0 || codings.length === 0) return { text: raw.toString('utf8') };
  if (codings.length > MAX_CODINGS)
    return {
      unread: `content-encoding names ${codings.length} codings, more than the proxy undoes (${MAX_CODINGS}); the body was not checked`,
    };
  let body = raw;
  for (const coding of codings.reverse()) {
    const decode = DECODERS[coding];
    if (!decode)
      return {
        unread: `content-encoding ${coding.slice(0, 40)} is not one the proxy decodes (gzip, deflate, br); the body was not checked`,
      };
    try {
      body = decode(body, { maxOutputLength: limit });
    } catch (err) {
      if ((err as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') {
        return { unread: `decoded of ${coding} past ${limit} bytes, more than the proxy checks; the body was not checked` };
      }
      return {
        unread: `content-encoding ${coding}, but the body does not decode as ${coding} (${(err as Error).message}); the body was not checked`,
      };
    }
  }
  return { text: body.toString('utf8') };
}

/** The chunks of one answer as they pass, kept while they fit in `limit` (past it only their count goes on). */
export class AnswerBody {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit = MAX_CHECKED_BODY) {}

  /** One chunk passed on to the client. */
  add(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size <= this.limit) this.chunks.push(chunk);
    // Past the bound nothing of it will be checked: what was kept is let go at once.
    else this.chunks = [];
  }

  /** The whole body read (once it has ended), decoded of `contentEncoding`. */
  read(contentEncoding: string | null): ReadBody {
    if (this.size > this.limit)
      return { unread: `${this.size} bytes, more than the proxy checks (${this.limit}); the body was not checked` };
    return decodeBody(Buffer.concat(this.chunks, this.size), contentEncoding, this.limit);
  }
}
