/** The one reading of a request target, and the admin-access decision made on it (pure; no sockets). */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { adminAccessAllowed, type AdminAccessInput } from '../mock-server/http/admin-access.js';
import {
  isAdminPath,
  normalisePath,
  normaliseTarget,
  PathMemo,
  TargetMemo,
  type TargetResult,
} from '../mock-server/http/request-target.js';
import { ADMIN_SPELLINGS } from './helpers/admin-spellings.js';

const ORIGIN = 'http://127.0.0.1:4010';

function pathOf(raw: string): string {
  const t = normaliseTarget(raw, ORIGIN);
  if (!t.ok) throw new Error(t.problem);
  return t.url.pathname;
}

describe('normaliseTarget', () => {
  it('resolves dot segments (also escaped), collapses slashes, reads \\ as / and drops a trailing slash', () => {
    expect(pathOf('/v1/../__mock/state')).toBe('/__mock/state');
    expect(pathOf('/./__mock/reset')).toBe('/__mock/reset');
    expect(pathOf('//x/__mock/state')).toBe('/x/__mock/state');
    expect(pathOf('/v1/%2e%2e/__mock/state')).toBe('/__mock/state');
    expect(pathOf('/%2E%2e/../../v1/loans/')).toBe('/v1/loans');
    expect(pathOf('/\\x\\__mock/state')).toBe('/x/__mock/state');
    expect(pathOf('/%5F%5Fmock/state')).toBe('/__mock/state');
    expect(pathOf('/v1/orders/a%2fb')).toBe('/v1/orders/a%2Fb');
    expect(pathOf('/')).toBe('/');
  });

  it('reads the spellings its header lists as it says (the journal key of issue #22 reproduces them)', () => {
    const cases: [string, string][] = [
      ['/%76%31/loans/', '/v1/loans'],
      ['///', '/'],
      ['/../v1', '/v1'],
      ['/v1/x/%2E%2E/loans', '/v1/loans'],
      ['/v1/%2f/%3a/%5c', '/v1/%2F/%3A/%5C'],
      ['/%252e/v1', '/%252e/v1'],
      ['/V1/loans;x', '/V1/loans;x'],
      ['HTTPS://user@h:1/v1//loans#frag', '/v1/loans'],
      ['http:h/v1', '/v1'],
      ['http://h', '/'],
      ['/v1\\loans', '/v1/loans'],
    ];
    for (const [raw, path] of cases) expect(pathOf(raw), raw).toBe(path);
  });

  it('takes the path of an absolute-form target and ignores its authority', () => {
    const t = normaliseTarget('http://evil.example:99/v1/loans/?limit=5', ORIGIN);
    expect(t.ok && t.url.href).toBe(`${ORIGIN}/v1/loans?limit=5`);
  });

  it('refuses what cannot be read, naming the problem', () => {
    const problem = (raw: string) => {
      const t = normaliseTarget(raw, ORIGIN);
      return t.ok ? 'ok' : t.problem;
    };
    expect(problem('/v1/orders/%zz')).toMatch(/malformed percent-escape '%zz'/);
    expect(problem('/v1/orders/%4')).toMatch(/malformed percent-escape '%4'/);
    expect(problem('/v1/loans/%FF')).toMatch(/'%FF' in the path are not UTF-8/);
    expect(problem('http://%zz/v1/loans')).toMatch(/not a valid absolute URL/);
    expect(problem('ftp://x/v1/loans')).toMatch(/scheme 'ftp' is not http/);
    expect(problem('v1/loans')).toMatch(/must start with '\/'/);
    expect(problem('*')).toMatch(/must start with '\/'/);
    expect(problem('/v1/lo ans')).toMatch(/only printable ASCII/);
    expect(problem('/v1/lo\u00e9ns')).toMatch(/U\+00E9/);
    expect(problem('//[zz]/v1/loans')).toMatch(
      /'\[' in the path '\/\/\[zz\]\/v1\/loans' is allowed only around an IP address in the authority/,
    );
    expect(problem('http://h/v1/loans/[1]')).toMatch(/'\[' in the path/);
    expect(problem('/v1/loans/{loan_number}')).toMatch(/'\{' in the path .* is allowed nowhere in a URL; percent-encode it \(%7B\)/);
    for (const ch of '"<>^`|}]') expect(problem(`/v1/a${ch}b`), ch).toMatch(/in the path/);
    // In the authority of an absolute-form target, in an escape, or in the query, they are no problem.
    expect(problem('http://[::1]:4010/v1/loans')).toBe('ok');
    expect(problem('/v1/loans/%5B1%5D')).toBe('ok');
    expect(problem('/v1/loans?x=[1]|{2}')).toBe('ok');
  });

  it('never throws, and a normalised path reads the same when normalised again', () => {
    const chars = fc.constantFrom(
      ...'/.%\\?#azAZ09_-~:@[]{}|"<>^`'.split(''),
      '%2e',
      '%2E',
      '%2F',
      '%5C',
      '%zz',
      '%FF',
      '%C3%A9',
      '..',
      '__mock',
    );
    fc.assert(
      fc.property(
        fc.array(chars, { maxLength: 30 }).map((a) => `/${a.join('')}`),
        (raw) => {
          const t = normaliseTarget(raw, ORIGIN);
          if (!t.ok) return;
          const again = normaliseTarget(t.url.pathname + t.url.search, ORIGIN);
          expect(again.ok && again.url.pathname).toBe(t.url.pathname);
          expect(t.url.origin).toBe(ORIGIN);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('normalisePath is what the fault settings use, so /v1/orders/ and /v1/./orders mean /v1/orders', () => {
    expect(normalisePath('/v1/./orders/')).toEqual({ path: '/v1/orders' });
  });
});

describe('admin access', () => {
  const base: AdminAccessInput = { path: '/__mock/state', peer: '127.0.0.1', boundHost: '127.0.0.1', headers: {}, adminToken: null };
  const allowed = (raw: string, over: Partial<AdminAccessInput>) => adminAccessAllowed({ ...base, ...over, path: pathOf(raw) });

  it('counts every spelling of an admin path as admin, in any case', () => {
    for (const raw of ADMIN_SPELLINGS) expect(isAdminPath(pathOf(raw)), raw).toBe(true);
    expect(isAdminPath('/v1/loans')).toBe(false);
    expect(isAdminPath('/v1/__mockery')).toBe(false);
  });

  it('bound to loopback: loopback callers reach every spelling, others none', () => {
    for (const raw of ADMIN_SPELLINGS) {
      expect(allowed(raw, { peer: '127.0.0.1' }), raw).toBe(true);
      expect(allowed(raw, { peer: '::ffff:127.0.0.1', boundHost: '::1' }), raw).toBe(true);
      expect(allowed(raw, { peer: '192.0.2.7' }), raw).toBe(false);
    }
  });

  it('bound off loopback: every caller, loopback too, needs the token, in either header', () => {
    const off = { boundHost: '0.0.0.0', adminToken: 'T0ken' };
    for (const raw of ADMIN_SPELLINGS) {
      for (const peer of ['127.0.0.1', '::1', '192.0.2.7']) {
        expect(allowed(raw, { ...off, peer }), `${raw} from ${peer}`).toBe(false);
        expect(allowed(raw, { ...off, peer, headers: { authorization: 'Bearer T0ken' } }), raw).toBe(true);
        expect(allowed(raw, { ...off, peer, headers: { 'x-mock-admin-token': 'T0ken' } }), raw).toBe(true);
        expect(allowed(raw, { ...off, peer, headers: { authorization: 'Bearer t0ken' } }), raw).toBe(false);
        expect(allowed(raw, { ...off, peer, headers: { 'x-mock-admin-token': 'T0ken-and-more' } }), raw).toBe(false);
      }
    }
    expect(allowed('/__mock/state', { boundHost: '::', peer: '::1' })).toBe(false);
    expect(allowed('/__mock/state', { boundHost: '0.0.0.0', adminToken: '', headers: { 'x-mock-admin-token': '' } })).toBe(false);
  });

  it('never stands in the way of a resource path', () => {
    expect(allowed('/v1/loans', { boundHost: '0.0.0.0', peer: '192.0.2.7', adminToken: 'T' })).toBe(true);
  });
});

describe('PathMemo', () => {
  it('reads every path as normalisePath does, asked again or not, past its size and its length bound', () => {
    // Few distinct paths (so most are asked again) among many (so the memo fills and starts over).
    const path = fc.oneof(
      fc.constantFrom('/listingsvc/v2/listings/', '/v1/../__mock/state', '/a%zz', '/x/%E9', '/v1/orders/a%2fb'),
      fc.string({ maxLength: 8 }).map((s) => `/${s}`),
      fc.string({ minLength: 190, maxLength: 260 }).map((s) => `/${s}`),
    );
    fc.assert(
      fc.property(fc.array(path, { maxLength: 400 }), (paths) => {
        const memo = new PathMemo();
        for (const p of paths) expect(memo.normalise(p)).toEqual(normalisePath(p));
        for (const p of paths) expect(normaliseTarget(`${p}?q=1`, ORIGIN, memo)).toEqual(normaliseTarget(`${p}?q=1`, ORIGIN));
      }),
      { numRuns: 30 },
    );
  });
});

/** A target's reading as plain values (a URL compares by its text); its path and query are the URL's own, read now or kept. */
function reading(t: TargetResult): unknown {
  if (!t.ok) return t;
  expect([t.path, t.search]).toEqual([t.url.pathname, t.url.search]);
  return { href: t.url.href, authority: t.authority };
}

describe('TargetMemo', () => {
  it('reads every target as normaliseTarget does, asked again or not, past its size and its length bound', () => {
    // Few distinct targets (most asked again, absolute-form and refused ones among them) among many (the memo fills and starts over).
    const target = fc.oneof(
      fc.constantFrom(
        '/listingsvc/v2/listings/?limit=25',
        'http://evil.example:99/v1/loans/?limit=5',
        'HTTPS://h/v1//loans#frag',
        '/v1/../__mock/state',
        '/a%zz',
        'ftp://x/v1',
        '/x y',
        'v1/loans',
      ),
      fc.string({ maxLength: 10 }).map((s) => `/${s}`),
      fc.string({ maxLength: 10 }),
      fc.string({ minLength: 190, maxLength: 260 }).map((s) => `/${s}`),
    );
    fc.assert(
      fc.property(fc.array(target, { maxLength: 400 }), (targets) => {
        const memo = new TargetMemo();
        for (const t of targets) expect(reading(memo.read(t, ORIGIN))).toEqual(reading(normaliseTarget(t, ORIGIN)));
      }),
      { numRuns: 30 },
    );
  });

  it('never hands on a URL a reader changed: the next request of that target gets its own reading again', () => {
    const memo = new TargetMemo();
    const raw = '/listingsvc/v2/listings/?limit=25';
    const first = memo.read(raw, ORIGIN);
    if (!first.ok) throw new Error(first.problem);
    expect(memo.read(raw, ORIGIN)).toBe(first);
    first.url.search = '?limit=500';
    first.url.pathname = '/__mock/state';
    const again = memo.read(raw, ORIGIN);
    expect(again.ok && again.url.href).toBe(`${ORIGIN}/listingsvc/v2/listings?limit=25`);
    expect(again).not.toBe(first);
    // Its path and query are read again with it: the kept ones were of the URL as it was.
    expect(again.ok && [again.path, again.search]).toEqual(['/listingsvc/v2/listings', '?limit=25']);
  });

  it('hands a target asked again the same path and query texts (a step comparing them with the request before compares no characters)', () => {
    const memo = new TargetMemo();
    const raw = '/listingsvc/v2/listings/?limit=25';
    // Asked with a text of its own each time, as node makes one a request.
    const [a, b] = [memo.read(`${raw}`, ORIGIN), memo.read(['/listingsvc/v2/listings/', '?limit=25'].join(''), ORIGIN)];
    if (!a.ok || !b.ok) throw new Error('unread');
    // The same reading, so the same path and query texts (strings compare by value: the reading is what can be told apart).
    expect(b).toBe(a);
    expect([b.path, b.search]).toEqual(['/listingsvc/v2/listings', '?limit=25']);
  });

  it('reads a target against the origin it is asked for (a memo kept past a change of origin starts over)', () => {
    const memo = new TargetMemo();
    const raw = '/v1/loans';
    memo.read(raw, ORIGIN);
    const other = memo.read(raw, 'http://127.0.0.1:5020');
    expect(other.ok && other.url.href).toBe('http://127.0.0.1:5020/v1/loans');
  });
});
