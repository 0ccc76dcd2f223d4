/**
 * One marketplace identity (issue 22, item 2): the order journal's key and the mock's router read a
 * base URL alike. Generated spellings of base URLs (scheme and host case, names of 127.0.0.1, the
 * default port, `//`, `\`, `.` and `x/..` segments escaped or not, escaped letters, trailing slashes,
 * path case) go both to the key and, as the CLI sends them, to an in-process mock: two spellings the
 * mock answers alike share a key, and spellings that reach different routes never both succeed with
 * different keys for one account.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { ApiClient } from '../src/api/client.js';
import type { Settings } from '../src/config/settings.js';
import { marketplaceAddress, marketplaceKey } from '../src/orders/marketplace.js';
import { issueTestToken, TEST_START, testMockApp } from './helpers/mock.js';

/** Path segments, letter case significant: `/v1` is the route, `/V1` another path (the mock's 404). */
const SEGMENTS = ['v1', 'V1', 'p', 'P', 'x'] as const;
const truePath = fc.array(fc.constantFrom(...SEGMENTS), { maxLength: 3 });

/** Names of the one server on 127.0.0.1 (WHATWG URL reads the numeric ones as 127.0.0.1; the key folds the names). */
const HOSTS = [
  '127.0.0.1',
  '127.1',
  '2130706433',
  '0x7f000001',
  '127.0.0.01',
  'localhost',
  'LocalHost',
  'localhost.',
  '[::1]',
  '[0:0::1]',
  '[::ffff:127.0.0.1]',
];

/** Choices that change how a path is written, never which path a router reads. */
const pathSpelling = fc.record({
  /** Per segment (and once at the end): what goes before it. */
  noise: fc.array(fc.constantFrom('', '/', '/.', '/%2e', '/%2E', '/x/..', '/y/%2e%2E', '/V1/.%2e'), { minLength: 4, maxLength: 4 }),
  /** `..` at the root, which removes nothing. */
  aboveRoot: fc.constantFrom('', '/..', '/%2E%2e/..'),
  /** Per character: escape it (%XX, hex in either case). */
  escapes: fc.array(fc.constantFrom('no', 'no', 'lower', 'upper'), { minLength: 8, maxLength: 8 }),
  backslash: fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
  trailing: fc.constantFrom('', '/', '//', '/.', '\\'),
});
const originSpelling = fc.record({
  host: fc.constantFrom(...HOSTS),
  schemeCase: fc.constantFrom('http', 'HTTP', 'Http'),
  defaultPort: fc.boolean(),
});
type PathSpelling = typeof pathSpelling extends fc.Arbitrary<infer T> ? T : never;
type OriginSpelling = typeof originSpelling extends fc.Arbitrary<infer T> ? T : never;

function escape(ch: string, how: string): string {
  if (how === 'no') return ch;
  const hex = ch.charCodeAt(0).toString(16);
  return `%${how === 'upper' ? hex.toUpperCase() : hex.toLowerCase()}`;
}

/** `segments` as a base URL on http://127.0.0.1 (port 80), spelt as `o` and `s` say. */
function spell(segments: readonly string[], o: OriginSpelling, s: PathSpelling): string {
  let i = 0;
  const segs = segments.map((seg, n) => {
    const text = [...seg].map((ch) => escape(ch, s.escapes[i++ % 8]!)).join('');
    return `${s.noise[n]}${s.backslash[n] ? '\\' : '/'}${text}`;
  });
  return `${o.schemeCase}://${o.host}${o.defaultPort ? ':80' : ''}${s.aboveRoot}${segs.join('')}${s.noise[3]}${s.trailing}`;
}

/** What the CLI sends for `path` under `baseUrl` (ApiClient.url, the one place it builds URLs). */
const sentUrl = (baseUrl: string, path: string) =>
  new ApiClient(undefined as never, { baseUrl } as Settings, undefined as never).url('base', path);

for (const basePath of ['', '/p/V1']) {
  describe(`the journal key and the mock's router${basePath ? ` under --base-path ${basePath}` : ''}`, () => {
    let app: MockApp;
    let token: string;
    beforeAll(() => {
      app = testMockApp({ seed: 3, listings: 10, frozen: true, start: TEST_START, ...(basePath ? { basePath } : {}) });
      token = issueTestToken(app);
    });
    afterAll(async () => {
      await app.close?.();
    });

    /** The status the mock gives `url` for the account read (the call that names the account the key is for). */
    const statusOf = async (url: string) => (await app.handle(new Request(url, { headers: { authorization: `bearer ${token}` } }))).status;

    /** Key, and the mock's answer to the URL as written (as undici would send it) and as the CLI sends it. */
    async function read(base: string) {
      const raw = await statusOf(`${base}/accounts/platform`);
      const sent = await statusOf(sentUrl(base, '/accounts/platform'));
      // The CLI sends to the path it keys by, as the key writes it.
      const keyed = new URL(marketplaceAddress(base)).pathname.replace(/\/$/, '');
      expect(new URL(sentUrl(base, '/accounts/platform')).pathname).toBe(`${keyed}/accounts/platform`);
      return { key: marketplaceKey(base, 'ext-alice'), raw, sent };
    }

    it('two spellings the mock answers alike share a key; spellings of different routes never both succeed with different keys', async () => {
      await fc.assert(
        fc.asyncProperty(truePath, truePath, originSpelling, originSpelling, pathSpelling, pathSpelling, async (p1, p2, o1, o2, s1, s2) => {
          const [a, b] = [await read(spell(p1, o1, s1)), await read(spell(p2, o2, s2))];
          for (const r of [a, b]) {
            expect([200, 404]).toContain(r.raw);
            // Sending the normalised address changes nothing the mock answers.
            expect(r.sent).toBe(r.raw);
          }
          if (a.raw === 200 && b.raw === 200) expect(a.key).toBe(b.key);
          // The key is no coarser than the router: one key, one answer.
          if (a.key === b.key) expect(a.raw).toBe(b.raw);
          // And no finer, among these paths: one path however spelt, one key.
          if (p1.join('/') === p2.join('/')) expect(a.key).toBe(b.key);
        }),
        { numRuns: 300 },
      );
    });

    it("reaches the account under the base path and its spellings, and nowhere a letter's case differs", async () => {
      const ok = `http://127.0.0.1${basePath}/v1`;
      expect((await read(ok)).raw).toBe(200);
      for (const same of [
        `HTTP://LOCALHOST:80${basePath}//v1/`,
        `http://127.1${basePath}/./x/../%76%31`,
        `http://[::1]${basePath.replace(/\//g, '//')}/v1\\`,
      ]) {
        const r = await read(same);
        expect(r.raw, same).toBe(200);
        expect(r.key, same).toBe(marketplaceKey(ok, 'ext-alice'));
      }
      for (const other of [
        `http://127.0.0.1${basePath}/V1`,
        `http://127.0.0.1${basePath.toLowerCase()}/v1`,
        `http://127.0.0.1${basePath}/v1/x`,
        `http://127.0.0.1${basePath}`,
      ].filter((u) => u !== ok)) {
        const r = await read(other);
        expect(r.raw, other).toBe(404);
        expect(r.key, other).not.toBe(marketplaceKey(ok, 'ext-alice'));
      }
    });
  });
}
