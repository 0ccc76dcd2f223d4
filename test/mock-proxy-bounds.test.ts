/**
 * The proxy's answers within bounds (issue 37): an answer is passed on as it comes and only its first
 * MAX_CHECKED_BODY bytes are kept for the check, decoded with a bound, so a gzip or brotli bomb costs
 * the proxy no more than the bound; and an answer it cannot read (decoded past the bound, larger than
 * it, a coding that does not decode or that it does not know, a client gone before the end) is
 * reported as a violation saying why, never passed as conforming. The client still gets every byte
 * the upstream sent. Real HTTP on 127.0.0.1. (The decoding itself, over any codings and sizes around
 * the bound: proxy-answer-body.test.ts.)
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type RunningProxy } from '../mock-server/proxy/proxy-server.js';
import type { RequestLogEntry } from '../src/contract/mock-inspect.js';
import { startMock } from './helpers/mock.js';

const PATH = '/v1/accounts/platform';
/** The proxy's stated bound (MAX_CHECKED_BODY of proxy/answer-body.ts, as docs/mock.md states it). */
const MAX_CHECKED_BODY = 8 * 1024 * 1024;

/** What the upstream answers next: a body with its headers, or a first chunk and then nothing (`hang`). */
interface Planned {
  headers: Record<string, string>;
  body: Buffer;
  hang?: boolean;
}

/** An upstream that answers each request with the planned answer, and notes when an answer's connection closed. */
async function startUpstream(): Promise<{ origin: string; plan: (p: Planned) => void; closed: () => number; server: Server }> {
  let planned: Planned = { headers: {}, body: Buffer.alloc(0) };
  let closedCount = 0;
  const server = createServer((req, res: ServerResponse) => {
    req.resume().on('end', () => {
      res.once('close', () => closedCount++);
      res.writeHead(200, { 'content-type': 'application/json', ...planned.headers });
      if (planned.hang) res.write(planned.body);
      else res.end(planned.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    plan: (p) => (planned = p),
    closed: () => closedCount,
    server,
  };
}

/** A GET through the proxy with node's own client: the status, headers and the raw bytes (never decoded). */
function get(
  origin: string,
  opts: { leaveAfterFirstChunk?: boolean } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port, path: PATH, headers: { authorization: 'Bearer bounds-token', 'accept-encoding': 'gzip, br' }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          if (opts.leaveAfterFirstChunk) {
            req.destroy();
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) });
          }
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', (err) => (opts.leaveAfterFirstChunk ? undefined : reject(err)));
    req.end();
  });
}

async function journalTotal(proxy: RunningProxy): Promise<number> {
  return ((await (await fetch(`${proxy.origin}/__mock/requests?limit=1`)).json()) as { total_count: number }).total_count;
}

/** One GET through `via`, and its journal entry once the proxy has recorded it. */
async function exchange(via: RunningProxy, opts: { leaveAfterFirstChunk?: boolean } = {}) {
  const before = await journalTotal(via);
  const res = await get(via.origin, opts);
  for (let i = 0; i < 300; i++) {
    if ((await journalTotal(via)) > before) {
      const page = (await (await fetch(`${via.origin}/__mock/requests?limit=1`)).json()) as { result: RequestLogEntry[] };
      return { res, entry: page.result[0]! };
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the exchange was never journaled');
}

const problems = (e: RequestLogEntry) => (e.violations ?? []).map((v) => `${v.direction} ${v.field}: ${v.problem}`);

describe('the proxy in front of answers it cannot read whole', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let proxy: RunningProxy;
  let small: RunningProxy;
  /** A conforming answer to GET /v1/accounts/platform, as the mock gives it. */
  let account: string;

  beforeAll(async () => {
    const mock = await startMock({ listings: 5 });
    try {
      account = await (await fetch(`${mock.origin}${PATH}`, { headers: { authorization: `Bearer ${mock.env.MKT_ACCESS_TOKEN}` } })).text();
    } finally {
      await mock.close();
    }
    upstream = await startUpstream();
    proxy = await startProxy({ upstream: upstream.origin });
    small = await startProxy({ upstream: upstream.origin, maxCheckedBody: 64 * 1024 });
  });
  afterAll(async () => {
    await Promise.all([proxy?.close(), small?.close()]);
    await new Promise((resolve) => upstream?.server.close(resolve));
  });

  /** The account answer padded with `n` bytes of JSON whitespace: still the same valid, conforming JSON. */
  const padded = (n: number) => Buffer.from(account + ' '.repeat(n));

  it('a conforming gzip answer within the bound is checked and conforms; the client gets the gzip bytes as sent', async () => {
    const gz = gzipSync(padded(1000));
    upstream.plan({ headers: { 'content-encoding': 'gzip' }, body: gz });
    const { res, entry } = await exchange(proxy);
    expect(res.body.equals(gz)).toBe(true);
    expect(entry.violations).toEqual([]);
  });

  it('a gzip bomb (64 MiB of valid JSON in ~64 KB) is reported as decoded past the bound (8 MiB), not passed as conforming', async () => {
    const bomb = gzipSync(padded(64 * 1024 * 1024), { level: 9 });
    expect(bomb.length).toBeLessThan(100_000);
    upstream.plan({ headers: { 'content-encoding': 'gzip' }, body: bomb });
    const { res, entry } = await exchange(proxy);
    expect(res.body.equals(bomb)).toBe(true);
    expect(problems(entry)).toEqual([
      `answer /body: decoded of gzip past ${MAX_CHECKED_BODY} bytes, more than the proxy checks; the body was not checked`,
    ]);
  });

  it('a brotli bomb (64 MiB in ~100 bytes) is stopped at the bound, the default or one given (64 KiB), and reported', async () => {
    const bomb = brotliCompressSync(padded(64 * 1024 * 1024), { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
    expect(bomb.length).toBeLessThan(1000);
    upstream.plan({ headers: { 'content-encoding': 'br' }, body: bomb });
    for (const via of [proxy, small]) {
      const { res, entry } = await exchange(via);
      expect(res.body.equals(bomb)).toBe(true);
      const limit = via === small ? 64 * 1024 : MAX_CHECKED_BODY;
      expect(problems(entry)).toEqual([
        `answer /body: decoded of br past ${limit} bytes, more than the proxy checks; the body was not checked`,
      ]);
    }
  });

  it('an answer that says gzip and is plain JSON is reported as not decoding, and passed on as it came', async () => {
    const plain = Buffer.from(account);
    upstream.plan({ headers: { 'content-encoding': 'gzip' }, body: plain });
    const { res, entry } = await exchange(proxy);
    expect(res.body.equals(plain)).toBe(true);
    expect(problems(entry)).toEqual([
      expect.stringMatching(
        /^answer \/body: content-encoding gzip, but the body does not decode as gzip \(.+\); the body was not checked$/,
      ),
    ]);
  });

  it('an answer larger than the bound is passed on whole and reported as not checked; a coding the proxy does not know too', async () => {
    const big = padded(1024 * 1024);
    upstream.plan({ headers: {}, body: big });
    const { res, entry } = await exchange(small);
    expect(res.body.equals(big)).toBe(true);
    expect(problems(entry)).toEqual([`answer /body: ${big.length} bytes, more than the proxy checks (65536); the body was not checked`]);
    upstream.plan({ headers: { 'content-encoding': 'zstd' }, body: Buffer.from(account) });
    expect(problems((await exchange(proxy)).entry)).toEqual([
      'answer /body: content-encoding zstd is not one the proxy decodes (gzip, deflate, br); the body was not checked',
    ]);
  });

  it('a client gone before the end of the answer: the upstream is let go, and the exchange says it was not checked', async () => {
    const before = upstream.closed();
    upstream.plan({ headers: {}, body: Buffer.from('{"partial":'), hang: true });
    const { entry } = await exchange(proxy, { leaveAfterFirstChunk: true });
    expect(problems(entry)).toEqual(['answer /body: the client closed the connection before the answer ended; the answer was not checked']);
    for (let i = 0; i < 200 && upstream.closed() === before; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(upstream.closed()).toBe(before + 1);
  });
});
