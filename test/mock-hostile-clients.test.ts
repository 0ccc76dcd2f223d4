/**
 * The mock against hostile clients on 127.0.0.1: a body abandoned midway, an odd Expect header, and
 * more connections and body bytes at once than the server's bounds (checked on its own accounting).
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import type { LoadLimits } from '../mock-server/http/load-limits.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';
import { rawRequest } from './helpers/raw-http.js';

const running: { app: MockApp; server: RunningServer }[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const s of sockets.splice(0)) s.destroy();
  for (const r of running.splice(0)) {
    await r.server.close();
    await r.app.close?.();
  }
});

async function serve(limits?: LoadLimits) {
  const app = testMockApp({ seed: 7, listings: 40, frozen: true, start: TEST_START });
  const server = await startHttpServer(app, '127.0.0.1', 0, limits ? { limits } : {});
  running.push({ app, server });
  return { app, server, port: server.port, token: issueTestToken(app) };
}

/** Resolves once `check` holds, looking again on each turn of the event loop (no clock involved). */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setImmediate(r));
}

/** A socket to the server, connected. */
async function open(port: number): Promise<Socket> {
  const s = connect(port, '127.0.0.1');
  sockets.push(s);
  await new Promise<void>((resolve, reject) => s.once('connect', resolve).once('error', reject));
  return s;
}

/** Everything the server writes on `s` until it closes the connection: status, headers text and body. */
function answerOf(s: Socket): Promise<{ status: number; head: string; body: string }> {
  const chunks: Buffer[] = [];
  s.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve) =>
    s.once('close', () => {
      const all = Buffer.concat(chunks).toString('latin1');
      const at = all.indexOf('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(all)?.[1] ?? 0), head: all.slice(0, at), body: all.slice(at + 4) });
    }),
  );
}

/** The head of a POST /v1/orders whose body is `length` bytes long (or chunked when null). */
const orderHead = (token: string, length: number | null): string =>
  `POST /v1/orders HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: bearer ${token}\r\ncontent-type: application/json\r\n`
  + `${length === null ? 'transfer-encoding: chunked' : `content-length: ${length}`}\r\n\r\n`;

describe('a client that gives up', () => {
  it('abandoning a chunked body leaves no stack trace; the journal records the request as dropped', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { app, server, port, token } = await serve();
    for (let i = 0; i < 5; i++) {
      const s = await open(port);
      s.write(`${orderHead(token, null)}20\r\n{"bid_requests":`);
      // Hang up mid-chunk once the server holds the start of the body.
      await until(() => server.load.bytesInFlight > 0);
      s.destroy();
      await until(() => server.load.bytesInFlight === 0);
    }
    await until(() => app.requestLog.list(100).result.filter((e) => e.path === '/v1/orders' && e.status === null).length === 5);
    expect(errors).not.toHaveBeenCalled();
    // The server answers the next client as ever.
    expect((await rawRequest(port, { target: '/v1/loans', headers: { authorization: `bearer ${token}` } })).status).toBe(200);
  });
});

describe('Expect', () => {
  it('an expectation other than 100-continue is a JSON 417 naming it; 100-continue still works', async () => {
    const { port, token } = await serve();
    const res = await rawRequest(port, { target: '/v1/loans', headers: { authorization: `bearer ${token}`, expect: 'foo' } });
    expect(res.status).toBe(417);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.text)).toMatchObject({ code: 'VAL0001', message: expect.stringContaining("expect: 'foo'") });
    const ok = await rawRequest(port, {
      method: 'POST',
      target: '/__mock/clock',
      headers: { 'content-type': 'application/json', expect: '100-continue' },
      body: '{"advance":"1h"}',
    });
    expect(ok.status).toBe(200);
  });
});

describe('bounds on what the mock holds at once', () => {
  it('bodies past the bound on bytes in flight get 503 with Retry-After, and the bytes held never pass it', async () => {
    const size = 64 * 1024;
    const { server, port, token } = await serve({ maxConnections: 100, maxBytesInFlight: 3 * size });
    const body = `{"bid_requests":[]}`.padEnd(size, ' ');
    // Six clients each declare a 64 KiB body and send half of it: three fit, three are refused unread.
    const clients = [];
    for (let i = 0; i < 6; i++) {
      const s = await open(port);
      const answer = answerOf(s);
      s.write(orderHead(token, size) + body.slice(0, size / 2));
      clients.push({ s, answer });
      await until(() => server.load.bytesInFlight + server.load.refused * size >= (i + 1) * size);
    }
    const refused = await Promise.all(clients.slice(3).map((c) => c.answer));
    for (const r of refused) {
      expect(r.status).toBe(503);
      expect(r.head).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(JSON.parse(r.body)).toMatchObject({ code: 'SYS0503', message: expect.stringContaining('bytes in flight') });
    }
    expect(server.load.bytesInFlight).toBe(3 * size);
    // A chunked body is held as it arrives: it too is refused once it would pass the bound.
    const chunked = await open(port);
    const chunkedAnswer = answerOf(chunked);
    chunked.write(`${orderHead(token, null)}100\r\n${'x'.repeat(256)}\r\n`);
    expect((await chunkedAnswer).status).toBe(503);
    // The three held bodies, finished, are answered as ever and their bytes given back.
    for (const c of clients.slice(0, 3)) c.s.end(body.slice(size / 2));
    const held = await Promise.all(clients.slice(0, 3).map((c) => c.answer));
    expect(held.map((r) => r.status)).toEqual([400, 400, 400]);
    await until(() => server.load.bytesInFlight === 0);
    expect(server.load.peakBytesInFlight).toBeLessThanOrEqual(3 * size);
    expect(server.load.refused).toBe(4);
  });

  it('requests on connections past the bound get 503 and their connection closed; the ones within are served', async () => {
    const { server, port, token } = await serve({ maxConnections: 2, maxBytesInFlight: 1 << 20 });
    const kept = [await open(port), await open(port)];
    const third = await open(port);
    await until(() => server.load.connections === 3);
    const answer = answerOf(third);
    third.write(`GET /v1/loans HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: bearer ${token}\r\n\r\n`);
    const refused = await answer;
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'SYS0503', message: expect.stringContaining('connections') });
    const first = answerOf(kept[0]!);
    kept[0]!.write(`GET /v1/loans HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: bearer ${token}\r\nconnection: close\r\n\r\n`);
    expect((await first).status).toBe(200);
  });
});
