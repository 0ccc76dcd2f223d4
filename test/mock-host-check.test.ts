/**
 * Which Host a request may name (http/host-check.ts) and where an admin request may come from
 * (http/admin-access.ts adminRequestRefusal): pure decisions, tested over spellings without sockets.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  canonicalName,
  isHostRefusal,
  readAllowedHost,
  readHost,
  ServedHosts,
  type HostRefusal,
  type NamedHost,
} from '../mock-server/http/host-check.js';
import { adminRequestRefusal, type AdminRequestInput } from '../mock-server/http/admin-access.js';

const served = new ServedHosts({ boundAddress: '127.0.0.1', allowed: ['mock.example.com'] });
/** The verdict on one Host line. */
const verdict = (host: string, hosts = served) => hosts.check(null, ['Host', host]);
const status = (v: NamedHost | HostRefusal | null): number => (isHostRefusal(v) ? v.status : 200);

/** A string with each letter in upper or lower case as `flags` says. */
const recase = (s: string, flags: boolean[]) => [...s].map((c, i) => (flags[i % Math.max(flags.length, 1)] ? c.toUpperCase() : c)).join('');
const port = fc.option(fc.integer({ min: 0, max: 65_535 }), { nil: undefined });
const withPort = (name: string, p: number | undefined) => (p === undefined ? name : `${name}:${p}`);
const dot = fc.boolean();

/** Loopback names and addresses in the spellings a browser or a client may send. */
const loopbackSpelling = fc.oneof(
  fc
    .tuple(fc.constantFrom('localhost', 'app.localhost'), fc.array(fc.boolean(), { minLength: 1, maxLength: 9 }), dot)
    .map(([n, f, d]) => recase(n, f) + (d ? '.' : '')),
  fc
    .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), dot)
    .map(([a, b, c, d]) => `127.${a}.${b}.${c}${d ? '.' : ''}`),
  fc.constantFrom(
    '127.1',
    '0x7f.1',
    '2130706433',
    '0177.0.0.1',
    '[::1]',
    '[0:0:0:0:0:0:0:1]',
    '[0::1]',
    '[::ffff:127.0.0.1]',
    '[::FFFF:7F00:1]',
  ),
);

/** Names a rebinding page could send: anything that is not loopback or allowed, some made to look like it. */
const foreignSpelling = fc.oneof(
  fc.constantFrom(
    'evil.example',
    'localhost.evil.example',
    '127.0.0.1.evil.example',
    'evil-localhost',
    'localhostx',
    'mock.example.com.evil.example',
    'example.com',
    '128.0.0.1',
    '10.0.0.1',
    '0.0.0.0',
    '[::2]',
    '[::ffff:10.0.0.1]',
    '192.0.2.7',
    'xn--localhost-9za',
    'localhost..',
  ),
  fc.tuple(fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/), fc.constantFrom('.example', '.test', '.com', '.evil')).map(([a, b]) => a + b),
);

describe('the Host a request names', () => {
  it('serves loopback names and addresses in any case, with or without a trailing dot or a port', () => {
    fc.assert(
      fc.property(loopbackSpelling, port, (name, p) => {
        const v = verdict(withPort(name, p));
        expect(status(v), withPort(name, p)).toBe(200);
        expect((v as NamedHost).port).toBe(p ?? null);
      }),
      { numRuns: 400 },
    );
  });

  it('serves the bound address, the name it was bound by and the --allow-host names, in any spelling', () => {
    const hosts = new ServedHosts({ boundAddress: '192.0.2.7', bindName: 'Box.Lan', allowed: ['mock.example.com', '[2001:db8::5]'] });
    fc.assert(
      fc.property(
        fc.constantFrom('192.0.2.7', 'box.lan', 'mock.example.com', '[2001:db8:0::5]', '[2001:DB8::5]'),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 9 }),
        dot,
        port,
        (name, flags, d, p) => {
          const spelt = withPort(recase(name, flags) + (d && !name.startsWith('[') ? '.' : ''), p);
          expect(status(verdict(spelt, hosts)), spelt).toBe(200);
        },
      ),
      { numRuns: 200 },
    );
    // The bound address of another mock is not this one's.
    expect(status(verdict('192.0.2.8', hosts))).toBe(421);
  });

  it('a wildcard bind serves the machine addresses it is given', () => {
    const hosts = new ServedHosts({ boundAddress: '0.0.0.0', machineAddresses: ['192.0.2.9', 'fe80::1', 'box'] });
    expect(status(verdict('192.0.2.9:4010', hosts))).toBe(200);
    expect(status(verdict('[fe80::1]:4010', hosts))).toBe(200);
    expect(status(verdict('BOX', hosts))).toBe(200);
    expect(status(verdict('evil.example', hosts))).toBe(421);
  });

  it('refuses any other name with a 421 naming the Host and --allow-host', () => {
    fc.assert(
      fc.property(foreignSpelling, fc.array(fc.boolean(), { minLength: 1, maxLength: 9 }), port, (name, flags, p) => {
        const spelt = withPort(recase(name, flags), p);
        const v = verdict(spelt);
        if (status(v) === 400) return; // a spelling that is no host at all ('localhost..')
        expect(status(v), spelt).toBe(421);
        const body = (v as HostRefusal).body;
        expect(body.code).toBe('MISDIRECTED_REQUEST');
        expect(body.message).toContain(`'${spelt}'`);
        expect(body.message).toContain('--allow-host');
      }),
      { numRuns: 400 },
    );
  });

  it('a Host that is no host, or two Host lines, is 400 naming the problem', () => {
    for (const bad of [
      'evil.example@127.0.0.1',
      '127.0.0.1/x',
      'a b',
      '127.0.0.1:99999',
      '127.0.0.1:4010:1',
      '[::1',
      'http://127.0.0.1',
      '%6cocalhost',
      'localhost..',
      '\u00e9vil',
    ]) {
      const v = verdict(bad);
      expect(status(v), bad).toBe(400);
      expect((v as HostRefusal).body.code).toBe('VAL0001');
    }
    const two = served.check(null, ['Host', '127.0.0.1', 'host', '127.0.0.1']);
    expect(status(two)).toBe(400);
    expect((two as HostRefusal).body.message).toContain('2 Host lines');
  });

  it('no Host, or an empty one, names no host; an absolute-form authority is the host named, whatever the Host line says', () => {
    expect(served.check(null, [])).toBeNull();
    expect(served.check(null, ['Host', ''])).toBeNull();
    expect(status(served.check('127.0.0.1:4010', ['Host', 'evil.example']))).toBe(200);
    expect(status(served.check('evil.example', ['Host', '127.0.0.1']))).toBe(421);
  });

  it('never throws, answers 200, 400 or 421, and serves only what it says it serves, asked again or not', () => {
    const chars = fc.constantFrom(...'abzAZ09.-_:[]@/%# \\'.split(''), 'localhost', '127.0.0.1', '::1', 'évil', '\u0000');
    fc.assert(
      fc.property(
        fc.array(chars, { maxLength: 12 }).map((a) => a.join('')),
        (text) => {
          const first = served.check(null, ['Host', text]);
          const again = served.check(null, ['Host', text]);
          expect(again).toEqual(first);
          if (first === null) expect(text).toBe('');
          else {
            expect([200, 400, 421]).toContain(status(first));
            if (!isHostRefusal(first)) expect(served.serves(first.name)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('reads a host as WHATWG URL does, and keeps no trailing dot', () => {
    expect(readHost('LocalHost.:4010')).toEqual({ name: 'localhost', port: 4010 });
    expect(readHost('127.1')).toEqual({ name: '127.0.0.1', port: null });
    expect(readHost('[0:0::1]:')).toEqual({ name: '[::1]', port: null });
    expect(canonicalName('0x7f.0.0.1')).toBe('127.0.0.1');
  });
});

describe('--allow-host', () => {
  it('takes a name or an address alone, canonical', () => {
    expect(readAllowedHost('Mock.Example.COM.')).toEqual({ name: 'mock.example.com' });
    expect(readAllowedHost('2001:db8::5')).toEqual({ name: '[2001:db8::5]' });
    expect(readAllowedHost('[2001:db8::5]')).toEqual({ name: '[2001:db8::5]' });
    for (const bad of [
      'http://mock.example.com',
      'mock.example.com:443',
      'mock.example.com:',
      '[::1]:80',
      'mock.example.com/x',
      '*',
      '',
      'a b',
    ]) {
      expect(readAllowedHost(bad), bad).toMatchObject({ problem: expect.stringContaining('host name or address alone') });
    }
  });
});

describe('where an admin request comes from', () => {
  const host: NamedHost = { name: '127.0.0.1', port: 4010 };
  const base: AdminRequestInput = { path: '/__mock/reset', method: 'POST', headers: {}, host, served };
  const refusal = (over: Partial<AdminRequestInput>) => adminRequestRefusal({ ...base, ...over });

  it("goes on for clients that send no Origin and no Sec-Fetch-Site (curl, mkt), and for the mock's own pages", () => {
    expect(refusal({})).toBeNull();
    for (const site of ['same-origin', 'none', 'Same-Origin']) expect(refusal({ headers: { 'sec-fetch-site': site } }), site).toBeNull();
    // The scheme is not compared: nothing but the mock listens on its host and port (a TLS proxy in front has its own).
    for (const origin of [
      'http://127.0.0.1:4010',
      'HTTP://127.0.0.1:4010',
      'http://127.1:4010',
      'https://127.0.0.1:4010',
      'https://mock.example.com',
      'http://mock.example.com:8080',
    ]) {
      expect(refusal({ headers: { origin, 'sec-fetch-site': 'same-origin' } }), origin).toBeNull();
    }
    // A Host without a port is on the default port of the origin's scheme.
    expect(refusal({ host: { name: 'localhost', port: null }, headers: { origin: 'http://localhost' } })).toBeNull();
    expect(refusal({ host: { name: 'localhost', port: 80 }, headers: { origin: 'http://localhost' } })).toBeNull();
  });

  it('refuses a page of another origin with a 403 naming why: another port, another loopback name, another site, an opaque origin', () => {
    const origins = [
      'http://127.0.0.1:9999',
      'http://localhost:4010',
      'http://[::1]:4010',
      'https://127.0.0.1',
      'http://127.0.0.1',
      'http://evil.example',
      'null',
      'file://',
      'http://127.0.0.1:4010/x',
      'x',
      'http://127.0.0.1:4010, http://127.0.0.1:4010',
    ];
    for (const origin of origins) {
      const r = refusal({ headers: { origin } });
      expect(r?.status, origin).toBe(403);
      expect(r?.body.code).toBe('FORBIDDEN_ORIGIN');
      expect(r?.body.message).toContain('origin:');
    }
    for (const site of ['cross-site', 'same-site', 'other']) {
      const r = refusal({ headers: { 'sec-fetch-site': site, origin: 'http://127.0.0.1:4010' } });
      expect(r?.status, site).toBe(403);
      expect(r?.body.message).toContain(`sec-fetch-site: '${site}'`);
    }
    // A request that names no host has no origin of its own to match.
    expect(refusal({ host: null, headers: { origin: 'http://127.0.0.1:4010' } })?.status).toBe(403);
  });

  it('refuses on every admin route, reads as writes, and never on an API route', () => {
    for (const [method, path] of [
      ['GET', '/__mock/state'],
      ['GET', '/__mock/'],
      ['GET', '/__mock/requests'],
      ['POST', '/__mock/clock'],
      ['DELETE', '/__mock/snapshots/a'],
    ]) {
      expect(refusal({ method, path, headers: { 'sec-fetch-site': 'cross-site' } })?.status, path).toBe(403);
    }
    expect(
      refusal({ method: 'POST', path: '/v1/orders', headers: { 'sec-fetch-site': 'cross-site', origin: 'http://evil.example' } }),
    ).toBeNull();
  });

  it('refuses a write whose body is not declared JSON (no type included) with a 415; JSON, or no body, goes on', () => {
    const body = { 'content-length': '16' };
    for (const type of [
      undefined,
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/jsonx',
      'json',
    ]) {
      const r = refusal({ path: '/__mock/faults', headers: { ...body, ...(type ? { 'content-type': type } : {}) } });
      expect(r?.status, type).toBe(415);
      expect(r?.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expect(refusal({ path: '/__mock/faults', headers: { 'transfer-encoding': 'chunked' } })?.status).toBe(415);
    for (const type of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json']) {
      expect(refusal({ path: '/__mock/faults', headers: { ...body, 'content-type': type } }), type).toBeNull();
    }
    expect(refusal({ path: '/__mock/reset', headers: { 'content-length': '0' } })).toBeNull();
    expect(refusal({ method: 'GET', path: '/__mock/state', headers: { 'content-length': '3' } })).toBeNull();
  });
});
