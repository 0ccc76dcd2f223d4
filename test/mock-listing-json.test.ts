/**
 * The listings endpoint serves rows from each listing's kept JSON text (mock-server/search/listing-json.ts):
 * the served text equals the uncached view (`listingView` of a full scan's page, serialised) after
 * random orders, processing, clock moves and withdrawals, for every kind of request a kept text
 * depends on (zone, bureaus, loan fields, the caller's participation); and a repeated search builds
 * no row again.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { listEnvelope } from '../mock-server/route-helper/route.js';
import { JsonPage, listingsSearch } from '../mock-server/routes/listings.js';
import { parseListingQuery, scanListingQuery } from '../mock-server/search/listing-query.js';
import { listingView } from '../mock-server/search/listing-view.js';
import { participationOf } from '../mock-server/world/world-index.js';
import { makeApp, tokenFor } from './engine-fixture.js';
import { ACCOUNTS, applyStep, step } from './helpers/listing-steps.js';

/** Requests whose rows are kept apart: the default, a zone, both bureaus, and originated listings with loan fields. */
const REQUESTS: { params: Record<string, string>; zone?: string }[] = [
  { params: { limit: '40' } },
  { params: { limit: '40' }, zone: 'America/New_York' },
  { params: { limit: '40', include_credit_bureau_values: 'bureau1,bureau2', sort_by: 'amount_funded desc' } },
  { params: { limit: '40', biddable: 'false' }, zone: 'Asia/Kolkata' },
];

const seen = { rows: 0, investedRows: 0 };

async function served(app: MockApp, token: string, params: Record<string, string>, zone: string | undefined): Promise<string> {
  const headers: Record<string, string> = { authorization: `bearer ${token}` };
  if (zone) headers.timezone = zone;
  const res = await app.handle(new Request(`http://mock.test/listingsvc/v2/listings/?${new URLSearchParams(params)}`, { headers }));
  expect(res.status).toBe(200);
  return res.text();
}

/** The answer without kept texts: a full scan's page, each row built by `listingView`, serialised as a whole. */
function reference(app: MockApp, account: string, params: Record<string, string>, zone: string | undefined): string {
  const world = app.ctx.world;
  const q = parseListingQuery(new URLSearchParams(params), zone);
  const participation = participationOf(world, account);
  const { page, total } = scanListingQuery(world.listings, q, participation);
  const view = { zone, participation, bureaus: q.bureaus, showLoanFields: q.showLoanFields };
  seen.rows += page.length;
  seen.investedRows += page.filter((l) => participation.has(l.listing_number)).length;
  return JSON.stringify(
    listEnvelope(
      page.map((l) => listingView(l, view)),
      total,
    ),
  );
}

/** Each request once, by an account that turns with `turn`, so every account asks every kind of request over a run. */
async function expectSameText(app: MockApp, tokens: readonly string[], turn: number, after: string): Promise<void> {
  for (const [r, { params, zone }] of REQUESTS.entries()) {
    const a = (r + turn) % ACCOUNTS.length;
    expect(await served(app, tokens[a]!, params, zone), `${after}: ${ACCOUNTS[a]} ${new URLSearchParams(params)} ${zone ?? ''}`).toBe(
      reference(app, ACCOUNTS[a]!, params, zone),
    );
  }
}

describe('kept listing view texts', () => {
  test('serve the uncached view after random orders, processing, clock moves and withdrawals', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), async (steps) => {
        const app = makeApp({ listings: 60 });
        const tokens = ACCOUNTS.map((a) => tokenFor(app, a));
        await expectSameText(app, tokens, 0, 'at start');
        for (const [i, s] of steps.entries()) {
          await applyStep(app, tokens, s);
          await expectSameText(app, tokens, i + 1, `after ${JSON.stringify(s)}`);
          // Asked again of a world that did not change: the page kept whole (routes/listings.ts).
          await expectSameText(app, tokens, i + 1, `again after ${JSON.stringify(s)}`);
        }
      }),
      { numRuns: 20, seed: 20261123 },
    );
    // Not met vacuously: pages held rows, some of them of listings the caller holds a part of.
    expect(seen.rows).toBeGreaterThan(1000);
    expect(seen.investedRows).toBeGreaterThan(10);
    // 20 worlds: 5–7 s on a quiet machine, past the 30 s default on a loaded one.
  }, 120_000);

  test('a kept row is not served once its listing is funded, and the funder sees its participation', async () => {
    const app = makeApp({ listings: 60 });
    const tokens = ACCOUNTS.map((a) => tokenFor(app, a));
    const l = app.ctx.world.listings.find(
      (x) => x.listing_status === 2 && x.investment_typeid === 1 && !x.mockRole && !x.borrowerUserId && x.amount_remaining >= 100,
    )!;
    const params = { listing_number: String(l.listing_number) };
    const before = JSON.parse(await served(app, tokens[0]!, params, undefined)).result[0];
    const res = await app.handle(
      new Request('http://mock.test/v1/orders', {
        method: 'POST',
        headers: { authorization: `bearer ${tokens[0]}`, 'content-type': 'application/json' },
        body: JSON.stringify({ bid_requests: [{ listing_id: l.listing_number, bid_amount: 75 }] }),
      }),
    );
    expect(res.status).toBe(200);
    await applyStep(app, tokens, { kind: 'process' });
    const after = JSON.parse(await served(app, tokens[0]!, params, undefined)).result[0];
    expect(after.amount_funded).toBe(before.amount_funded + 75);
    expect(after.amount_participation).toBeGreaterThanOrEqual(75);
    expect(after.invested).toBe(true);
    // Another caller gets the same listing's row without alice's participation.
    const bob = JSON.parse(await served(app, tokens[1]!, params, undefined)).result[0];
    expect({ ...bob, amount_participation: after.amount_participation, invested: true }).toEqual(after);
    expect(bob.amount_participation).toBe(0);
  });

  test('a page asked again of an unchanged world is its kept bytes, one buffer; any change to the world or the caller builds it again', async () => {
    const app = makeApp({ listings: 200 });
    const search = listingsSearch(app.ctx);
    // Tokens first: issuing one is a change to the world.
    const tokens = new Map(['alice-1', 'bob-1'].map((a) => [a, tokenFor(app, a)]));
    const ask = async (account: string, params = 'limit=25'): Promise<JsonPage> => {
      const request = {
        method: 'GET',
        url: `http://mock.test/listingsvc/v2/listings/?${params}`,
        headers: new Headers({ authorization: `bearer ${tokens.get(account)}` }),
        body: null,
        text: async () => '',
      };
      const answer = await search.direct(request);
      expect(answer).toBeInstanceOf(JsonPage);
      return answer as JsonPage;
    };
    // The first search also builds the listing indexes (which moves the listings' version): its page is kept all the same.
    const first = await ask('alice-1');
    expect(first.chunks.length).toBeGreaterThan(20);
    const again = await ask('alice-1');
    expect(again.chunks).toHaveLength(1);
    expect(again.body().equals(first.body())).toBe(true);
    expect(again.serialised).toBe(reference(app, 'alice-1', { limit: '25' }, undefined));
    // Another query, another caller, a tick: each is built again, and is what the uncached view says.
    expect((await ask('alice-1', 'limit=26')).chunks.length).toBeGreaterThan(20);
    const bob = await ask('bob-1');
    expect(bob.chunks.length).toBeGreaterThan(20);
    expect(bob.serialised).toBe(reference(app, 'bob-1', { limit: '25' }, undefined));
    app.ctx.clock.advance(3 * 3_600_000);
    const moved = await ask('alice-1');
    expect(moved.chunks.length).toBeGreaterThan(20);
    expect(moved.serialised).toBe(reference(app, 'alice-1', { limit: '25' }, undefined));
    expect(moved.serialised).not.toBe(first.serialised);
    expect((await ask('alice-1')).chunks).toHaveLength(1);
  });

  test('a repeated search builds no row again', async () => {
    const app = makeApp({ listings: 200 });
    const world = app.ctx.world;
    const token = tokenFor(app, 'alice-1');
    let reads = 0;
    // Only building a row reads member_key (the search never filters on it).
    world.listings = world.listings.map(
      (l) =>
        new Proxy(l, {
          get: (t, p, r) => {
            if (p === 'member_key') reads++;
            return Reflect.get(t, p, r);
          },
        }),
    );
    const first = await served(app, token, { limit: '100' }, 'Europe/Paris');
    expect(reads).toBeGreaterThanOrEqual(100);
    reads = 0;
    expect(await served(app, token, { limit: '100' }, 'Europe/Paris')).toBe(first);
    expect(reads).toBe(0);
    // Another zone formats dates differently: its rows are built (once) and differ.
    const utc = await served(app, token, { limit: '100' }, undefined);
    expect(reads).toBeGreaterThanOrEqual(100);
    expect(utc).not.toBe(first);
  });
});
