/**
 * A listings page is written as its rows' kept UTF-8 bytes (mock-server/search/listing-json.ts), corked,
 * with the caller's participation spliced in: the bytes on the wire must be the JSON of the same page
 * built fresh (`listingView` of a full scan's page, serialised whole), for random queries across zones,
 * bureau choices, loan fields, paging, sorts and callers with participation; a repeated page reuses the
 * kept bytes; and a listing's kept bytes are dropped when it changes.
 */
import { Agent } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { startHttpServer, type RunningServer } from '../mock-server/http-adapter.js';
import { listEnvelope } from '../mock-server/route-helper/route.js';
import { hasKeptBytes, listingPage } from '../mock-server/search/listing-json.js';
import { parseListingQuery, scanListingQuery } from '../mock-server/search/listing-query.js';
import { listingView } from '../mock-server/search/listing-view.js';
import { participationOf } from '../mock-server/world/world-index.js';
import { call, makeApp, plainListings, tokenFor } from './engine-fixture.js';
import { ACCOUNTS, applyStep } from './helpers/listing-steps.js';
import { rawRequest } from './helpers/raw-http.js';

const ZONES = [undefined, 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham'];
const BUREAUS = [undefined, 'bureau1', 'bureau2', 'bureau1,bureau2'];
const SORTS = [undefined, 'amount_funded desc', 'listing_number asc', 'borrower_rate desc'];

/** A random listings query and the account asking it. */
const query = fc.record({
  account: fc.nat(ACCOUNTS.length - 1),
  zone: fc.constantFrom(...ZONES),
  bureaus: fc.constantFrom(...BUREAUS),
  sort: fc.constantFrom(...SORTS),
  // biddable=false and invested=true ask for originated listings with loan fields.
  kind: fc.constantFrom('active', 'invested', 'originated'),
  limit: fc.integer({ min: 1, max: 80 }),
  offset: fc.nat(60),
});
type Query = typeof query extends fc.Arbitrary<infer T> ? T : never;

function paramsOf(q: Query): Record<string, string> {
  const params: Record<string, string> = { limit: String(q.limit), offset: String(q.offset) };
  if (q.bureaus) params.include_credit_bureau_values = q.bureaus;
  if (q.sort) params.sort_by = q.sort;
  if (q.kind === 'invested') params.invested = 'true';
  if (q.kind === 'originated') params.biddable = 'false';
  return params;
}

/** The page built fresh: a full scan's page, each row by `listingView`, serialised as a whole. */
function fresh(app: MockApp, account: string, params: Record<string, string>, zone: string | undefined) {
  const world = app.ctx.world;
  const q = parseListingQuery(new URLSearchParams(params), zone);
  const participation = participationOf(world, account);
  const { page, total } = scanListingQuery(world.listings, q, participation);
  const view = { zone, participation, bureaus: q.bureaus, showLoanFields: q.showLoanFields };
  return {
    text: JSON.stringify(
      listEnvelope(
        page.map((l) => listingView(l, view)),
        total,
      ),
    ),
    page,
    view,
    total,
  };
}

let app: MockApp;
let server: RunningServer;
let tokens: string[];
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** The page as the HTTP adapter writes it on the wire. */
async function wire(account: number, params: Record<string, string>, zone: string | undefined): Promise<{ text: string; length: number }> {
  const headers: Record<string, string> = { authorization: `bearer ${tokens[account]}` };
  if (zone) headers.timezone = zone;
  const a = await rawRequest(server.port, { target: `/listingsvc/v2/listings/?${new URLSearchParams(params)}`, headers }, agent);
  expect(a.status).toBe(200);
  return { text: a.text, length: Number(a.headers['content-length']) };
}

beforeAll(async () => {
  app = makeApp({ listings: 150 });
  tokens = ACCOUNTS.map((a) => tokenFor(app, a));
  // Every account invests in several listings, some of which then fund, end and originate.
  for (let i = 0; i < 24; i++) {
    await applyStep(app, tokens, { kind: 'order', account: i % ACCOUNTS.length, listing: i * 7, amount: 25 + 25 * i, whole: i % 11 === 5 });
    if (i % 8 === 7) await applyStep(app, tokens, { kind: 'advance', minutes: 3 * 24 * 60 });
  }
  await applyStep(app, tokens, { kind: 'process' });
  server = await startHttpServer(app);
});
afterAll(async () => {
  agent.destroy();
  await server.close();
});

describe('a page from kept bytes', () => {
  test('is byte for byte the JSON of the same page built fresh, on the wire and in process', async () => {
    let rows = 0;
    let invested = 0;
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const params = paramsOf(q);
        const account = ACCOUNTS[q.account]!;
        const want = fresh(app, account, params, q.zone);
        // Twice: the second page is written from the bytes the first one kept.
        for (let i = 0; i < 2; i++) {
          const got = await wire(q.account, params, q.zone);
          expect(got.text).toBe(want.text);
          expect(got.length).toBe(Buffer.byteLength(want.text));
        }
        expect(Buffer.concat(listingPage(app.ctx.world, want.page, want.view, want.total)).equals(Buffer.from(want.text))).toBe(true);
        rows += want.page.length;
        invested += want.page.filter((l) => want.view.participation.has(l.listing_number)).length;
      }),
      { numRuns: 150, seed: 20261126 },
    );
    // Not met vacuously: pages held rows, many of them with the caller's participation spliced in.
    expect(rows).toBeGreaterThan(1000);
    expect(invested).toBeGreaterThan(50);
  });

  test("reuses a listing's kept bytes, and drops them when the listing changes", async () => {
    const world = app.ctx.world;
    const l = plainListings(app).find((x) => x.amount_remaining >= 100)!;
    const params = { listing_number: String(l.listing_number) };
    // An account with the cash for a 25.00 bid (the set-up spent most of some).
    const account = ACCOUNTS.findIndex((a) => app.ctx.world.accounts.get(a)!.cash >= 1000);
    expect(account).toBeGreaterThanOrEqual(0);
    const view = () => fresh(app, ACCOUNTS[account]!, params, undefined);
    const before = view();
    const first = listingPage(world, before.page, before.view, before.total);
    expect(hasKeptBytes(world, l)).toBe(true);
    // The row is the same kept Buffer on every page, not a copy.
    expect(listingPage(world, before.page, before.view, before.total)[1]!.buffer).toBe(first[1]!.buffer);
    expect((await wire(account, params, undefined)).text).toBe(before.text);

    const res = await call(app, 'POST', '/v1/orders', {
      token: tokens[account],
      body: { bid_requests: [{ listing_id: l.listing_number, bid_amount: 25 }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await applyStep(app, tokens, { kind: 'process' });
    // Funding the bid changed the listing: its kept bytes are gone, and the next page shows the change.
    expect(hasKeptBytes(world, l)).toBe(false);
    const after = view();
    expect(after.text).not.toBe(before.text);
    expect((await wire(account, params, undefined)).text).toBe(after.text);
    expect(JSON.parse(after.text).result[0].amount_participation).toBeGreaterThanOrEqual(25);
    expect(hasKeptBytes(world, l)).toBe(true);
  });
});
