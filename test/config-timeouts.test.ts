/** The answer timeout and the settle window from the environment: a window shorter than the timeout is refused, naming both. */
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../src/api/client.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../src/api/http.js';
import type { TokenProvider } from '../src/api/client.js';
import type { Settings } from '../src/config/settings.js';
import { deskWindows, httpTimeoutMs, settleWindowMs } from '../src/config/timeouts.js';
import { EXIT, UsageError } from '../src/errors.js';

const refusal = (env: Record<string, string>): UsageError => {
  try {
    settleWindowMs(env);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  return expect.fail('expected a refusal');
};

describe('the settle window', () => {
  it('is the answer timeout plus 90 s unless set; set, it is taken as given', () => {
    expect(settleWindowMs({})).toBe(120_000);
    expect(settleWindowMs({ MKT_HTTP_TIMEOUT: '600' })).toBe(690_000);
    expect(settleWindowMs({ MKT_SETTLE_WINDOW: '45' })).toBe(45_000);
    expect(deskWindows({ MKT_HTTP_TIMEOUT: '5', MKT_SETTLE_WINDOW: '5' })).toEqual({ settleMs: 5000, httpTimeoutMs: 5000 });
    expect(httpTimeoutMs({})).toBe(30_000);
  });

  it('shorter than the answer timeout is refused (exit 2), naming both and their values', () => {
    const unset = refusal({ MKT_SETTLE_WINDOW: '10' });
    expect(unset.exitCode).toBe(EXIT.USAGE);
    expect(unset.message).toBe(
      'MKT_SETTLE_WINDOW (10 s) is shorter than the answer timeout MKT_HTTP_TIMEOUT (unset: 30 s): an order could be taken as never received while its answer is still awaited',
    );
    expect(unset.hint).toBe(
      'set MKT_SETTLE_WINDOW to at least MKT_HTTP_TIMEOUT plus what a proxy and the marketplace may take after it (90 s by default), or unset it',
    );
    expect(refusal({ MKT_SETTLE_WINDOW: '120', MKT_HTTP_TIMEOUT: '600' }).message).toMatch(
      /^MKT_SETTLE_WINDOW \(120 s\) is shorter than the answer timeout MKT_HTTP_TIMEOUT \(600 s\):/,
    );
    expect(refusal({ MKT_SETTLE_WINDOW: '2.5', MKT_HTTP_TIMEOUT: '2.6' }).message).toMatch(
      /^MKT_SETTLE_WINDOW \(2\.5 s\) .* MKT_HTTP_TIMEOUT \(2\.6 s\)/,
    );
  });
});

describe('ApiClient.prepare', () => {
  it('gets the token ahead: the next call sends it without asking the provider again, the one after asks', async () => {
    const sent: string[] = [];
    const http = {
      send: async (req: HttpRequest): Promise<HttpResponse> => (
        sent.push(req.headers!.authorization!),
        { status: 200, headers: {}, data: {} }
      ),
    } as unknown as HttpClient;
    let asked = 0;
    const tokens = { accessToken: async () => `t${++asked}` } as TokenProvider;
    const client = new ApiClient(http, { baseUrl: 'http://127.0.0.1:9/v1' } as Settings, tokens);
    await client.prepare();
    expect(asked).toBe(1);
    const call = { method: 'GET' as const, base: 'base' as const, path: '/x', what: 'x', decode: (v: unknown) => v };
    await client.call(call);
    await client.call(call);
    expect(sent).toEqual(['bearer t1', 'bearer t2']);
    expect(asked).toBe(2);
  });
});
