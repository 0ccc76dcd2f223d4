import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HttpClient, redact, retryDelay } from '../src/api/http.js';
import { ConnectionError } from '../src/api/errors.js';
import { VERSION } from '../src/version.js';

/** A loopback server that answers from a script of statuses, counting requests. */
async function scripted(statuses: number[], headers: Record<string, string> = {}) {
  let hits = 0;
  const server = createServer((req, res) => {
    const status = statuses[Math.min(hits, statuses.length - 1)]!;
    hits++;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ status }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  return {
    url,
    hits: () => hits,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

const noSleep = { sleep: async () => undefined, random: () => 0.5 };

describe('the HTTP client', () => {
  it('retries a GET on 503 and 429 until it succeeds', async () => {
    const s = await scripted([503, 429, 200]);
    const client = new HttpClient(noSleep);
    const res = await client.send({ method: 'GET', url: s.url });
    expect(res.status).toBe(200);
    expect(s.hits()).toBe(3);
    await client.close();
    await s.close();
  });

  it('gives up after the retry limit and returns the last answer', async () => {
    const s = await scripted([500]);
    const client = new HttpClient({ ...noSleep, maxRetries: 2 });
    expect((await client.send({ method: 'GET', url: s.url })).status).toBe(500);
    expect(s.hits()).toBe(3);
    await client.close();
    await s.close();
  });

  it('never retries a POST', async () => {
    const s = await scripted([503, 200]);
    const client = new HttpClient(noSleep);
    expect((await client.send({ method: 'POST', url: s.url, json: { a: 1 } })).status).toBe(503);
    expect(s.hits()).toBe(1);
    await client.close();
    await s.close();
  });

  it('honours Retry-After', async () => {
    const waits: number[] = [];
    const s = await scripted([429, 200], { 'retry-after': '2' });
    const client = new HttpClient({ sleep: async (ms) => void waits.push(ms), random: () => 0.5 });
    await client.send({ method: 'GET', url: s.url });
    expect(waits).toEqual([2000]);
    await client.close();
    await s.close();
  });

  it('turns a refused connection into a ConnectionError after retrying', async () => {
    const client = new HttpClient({ ...noSleep, maxRetries: 1 });
    await expect(client.send({ method: 'GET', url: 'http://127.0.0.1:9/x' })).rejects.toBeInstanceOf(ConnectionError);
    await client.close();
  });

  it('backs off exponentially with a cap, and caps Retry-After', () => {
    const d = [0, 1, 2, 3, 10].map((a) => retryDelay(a, undefined, () => 1));
    expect(d).toEqual([250, 500, 1000, 2000, 8000]);
    expect(retryDelay(0, '3600', () => 0)).toBe(30_000);
  });

  it('redacts secrets in traced bodies', () => {
    expect(redact('grant_type=refresh_token&client_secret=s3cr3t&refresh_token=abc')).toBe(
      'grant_type=refresh_token&client_secret=***&refresh_token=***',
    );
    expect(redact('{"access_token":"tok","expires_in":3599}')).toBe('{"access_token":"***","expires_in":3599}');
  });

  it('reports the version that package.json declares', () => {
    expect(VERSION).toBe(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
  });
});
