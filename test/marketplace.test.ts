import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../src/api/client.js';
import { ConnectionError, errorFromResponse } from '../src/api/errors.js';
import { identifyMarketplace, legacyKey, marketplaceKey } from '../src/orders/marketplace.js';

/** One marketplace address, before any way of spelling it. */
interface Address {
  scheme: 'http' | 'https';
  /** 'loopback' is the local machine under any of its names. */
  host: 'loopback' | 'api.lending.example' | 'lending.example' | '10.0.0.5';
  /** null: the scheme's default port. */
  port: number | null;
  path: '' | '/v1' | '/api/v1' | '/v2';
}

const address: fc.Arbitrary<Address> = fc.record({
  scheme: fc.constantFrom('http' as const, 'https' as const),
  host: fc.constantFrom('loopback' as const, 'api.lending.example' as const, 'lending.example' as const, '10.0.0.5' as const),
  port: fc.option(
    fc.integer({ min: 1, max: 65535 }).filter((p) => p !== 80 && p !== 443),
    { nil: null },
  ),
  path: fc.constantFrom('' as const, '/v1' as const, '/api/v1' as const, '/v2' as const),
});

/** Choices that change how an address is written, never where it points. */
const spelling = fc.record({
  caseMask: fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
  loopback: fc.constantFrom('localhost', '127.0.0.1', '[::1]', 'LocalHost', 'localhost.', '127.1', '[0:0:0:0:0:0:0:1]'),
  defaultPort: fc.boolean(),
  trailingSlashes: fc.integer({ min: 0, max: 3 }),
  escapeV: fc.boolean(),
  userInfo: fc.boolean(),
  fragment: fc.boolean(),
});

type Spelling = typeof spelling extends fc.Arbitrary<infer T> ? T : never;

function spell(a: Address, s: Spelling): string {
  const flip = (text: string) => [...text].map((c, i) => (s.caseMask[i % 64] ? c.toUpperCase() : c)).join('');
  const host = a.host === 'loopback' ? s.loopback : a.host;
  const port = a.port ?? (s.defaultPort ? (a.scheme === 'http' ? 80 : 443) : null);
  // %76 is 'v', an unreserved character: escaping it does not change the URL.
  const path = s.escapeV ? a.path.replace('v', '%76') : a.path;
  return `${flip(a.scheme)}://${s.userInfo ? 'me:pw@' : ''}${flip(host)}${port === null ? '' : `:${port}`}${path}${'/'.repeat(s.trailingSlashes)}${s.fragment ? '#x' : ''}`;
}

const canonical = (a: Address) =>
  `${a.scheme}://${a.host === 'loopback' ? '127.0.0.1' : a.host}${a.port === null ? '' : `:${a.port}`}${a.path}`;

describe('the marketplace key', () => {
  it('is the same for every spelling of one address: case, default port, trailing slashes, loopback names, escapes', () => {
    fc.assert(
      fc.property(address, spelling, spelling, (a, s1, s2) => {
        expect(marketplaceKey(spell(a, s1), 'acct-1')).toBe(marketplaceKey(spell(a, s2), 'acct-1'));
        expect(marketplaceKey(spell(a, s1), 'acct-1')).toBe(`acct-1@${canonical(a)}`);
      }),
      { numRuns: 500 },
    );
  });

  it('differs between addresses that differ in scheme, host, port or path', () => {
    fc.assert(
      fc.property(address, address, spelling, spelling, (a, b, s1, s2) => {
        fc.pre(canonical(a) !== canonical(b));
        expect(marketplaceKey(spell(a, s1), 'acct-1')).not.toBe(marketplaceKey(spell(b, s2), 'acct-1'));
      }),
      { numRuns: 500 },
    );
  });

  it('differs between accounts at one address, however their ids are written', () => {
    fc.assert(
      fc.property(address, spelling, fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (a, s, x, y) => {
        fc.pre(x !== y);
        expect(marketplaceKey(spell(a, s), x)).not.toBe(marketplaceKey(spell(a, s), y));
      }),
    );
  });

  it('takes the two spellings of the issue as one marketplace', () => {
    expect(marketplaceKey('http://127.0.0.1:4010/v1', 'u')).toBe(marketplaceKey('http://localhost:4010/v1/', 'u'));
  });

  it('keeps path case and other loopback addresses apart', () => {
    expect(marketplaceKey('http://127.0.0.1:4010/v1', 'u')).not.toBe(marketplaceKey('http://127.0.0.1:4010/V1', 'u'));
    expect(marketplaceKey('http://127.0.0.1:4010/v1', 'u')).not.toBe(marketplaceKey('http://127.0.0.2:4010/v1', 'u'));
  });

  it('refuses a base URL that is not an http(s) URL, naming it', () => {
    expect(() => marketplaceKey('ftp://127.0.0.1/v1', 'u')).toThrow(/base URL 'ftp:\/\/127\.0\.0\.1\/v1' is not an http or https URL/);
    expect(() => marketplaceKey('not a url', 'u')).toThrow(/base URL 'not a url' is not a valid URL/);
  });

  it("reads the path as the mock's router does: repeated slashes, dot segments and escaped letters are one path, letter case is another", () => {
    const key = marketplaceKey('http://127.0.0.1:4010/v1', 'u');
    for (const same of [
      'http://127.0.0.1:4010//v1',
      'http://127.0.0.1:4010/./v1/',
      'http://127.0.0.1:4010/x/%2e%2E/v1',
      'http://127.0.0.1:4010/%76%31//',
      'http://127.0.0.1:4010\\v1\\',
      'http://127.0.0.1:4010/../v1',
    ]) {
      expect(marketplaceKey(same, 'u'), same).toBe(key);
    }
    expect(marketplaceKey('http://127.0.0.1:4010//', 'u')).toBe(marketplaceKey('http://127.0.0.1:4010', 'u'));
    expect(marketplaceKey('http://127.0.0.1:4010/V1', 'u')).toBe('u@http://127.0.0.1:4010/V1');
    expect(marketplaceKey('http://127.0.0.1:4010/v1/a%2fb', 'u')).toBe('u@http://127.0.0.1:4010/v1/a%2Fb');
  });

  it('refuses 0.0.0.0 and :: in every spelling, exit 2, naming the address and the setting to fix', () => {
    for (const host of [
      '0.0.0.0',
      '0',
      '0.0.0',
      '0x0',
      '00.0.0.0',
      '0.0.0.0.',
      '[::]',
      '[0:0::0]',
      '[0::]',
      '[::0.0.0.0]',
      '[::ffff:0.0.0.0]',
      '[::FFFF:0:0]',
      '[0:0:0:0:0:0:0:0]',
    ]) {
      const url = `http://${host}:4010/v1`;
      expect(() => marketplaceKey(url, 'u'), host).toThrow(
        expect.objectContaining({
          exitCode: 2,
          message: expect.stringMatching(
            /^base URL '.*' names (0\.0\.0\.0|\[::\]|\[::ffff:0:0\]), the address a server listens on \(every interface\), not one a client sends to; nothing was sent$/,
          ),
          hint: expect.stringMatching(/base_url .*MKT_BASE_URL.* such as http:\/\/127\.0\.0\.1:4010\/v1/),
        }),
      );
    }
    // Neighbours are addresses like any other.
    expect(marketplaceKey('http://0.0.0.1:4010/v1', 'u')).toBe('u@http://0.0.0.1:4010/v1');
    expect(marketplaceKey('http://[::2]:4010/v1', 'u')).toBe('u@http://[::2]:4010/v1');
  });

  it('refuses a base URL whose path no router reads, naming the problem, exit 2', () => {
    expect(() => marketplaceKey('http://127.0.0.1:4010/v1/%zz', 'u')).toThrow(
      expect.objectContaining({ exitCode: 2, message: expect.stringMatching(/malformed percent-escape '%zz'/) }),
    );
    expect(() => marketplaceKey('http://127.0.0.1:4010/v1/%FF', 'u')).toThrow(/not UTF-8/);
    expect(() => marketplaceKey('http://127.0.0.1:4010/v1[x]', 'u')).toThrow(/'\[' in the path/);
  });

  it('reads an unreadable URL of an old journal entry as no marketplace rather than failing', () => {
    expect(legacyKey('::', 'u')).toBeNull();
    expect(legacyKey(42, 'u')).toBeNull();
    expect(legacyKey('http://localhost:4010/v1/', 'u')).toBe(marketplaceKey('http://127.0.0.1:4010/v1', 'u'));
  });
});

describe('finding which account the bids are for', () => {
  /** A client whose only call, GET /accounts/platform, answers `answer` (or throws it). */
  const clientAnswering = (answer: unknown): ApiClient =>
    ({
      settings: { baseUrl: 'http://localhost:4010/v1/' },
      call: async (c: { path: string }) => {
        expect(c.path).toBe('/accounts/platform');
        if (answer instanceof Error) throw answer;
        return answer;
      },
    }) as unknown as ApiClient;

  it('keys the journal by the external_user_id the marketplace names', async () => {
    const m = await identifyMarketplace(clientAnswering({ external_user_id: 'ext-9', available_cash_balance: 1 }));
    expect(m).toEqual({ baseUrl: 'http://localhost:4010/v1/', account: 'ext-9', key: 'ext-9@http://127.0.0.1:4010/v1' });
  });

  it('says nothing was sent and keeps the exit code when the account cannot be read', async () => {
    await expect(identifyMarketplace(clientAnswering(new ConnectionError('connect ECONNREFUSED')))).rejects.toMatchObject({
      exitCode: 5,
      message: expect.stringMatching(/ECONNREFUSED; nothing was sent/),
    });
    await expect(identifyMarketplace(clientAnswering(errorFromResponse(401, { error: 'invalid_token' }, 'account')))).rejects.toMatchObject(
      { exitCode: 3, message: expect.stringMatching(/HTTP 401.*nothing was sent/) },
    );
  });

  it('refuses a bind address before asking the marketplace anything', async () => {
    let calls = 0;
    const client = {
      settings: { baseUrl: 'http://0.0.0.0:4010/v1' },
      call: async () => {
        calls++;
        return { external_user_id: 'x' };
      },
    } as unknown as ApiClient;
    await expect(identifyMarketplace(client)).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(/names 0\.0\.0\.0/) });
    expect(calls).toBe(0);
  });

  it('refuses an answer without a usable external_user_id, exit 5', async () => {
    for (const bad of [
      { external_user_id: '' },
      { external_user_id: 'a\nb' },
      { external_user_id: '\ud800' },
      { external_user_id: 'x'.repeat(257) },
    ]) {
      await expect(identifyMarketplace(clientAnswering(bad))).rejects.toMatchObject({
        exitCode: 5,
        message: expect.stringMatching(/without a usable external_user_id; nothing was sent/),
      });
    }
    for (const unreadable of [{ external_user_id: 42 }, null, 'text']) {
      await expect(identifyMarketplace(clientAnswering(unreadable))).rejects.toMatchObject({
        exitCode: 5,
        message: expect.stringMatching(/(external_user_id|cannot be read).*nothing was sent/),
      });
    }
  });

  it('refuses an account answer without external_user_id (the 2015 answer) rather than keying the journal any other way', async () => {
    for (const old of [{}, { available_cash_balance: 22139.89 }, { external_user_id: null }]) {
      await expect(identifyMarketplace(clientAnswering(old))).rejects.toMatchObject({
        exitCode: 5,
        message: expect.stringMatching(
          /has no external_user_id, and the journal that keeps a bid from being sent twice is kept per account: mkt does not submit without it; nothing was sent/,
        ),
      });
    }
  });
});
