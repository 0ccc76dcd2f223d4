/**
 * A client's first GET goes out alone over node:http (src/api/one-shot.ts), every other request through undici's
 * pool: the two must give the same answers and the same failures (message, exit code, whether the request may
 * have been sent). Each exchange below is played twice by a scripted server on 127.0.0.1, once to a client whose
 * first GET goes out alone and once to one that sends it through the pool, and the outcomes compared whole.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer as createTlsServer } from 'node:https';
import { createRequire } from 'node:module';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../src/api/http.js';
import type { CliError } from '../src/errors.js';
import { headersOf } from '../src/api/one-shot.js';
import { startMock, type TestMock } from './helpers/mock.js';

/** What a client made of one exchange: the answer, or the failure as the user meets it. */
async function outcome(url: string, oneShot: boolean, timeoutMs = 2000) {
  const client = new HttpClient({ maxRetries: 0, oneShot, timeoutMs });
  try {
    const res = await client.send({ method: 'GET', url, headers: { authorization: 'bearer t0k' } });
    return { status: res.status, headers: res.headers, data: res.data };
  } catch (err) {
    const e = err as CliError & { sent?: boolean; cause?: { code?: unknown } };
    return { failure: e.constructor.name, message: e.message, exit: e.exitCode, sent: e.sent, code: e.cause?.code };
  } finally {
    await client.close();
  }
}

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;
const json = '{"result":[{"id":1}],"total":1}';

/** How the scripted server answers a request, by the path asked. */
const EXCHANGES: Record<string, (s: Socket) => void> = {
  'json with its length': (s) =>
    s.write(head(['HTTP/1.1 200 OK', 'Content-Type: application/json', `Content-Length: ${json.length}`]) + json),
  chunked: (s) =>
    s.write(
      head(['HTTP/1.1 200 OK', 'content-type: application/json', 'transfer-encoding: chunked'])
        + `5\r\n${json.slice(0, 5)}\r\n${(json.length - 5).toString(16)}\r\n${json.slice(5)}\r\n0\r\n\r\n`,
    ),
  'read until the connection ends': (s) => s.end(head(['HTTP/1.1 200 OK', 'content-type: application/json', 'connection: close']) + json),
  'HTTP/1.0 without a length': (s) => s.end(head(['HTTP/1.0 200 OK', 'content-type: application/json']) + json),
  'repeated headers in any case': (s) =>
    s.write(
      head([
        'HTTP/1.1 503 Busy',
        'Set-Cookie: a=1',
        'set-cookie: b=2',
        'X-Twice: 1',
        'x-twice: 2',
        'X-Twice: 3',
        'Retry-After: 3',
        '__proto__: p',
        'content-length: 4',
      ]) + 'busy',
    ),
  'byte-order marks and a bad byte': (s) => {
    const body = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]),
      Buffer.from('{"a":"'),
      Buffer.from([0xff]),
      Buffer.from('"}'),
    ]);
    s.write(head(['HTTP/1.1 200 OK', 'content-type: application/json; charset=utf-8', `content-length: ${body.length}`]));
    s.write(body);
  },
  'no content': (s) => s.write(head(['HTTP/1.1 204 No Content'])),
  'closed before answering': (s) => s.end(),
  'reset before answering': (s) => s.resetAndDestroy(),
  'closed in the body, keeping the connection': (s) => s.end(head(['HTTP/1.1 200 OK', 'content-length: 100']) + '{"a":'),
  'closed in the body of a closing connection': (s) =>
    s.end(head(['HTTP/1.1 200 OK', 'content-length: 100', 'connection: close']) + '{"a":'),
  'closed in a chunk': (s) => s.end(head(['HTTP/1.1 200 OK', 'transfer-encoding: chunked']) + '20\r\n{"a":'),
  'closed in a chunk of a closing connection': (s) =>
    s.end(head(['HTTP/1.1 200 OK', 'transfer-encoding: chunked', 'connection: close']) + '20\r\n{"a":'),
  'reset in the body': (s) => {
    s.write(head(['HTTP/1.1 200 OK', 'content-length: 100']) + '{"a":');
    setTimeout(() => s.resetAndDestroy(), 100);
  },
  'reset in the body of a closing connection': (s) => {
    s.write(head(['HTTP/1.1 200 OK', 'content-length: 100', 'connection: close']) + '{"a":');
    setTimeout(() => s.resetAndDestroy(), 100);
  },
  'reset in a body read to the end': (s) => {
    s.write(head(['HTTP/1.1 200 OK', 'connection: close']) + '{"a":');
    setTimeout(() => s.resetAndDestroy(), 100);
  },
  'not HTTP': (s) => s.end('hello there\r\n\r\n'),
  'a bad header line': (s) => s.end(head(['HTTP/1.1 200 OK', 'no colon here', 'content-length: 2']) + '{}'),
  'a bad chunk size': (s) => s.end(head(['HTTP/1.1 200 OK', 'transfer-encoding: chunked']) + 'zz\r\nab\r\n0\r\n\r\n'),
  'more body than its length': (s) => s.write(head(['HTTP/1.1 200 OK', 'content-length: 2']) + '{}{}'),
  'a bad header line after the length': (s) => s.end(head(['HTTP/1.1 200 OK', 'content-length: 2', 'no colon here']) + '{}'),
  'a length that is not a number': (s) => s.end(head(['HTTP/1.1 200 OK', 'content-length: two']) + '{}'),
  'two lengths that differ': (s) => s.end(head(['HTTP/1.1 200 OK', 'content-length: 2', 'content-length: 3']) + '{}x'),
  'chunked and a length': (s) =>
    s.end(head(['HTTP/1.1 200 OK', 'content-length: 50', 'transfer-encoding: chunked']) + '2\r\n{}\r\n0\r\n\r\n'),
  'a header past 16 KiB': (s) => s.end(head(['HTTP/1.1 200 OK', `x-big: ${'b'.repeat(17_000)}`, 'content-length: 2']) + '{}'),
  // undici refuses headers whose names and values come to http.maxHeaderSize (16 KiB): 15 + 5 + 16,364 bytes.
  'headers just at the bound': (s) => s.end(head(['HTTP/1.1 200 OK', `x-big: ${'b'.repeat(16_364)}`, 'content-length: 2']) + '{}'),
  'headers just under the bound': (s) => s.end(head(['HTTP/1.1 200 OK', `x-big: ${'b'.repeat(16_363)}`, 'content-length: 2']) + '{}'),
  'a head in two pieces, a bad line after the length': (s) => {
    s.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n');
    setTimeout(() => s.end('no colon here\r\n\r\n{}'), 20);
  },
  'at the bound with the blanks that end a value': (s) =>
    s.end(head(['HTTP/1.1 200 OK', `x-big: ${'b'.repeat(16_362)}  `, 'content-length: 2']) + '{}'),
  'values with spaces around them': (s) =>
    s.write(head(['HTTP/1.1 200 OK', 'x-spaced:   a b  ', 'x-tab:\tc\t', 'content-length: 2']) + '{}'),
  'Latin-1 and folded header values': (s) => {
    s.write(Buffer.from(head(['HTTP/1.1 200 OK', 'x-name: caf\xe9', 'x-fold: a', ' b', 'content-length: 2']) + '{}', 'latin1'));
  },
  'a status line without a reason': (s) => s.write(head(['HTTP/1.1 200', 'content-length: 2']) + '{}'),
  'an unknown status': (s) => s.write(head(['HTTP/1.1 299 Odd', 'content-length: 2']) + '{}'),
  'a head and no body, the connection closed': (s) => s.end(head(['HTTP/1.1 200 OK', 'content-type: application/json'])),
  'silent (headers timeout)': () => undefined,
  'stalls in the body (body timeout)': (s) => s.write(head(['HTTP/1.1 200 OK', 'content-length: 100']) + '{"a":'),
  // Two faults at once: a body that stalls (the 300 ms body timeout runs) and a reset, the one or the other first.
  // undici's timers tick every 499 ms: a 300 ms timeout fires 0.5 to 1 s after it is armed, never before.
  'a stalled body reset after its timeout fired': (s) => {
    s.write(head(['HTTP/1.1 200 OK', 'content-length: 100']) + '{"a":');
    setTimeout(() => s.resetAndDestroy(), 1500);
  },
  'a stalled body reset once its timeout is due, before it fires': (s) => {
    s.write(head(['HTTP/1.1 200 OK', 'content-length: 100']) + '{"a":');
    setTimeout(() => s.resetAndDestroy(), 400);
  },
  'a stalled body reset before its timeout': (s) => {
    s.write(head(['HTTP/1.1 200 OK', 'content-length: 100']) + '{"a":');
    setTimeout(() => s.resetAndDestroy(), 100);
  },
  'no head, then closed before the timeout': (s) => void setTimeout(() => s.end(), 50),
  '100 Continue, then closed': (s) => s.end(head(['HTTP/1.1 100 Continue'])),
  '100 Continue first': (s) => s.write(head(['HTTP/1.1 100 Continue']) + head(['HTTP/1.1 200 OK', 'content-length: 2']) + '{}'),
  '103 Early Hints first': (s) =>
    s.write(head(['HTTP/1.1 103 Early Hints', 'link: </a>']) + head(['HTTP/1.1 200 OK', 'content-length: 2']) + '{}'),
  '101 Switching Protocols': (s) => s.write(head(['HTTP/1.1 101 Switching Protocols', 'upgrade: x', 'connection: upgrade'])),
};

let server: Server;
let origin: string;
const sockets = new Set<Socket>();
/** The request heads the server read, in order. */
const heads: string[] = [];

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let seen = '';
    socket.on('data', (d) => {
      if (seen.includes('\r\n\r\n')) return;
      seen += d.toString('latin1');
      if (!seen.includes('\r\n\r\n')) return;
      heads.push(seen);
      const path = decodeURIComponent(/^GET (\S+)/.exec(seen)![1]!.slice(1));
      EXCHANGES[path]!(socket);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((done) => server.close(done));
});

describe('a first GET sent alone answers and fails as undici does', () => {
  it.each(Object.keys(EXCHANGES))('%s', async (name) => {
    const url = `${origin}/${encodeURIComponent(name)}`;
    const timeout = name.includes('timeout') ? 300 : 2000;
    const alone = await outcome(url, true, timeout);
    const pooled = await outcome(url, false, timeout);
    expect(alone).toEqual(pooled);
  });

  it('a refused connection: the same failure, and known not to have been sent', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(closed.address() as { port: number }).port}/x`;
    await new Promise((done) => closed.close(done));
    const alone = await outcome(url, true);
    expect(alone).toMatchObject({ failure: 'ConnectionError', exit: 5, sent: false, code: 'ECONNREFUSED' });
    expect(alone).toEqual(await outcome(url, false));
  });
});

describe('which requests go out alone', () => {
  it("a client's first GET goes out alone (node:http), the next through the pool (undici)", async () => {
    const client = new HttpClient({ maxRetries: 0 });
    const pool = () => (client as unknown as { pool?: unknown }).pool;
    heads.length = 0;
    const url = `${origin}/${encodeURIComponent('json with its length')}`;
    const headers = { authorization: 'bearer t0k', 'x-Mixed-Case': 'v' };
    const first = await client.send({ method: 'GET', url, headers });
    expect(pool()).toBeUndefined();
    const second = await client.send({ method: 'GET', url, headers });
    expect(pool()).toBeDefined();
    await client.close();
    expect(second).toEqual(first);
    // The same request head, byte for byte, either way.
    expect(heads).toHaveLength(2);
    expect(heads[0]).toBe(heads[1]);
  });
});

describe('against the mock over HTTP', () => {
  let mock: TestMock;
  beforeAll(async () => {
    mock = await startMock({ listings: 50 });
  });
  afterAll(async () => {
    await mock.close();
  });

  it.each([
    ['a search', '/listingsvc/v2/listings/?limit=5&fico_score=760-779', true],
    ['a listing that is not there', '/listingsvc/v2/listings/?listing_number=1', true],
    ['a path the service does not have', '/v1/nothing-here', true],
    ['a search without a token', '/listingsvc/v2/listings/?limit=2', false],
  ])('%s: the same answer both ways', async (_name, path, withToken) => {
    const get = async (oneShot: boolean) => {
      const client = new HttpClient({ maxRetries: 0, oneShot });
      const headers: Record<string, string> = withToken ? { authorization: `bearer ${mock.env.MKT_ACCESS_TOKEN}` } : {};
      const res = await client.send({ method: 'GET', url: `${mock.origin}${path}`, headers });
      await client.close();
      // The date moves between the two requests; the rest of the answer may not.
      const { date: _date, ...rest } = res.headers;
      return { ...res, headers: rest };
    };
    expect(await get(true)).toEqual(await get(false));
  });
});

describe("the answer's headers", () => {
  const undiciParse = (createRequire(import.meta.url)('undici/lib/core/util.js') as { parseHeaders(raw: Buffer[]): unknown }).parseHeaders;
  const name = fc.constantFrom(
    'Set-Cookie',
    'set-cookie',
    'X-A',
    'x-a',
    'Content-Type',
    '__proto__',
    'constructor',
    'toString',
    'Retry-After',
  );
  const value = fc.string({ maxLength: 8 }).map((s) => s.replace(/[^\x20-\x7e]/g, 'x'));

  it('are read as undici reads them: lower-case names, repeated ones as arrays', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 12 }), (pairs) => {
        const raw = pairs.flat();
        expect(headersOf(raw)).toEqual(undiciParse(raw.map((s) => Buffer.from(s, 'latin1'))));
      }),
    );
  });
});

/** A self-signed certificate for 127.0.0.1 and localhost (test only; valid until 2126), and its key. */
const CERT = `-----BEGIN CERTIFICATE-----
MIIBmjCCAUGgAwIBAgIUZokC776YzWT08qXDQcYWiGPp/uQwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyOTE5MzA0NFoYDzIxMjYxMTA1
MTkzMDQ0WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAASKSdCVHJPHIaqC0iif3MZhyBKps1WL8v7Fj5TyEkF5Tc4QR8QZftRT
Xv+XWLbzbPDQ/I5yoCf5k6hRCTk8+QmVo28wbTAdBgNVHQ4EFgQUSE5CeOY6jZt5
l47Sm+0aydFuydIwHwYDVR0jBBgwFoAUSE5CeOY6jZt5l47Sm+0aydFuydIwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARhwR/AAABgglsb2NhbGhvc3QwCgYIKoZI
zj0EAwIDRwAwRAIgdoUZ0601cZBhQwFu352/Io8xIwPT0yRvVceca7GNAj0CIDtS
G6Z3rHzkFk04EuRDW8riJIKMYa2FA1l2AOm6X3D3
-----END CERTIFICATE-----`;
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgBXOiazSDhbIH+lkh
0D9SLliSo3RIv5MTd5oNG6u2+0+hRANCAASKSdCVHJPHIaqC0iif3MZhyBKps1WL
8v7Fj5TyEkF5Tc4QR8QZftRTXv+XWLbzbPDQ/I5yoCf5k6hRCTk8+QmV
-----END PRIVATE KEY-----`;

describe('over TLS', () => {
  let tls: ReturnType<typeof createTlsServer>;
  let port: number;
  beforeAll(async () => {
    tls = createTlsServer({ cert: CERT, key: KEY }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ path: req.url, sni: (req.socket as { servername?: string | false }).servername || null }));
    });
    await new Promise<void>((done) => tls.listen(0, '127.0.0.1', done));
    port = (tls.address() as { port: number }).port;
  });
  afterAll(async () => {
    tls.closeAllConnections();
    await new Promise((done) => tls.close(done));
  });

  it('a certificate this machine does not trust: the same failure both ways', async () => {
    const alone = await outcome(`https://127.0.0.1:${port}/x`, true);
    expect(alone).toMatchObject({ failure: 'ConnectionError', code: 'DEPTH_ZERO_SELF_SIGNED_CERT', sent: true });
    expect(alone).toEqual(await outcome(`https://127.0.0.1:${port}/x`, false));
  });

  // Trust is read at start (NODE_EXTRA_CA_CERTS): a process of its own, on the built client (npm run build).
  it('a trusted certificate: the same answer both ways, by address and by name (SNI)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mkt-one-shot-'));
    writeFileSync(join(dir, 'ca.pem'), CERT);
    const bundle = resolve(import.meta.dirname, '../dist/bundle/client.cjs');
    const script = `
      const { HttpClient } = require(${JSON.stringify(bundle)}).http_exports;
      (async () => {
        const out = [];
        for (const host of ['127.0.0.1', 'localhost'])
          for (const oneShot of [true, false]) {
            const client = new HttpClient({ maxRetries: 0, oneShot });
            const res = await client.send({ method: 'GET', url: 'https://' + host + ':${port}/tls?x=1' });
            await client.close();
            delete res.headers.date;
            out.push({ host, oneShot, res });
          }
        console.log(JSON.stringify(out));
      })();`;
    const child = spawn(process.execPath, ['-e', script], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    expect(await new Promise((done) => child.on('close', done))).toBe(0);
    const [ipAlone, ipPooled, nameAlone, namePooled] = JSON.parse(stdout) as { res: { status: number; data: unknown } }[];
    expect(ipAlone!.res).toEqual(ipPooled!.res);
    expect(nameAlone!.res).toEqual(namePooled!.res);
    expect(ipAlone!.res).toMatchObject({ status: 200, data: { path: '/tls?x=1', sni: null } });
    expect(nameAlone!.res).toMatchObject({ status: 200, data: { path: '/tls?x=1', sni: 'localhost' } });
  });
});
