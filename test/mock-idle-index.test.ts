/**
 * The listing index built between requests (search/index-build.ts, the engine's idle work): after a start and the idle
 * work, a first search builds nothing and answers as a search that built the index itself; a listing changed while the
 * build is under way is indexed as it is now; the idle work keeps a kept listings page, and a change of the world that
 * changes the page (a clock move, a withdrawal, an order) gives the new page.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { LISTING_STATUS, READ_WRITE_SCOPES } from '../src/contract/enums.js';
import { setStatus } from '../mock-server/engine/listing-status.js';
import { buildIndexSome, IDLE_VALUE_FIELDS } from '../mock-server/search/index-build.js';
import { listingIndex, positionsWith } from '../mock-server/search/listing-index.js';
import { seedWorld } from '../mock-server/seed/seed.js';
import type { ListingIndex } from '../mock-server/world/derived.js';
import type { World } from '../mock-server/world/world.js';
import { call, DAY, plainListings } from './engine-fixture.js';
import { issueTestToken, startMock, TEST_START, testMockApp, type TestMock } from './helpers/mock.js';

const SEARCHES = [
  '/listingsvc/v2/listings?limit=25',
  '/listingsvc/v2/listings?limit=25&fico_score=700-719,720-739&sort_by=lender_yield%20desc',
  '/listingsvc/v2/listings?limit=50&offset=40&listing_term=36&borrower_rate_min=0.1',
  '/listingsvc/v2/listings?limit=25&biddable=false',
];

/** True once the idle work has built the index and the value indexes it builds. */
const indexed = (world: World): boolean =>
  world.index.listings !== null && IDLE_VALUE_FIELDS.every((f) => world.index.listings!.byValue.has(f));

/** Waits (a bounded number of short turns) until `done`; false when it never came. */
async function until(done: () => boolean): Promise<boolean> {
  for (let i = 0; i < 400 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return done();
}

/** A bit set's words without the zero words at its end (a set grown by doubling and one made to size hold the same positions). */
const trimmed = (words: Uint32Array): number[] => {
  let n = words.length;
  while (n > 0 && words[n - 1] === 0) n--;
  return [...words.subarray(0, n)];
};

/** What an index says, comparable whatever the sizes its sets were made with. */
function contents(index: ListingIndex, fields: readonly string[]) {
  const sets = (m: Map<unknown, { words: Uint32Array }>) =>
    [...m]
      .map(([k, b]) => [k, trimmed(b.words)] as const)
      .filter(([, w]) => w.length > 0)
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
  return {
    size: index.size,
    base: index.base,
    inPlace: index.inPlace,
    position: [...index.position].sort((a, b) => a[1] - b[1]),
    byStatus: sets(index.byStatus),
    originated: trimmed(index.originated.words),
    byValue: fields.map((f) => sets(index.byValue.get(f)!)),
  };
}

async function page(app: MockApp, token: string, path: string): Promise<string> {
  const res = await app.handle(new Request(`http://127.0.0.1:1${path}`, { headers: { authorization: `bearer ${token}` } }));
  expect(res.status).toBe(200);
  return res.text();
}

describe('the listing index built between requests', () => {
  let mock: TestMock | null = null;
  afterEach(async () => {
    await mock?.close();
    mock = null;
  });

  it('after the start and the idle work, a first search builds nothing and answers as one that built the index', async () => {
    mock = await startMock({ seed: 5, listings: 3000 });
    const world = mock.app.ctx.world;
    expect(await until(() => mock!.app.ctx.engine.idle)).toBe(true);
    expect(indexed(world)).toBe(true);
    const index = world.index.listings!;
    const built = new Map(index.byValue);
    const size = index.size;
    const versions = [world.index.listingsVersion, mock.app.ctx.engine.version];
    const plain = testMockApp({ seed: 5, listings: 3000, frozen: true, start: TEST_START });
    try {
      const [token, plainToken] = [issueTestToken(mock.app), issueTestToken(plain)];
      const first = await page(mock.app, token, SEARCHES[0]!);
      // The search found the index and the value index it reads ready: it built neither, nor caught the index up.
      expect(world.index.listings).toBe(index);
      expect(index.size).toBe(size);
      expect(new Map(index.byValue)).toEqual(built);
      for (const [f, m] of built) expect(index.byValue.get(f)).toBe(m);
      // Installing the index moved no version: it changed no answer.
      expect([world.index.listingsVersion, mock.app.ctx.engine.version]).toEqual(versions);
      expect(first).toBe(await page(plain, plainToken, SEARCHES[0]!));
      for (const path of SEARCHES.slice(1)) expect(await page(mock.app, token, path)).toBe(await page(plain, plainToken, path));
      const fields = [...IDLE_VALUE_FIELDS];
      expect(contents(index, fields)).toEqual(contents(plain.ctx.world.index.listings!, fields));
    } finally {
      await plain.close?.();
    }
  });

  it('a listing changed while the build is under way is indexed as it is now (the build starts over)', () => {
    const opts = { seed: 9, listings: 700, now: TEST_START, history: 'seeded' } as const;
    const SLICE = 256;
    for (const phase of ['index', 'values'] as const) {
      const [built, fresh] = [seedWorld(opts), seedWorld(opts)];
      // A few slices: the first rows read (the index's, or the value index's once the index stands).
      const slices = phase === 'index' ? 2 : Math.ceil(built.listings.length / SLICE) + 1;
      for (let i = 0; i < slices; i++) expect(buildIndexSome(built, SLICE)).toBe(false);
      expect(built.index.listings !== null).toBe(phase === 'values');
      // Withdraw an active listing among the rows read, in both worlds.
      const row = built.listings.findIndex((l, r) => r < SLICE && l.listing_status === LISTING_STATUS.ACTIVE);
      expect(row).toBeGreaterThanOrEqual(0);
      for (const w of [built, fresh]) setStatus(w, w.listings[row]!, LISTING_STATUS.WITHDRAWN, TEST_START);
      let n = 0;
      while (!buildIndexSome(built, SLICE)) expect(++n).toBeLessThan(1000);
      listingIndex(fresh);
      for (const f of IDLE_VALUE_FIELDS) positionsWith(fresh, f, []);
      const fields = [...IDLE_VALUE_FIELDS];
      expect(contents(built.index.listings!, fields)).toEqual(contents(fresh.index.listings!, fields));
      expect(built.index.listings!.byStatus.get(LISTING_STATUS.WITHDRAWN)?.has(row)).toBe(true);
      expect(built.index.listings!.byStatus.get(LISTING_STATUS.ACTIVE)?.has(row)).toBe(false);
    }
  });

  it('under any interleaving of slices, listing changes and searches, the index built is the one a search builds of the world as it ends', () => {
    const opts = { seed: 4, listings: 300, now: TEST_START, history: 'seeded' } as const;
    type Step = { kind: 'slice'; rows: number } | { kind: 'status'; row: number; status: number } | { kind: 'search' };
    const stepArb: fc.Arbitrary<Step> = fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('slice' as const), rows: fc.integer({ min: 1, max: 200 }) }) },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('status' as const),
          row: fc.nat(499),
          status: fc.constantFrom(LISTING_STATUS.WITHDRAWN, LISTING_STATUS.PENDING, LISTING_STATUS.CANCELLED, LISTING_STATUS.EXPIRED),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('search' as const) }) },
    );
    const fields = [...IDLE_VALUE_FIELDS];
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 40 }), (steps) => {
        const [built, fresh] = [seedWorld(opts), seedWorld(opts)];
        for (const s of steps) {
          if (s.kind === 'slice') buildIndexSome(built, s.rows);
          else if (s.kind === 'search') listingIndex(built);
          else {
            const row = s.row % built.listings.length;
            if (built.listings[row]!.listing_status !== LISTING_STATUS.ACTIVE) continue;
            for (const w of [built, fresh]) setStatus(w, w.listings[row]!, s.status, TEST_START);
          }
        }
        let n = 0;
        while (!buildIndexSome(built, 64)) expect(++n).toBeLessThan(1000);
        listingIndex(fresh);
        for (const f of fields) positionsWith(fresh, f, []);
        expect(contents(built.index.listings!, fields)).toEqual(contents(fresh.index.listings!, fields));
      }),
      { numRuns: 40 },
    );
  });

  it('the idle work keeps a kept page; a clock move, a withdrawal and an order give the new page', async () => {
    mock = await startMock({ seed: 6, listings: 2000 });
    const app = mock.app;
    const world = () => app.ctx.world;
    const idle = () => until(() => app.ctx.engine.idle);
    expect(await idle()).toBe(true);
    // A token that outlives the clock moves.
    const token = issueTestToken(app, 'alice-1', READ_WRITE_SCOPES, 86_400_000);
    const path = '/listingsvc/v2/listings?limit=25';
    const keptEntry = () => [...world().index.keptPages.values()][0];
    const before = await page(app, token, path);
    const kept = keptEntry();
    expect(await page(app, token, path)).toBe(before);
    expect(keptEntry()).toBe(kept);

    // A clock move changes the listings (funding, verification): the page asked at once is the new world's.
    expect((await call(app, 'POST', '/__mock/clock', { body: { advance: '6h' } })).status).toBe(200);
    const moved = await page(app, token, path);
    expect(moved).not.toBe(before);
    const afterMove = keptEntry();
    expect(afterMove).not.toBe(kept);
    // The idle work after the move (settling, describing, the index's catch-up) keeps that page: it changed no answer.
    expect(await idle()).toBe(true);
    expect(await page(app, token, path)).toBe(moved);
    expect(keptEntry()).toBe(afterMove);

    // A withdrawal of a listing on the page: the page no longer shows it.
    const shown = (JSON.parse(moved) as { result: { listing_number: number }[] }).result.map((l) => l.listing_number);
    expect((await call(app, 'POST', `/__mock/listings/${shown[0]}/withdraw`)).status).toBe(200);
    const withdrawn = await page(app, token, path);
    expect((JSON.parse(withdrawn) as { result: { listing_number: number }[] }).result.map((l) => l.listing_number)).not.toContain(shown[0]);

    // An order for a listing on the page, processed: the page shows the caller's participation in it.
    // The page's listings are the oldest (numbered as created): any that takes a bid now will do, the order is processed at once.
    const target = plainListings(app, DAY, 0).find(
      (l) =>
        l.amount_remaining >= 100
        && (JSON.parse(withdrawn) as { result: { listing_number: number }[] }).result.some((r) => r.listing_number === l.listing_number),
    );
    expect(target).toBeDefined();
    const res = await call(app, 'POST', '/v1/orders', {
      token,
      body: { bid_requests: [{ listing_id: target!.listing_number, bid_amount: 25 }] },
    });
    expect(res.status).toBe(200);
    expect((await call(app, 'POST', '/__mock/process')).status).toBe(200);
    const ordered = JSON.parse(await page(app, token, path)) as { result: { listing_number: number; amount_participation?: number }[] };
    expect(ordered.result.find((l) => l.listing_number === target!.listing_number)?.amount_participation).toBe(25);
  });
});
