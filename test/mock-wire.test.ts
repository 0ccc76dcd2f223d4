/** The mock's answer path: a JSON answer is serialised once and written to the socket as it is, never read back from its body. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JsonAnswer } from '../mock-server/route-helper/route.js';
import { issueTestToken, startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 60 });
});
afterAll(async () => {
  await mock.close();
  vi.restoreAllMocks();
});

describe('answers on the wire', () => {
  it('writes a listing page without reading the Response body back (no Blob / ArrayBuffer round trip)', async () => {
    const token = issueTestToken(mock.app);
    const spy = vi.spyOn(Response.prototype, 'arrayBuffer');
    const res = await fetch(`${mock.origin}/listingsvc/v2/listings/?limit=3`, { headers: { authorization: `bearer ${token}` } });
    const text = await res.text();
    const reads = spy.mock.calls.length;
    spy.mockRestore();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(JSON.parse(text).result_count).toBe(3);
    expect(reads).toBe(0);
  });

  it('gives in-process callers a real Response whose body reads as the same JSON', async () => {
    const token = issueTestToken(mock.app);
    const r = await mock.app.handle(
      new Request(`${mock.origin}/listingsvc/v2/listings/?limit=2`, { headers: { authorization: `bearer ${token}` } }),
    );
    expect(r).toBeInstanceOf(JsonAnswer);
    const body = (await r.json()) as { result_count: number };
    expect(body.result_count).toBe(2);
  });

  it('answers a failure as JSON with its status, and HEAD with headers only', async () => {
    const bad = await fetch(`${mock.origin}/listingsvc/v2/listings/?limit=2`, { headers: { authorization: 'bearer nope' } });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('content-type')).toBe('application/json');
    expect(typeof (await bad.json())).toBe('object');
    const token = issueTestToken(mock.app);
    const head = await fetch(`${mock.origin}/listingsvc/v2/listings/?limit=2`, {
      method: 'HEAD',
      headers: { authorization: `bearer ${token}` },
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
