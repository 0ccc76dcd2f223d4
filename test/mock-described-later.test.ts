/**
 * A listing the market adds arrives with the fields the market reads and writes; its description (the
 * borrower, the bureau values) is written when something first reads or writes one of them, or between
 * requests after a move (engine/arrivals.ts, world/row-table.ts). Whenever that happens, the world is
 * the one it would have been had every listing been written whole when it arrived.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { emptyListingTable } from '../mock-server/world/listing-table.js';
import { describeAwaiting, describedLaterRow, rowOf, rowsAwaiting } from '../mock-server/world/row-table.js';
import { parseState, serializeState } from '../mock-server/world/persistence.js';
import { arrivals } from '../mock-server/engine/arrivals.js';
import type { Listing } from '../mock-server/world/world.js';
import { createHash } from 'node:crypto';
import { call, makeApp, tokenFor } from './engine-fixture.js';
import { step, STEP_ACCOUNTS, takeStep } from './helpers/engine-steps.js';
import { startMock } from './helpers/mock.js';

/** The listing fields of a seeded listing, description and market fields alike. */
const FIELDS = Object.keys(JSON.parse(JSON.stringify(makeApp({ listings: 5 }).ctx.world.listings.at(-1)))) as (keyof Listing)[];

/** The world's state text, read as a route reads it: the listings' columns brought up first (a move leaves that to its readers). */
const stateText = (app: MockApp): string => {
  app.ctx.engine.settle();
  return serializeState(app.ctx.world, app.ctx.clock.now());
};

describe('listings described later', () => {
  test('a moved world is the world it always was: its state text hashes as when every arriving listing was written whole', async () => {
    // Digests of serializeState after these moves, written by the mock before listings were described later (checked then);
    // since issue 38 with the seeded history posted and loans serviced as a servicer does (checked then: with the ledger,
    // loans, notes, accounts and outbox left out, each text hashed as the earlier world's did); since issue 41 with terms at
    // the 2025–26 shares and no occupation with employment Other (checked then: with the uniform term draw and the
    // occupation kept, each text hashed to its earlier digest), and no loan defaulted before its first due date (seed 11's
    // world moved by that alone: checked as in seed.test.ts); since issue 41's bid expiry with simulated investors' appetite
    // 0.8 to 2.2 (checked then: with 0.3 to 1.7 restored, each text hashed to its earlier digest); since issue 43 with the
    // seeded active listings created in numbering order and the special ones taken from its middle: re-pinned (their
    // seeded worlds differ from the earlier ones only in those dates and roles: seed.test.ts).
    const worlds: Array<[{ seed: number; listings: number; start: string; days: number }, string]> = [
      [
        { seed: 7, listings: 300, start: '2026-03-02T12:00:00Z', days: 5 },
        '494006d6ef87adad3ba0e758fef2e23df3aa4817d29ec556cd9956e5ff47e098',
      ],
      // Before the bureau1 cut-off: arriving listings carry bureau1 values too.
      [
        { seed: 11, listings: 130, start: '2016-02-01T00:00:00Z', days: 3 },
        '84f2cfd6acc57488500e8fcfac02cd7611467b32bc28067087de8c33d06dcd7a',
      ],
      [
        { seed: 3, listings: 2000, start: '2026-03-02T12:00:00Z', days: 16 },
        '6bb21727e3fb5c67eebbd7340b60bb78246a0c75b90e5c48c4c3381a990da800',
      ],
    ];
    for (const [w, digest] of worlds) {
      const start = Date.parse(w.start);
      // Steady arrivals, as these worlds were made (before release times): the digests guard describing later, not the schedule.
      const app = makeApp({ seed: w.seed, listings: w.listings, start, admin: false, releases: 'steady' });
      app.ctx.engine.sync();
      await app.ctx.engine.moveClock((now) => now + w.days * 86_400_000);
      expect(rowsAwaiting(app.ctx.world.listingTable)).toBeGreaterThan(0);
      expect(createHash('sha256').update(stateText(app)).digest('hex'), JSON.stringify(w)).toBe(digest);
      await app.close?.();
    }
  });

  test('orders on arrived listings, their origination and a search give the world they always did', async () => {
    const app = makeApp({ listings: 300, releases: 'steady' });
    const token = tokenFor(app, 'alice-1');
    const seeded = app.ctx.world.listings.length;
    await call(app, 'POST', '/__mock/clock', { body: { advance: '1d' } });
    const arrived = app.ctx.world.listings
      .slice(seeded)
      .filter((l) => l.listing_status === 2 && l.investment_typeid === 1)
      .slice(0, 15);
    expect(arrived).toHaveLength(15);
    const placed = await call(app, 'POST', '/v1/orders', {
      token,
      body: { bid_requests: arrived.map((l) => ({ listing_id: l.listing_number, bid_amount: 50 })) },
    });
    expect(placed.status).toBe(200);
    await call(app, 'POST', '/__mock/clock', { body: { advance: '3h' } });
    await call(app, 'POST', '/__mock/process');
    await call(app, 'POST', '/__mock/clock', { body: { advance: '20d' } });
    expect((await call(app, 'GET', '/listingsvc/v2/listings/?fico_score=760-779&limit=50', { token })).status).toBe(200);
    expect(
      app.ctx.world.notes.filter((n) => n.accountId === 'alice-1' && arrived.some((l) => l.listing_number === n.listingNumber)).length,
    ).toBeGreaterThan(0);
    // The digest of this world's state text as the mock wrote it when every arriving listing was written whole (checked then;
    // since issue 38 with its books as posted, since issue 41 with the 2025–26 terms and occupations and the appetite of its
    // bid expiry: checked as above; since issue 43 with the seeded listings created in numbering order: re-pinned).
    expect(createHash('sha256').update(stateText(app)).digest('hex')).toBe(
      '4b128566657d47267432ce2a14dde06cc536a89c869413fa30338cd79709c80c',
    );
  });

  test('a world read at random times, described after every step, or read only at the end is the same world', async () => {
    let sawAwaiting = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 2, maxLength: 10 }),
        fc.array(fc.record({ row: fc.nat(), field: fc.nat(FIELDS.length - 1), whole: fc.boolean() }), { minLength: 1, maxLength: 40 }),
        async (steps, reads) => {
          const apps = [makeApp({ listings: 150 }), makeApp({ listings: 150 }), makeApp({ listings: 150 })];
          const [late, eager, reader] = apps as [MockApp, MockApp, MockApp];
          const tokens = apps.map((app) => STEP_ACCOUNTS.map((a) => tokenFor(app, a)));
          const seeded = late.ctx.world.listings.length;
          for (const [k, s] of steps.entries()) {
            for (const [i, app] of apps.entries()) await takeStep(app, tokens[i]!, s);
            // A day at least between steps: listings arrive, fund, end and originate while some await their description.
            for (const app of apps) await call(app, 'POST', '/__mock/clock', { body: { advance: '1d' } });
            describeAwaiting(eager.ctx.world.listingTable);
            expect(rowsAwaiting(eager.ctx.world.listingTable)).toBe(0);
            sawAwaiting = Math.max(sawAwaiting, rowsAwaiting(late.ctx.world.listingTable));
            // Reads of any field of arrived listings (the description's or the market's), some of the whole listing.
            const all = reader.ctx.world.listings;
            for (const r of reads.slice(0, 1 + (k % reads.length))) {
              const l = all[seeded + (r.row % Math.max(1, all.length - seeded))] ?? all.at(-1)!;
              if (r.whole) JSON.stringify(l);
              else void l[FIELDS[r.field]!];
            }
          }
          expect(stateText(reader)).toBe(stateText(eager));
          expect(stateText(late)).toBe(stateText(eager));
        },
      ),
      { numRuns: 8, seed: 20261126 },
    );
    // The late world had listings awaiting their description (else the property said nothing).
    expect(sawAwaiting).toBeGreaterThan(10);
  }, 120_000);

  test('a move describes none of the listings it adds; reading or writing one field describes that listing alone, and a write outlasts it', async () => {
    const app = makeApp({ listings: 300 });
    const world = app.ctx.world;
    const seeded = world.listings.length;
    await call(app, 'POST', '/__mock/clock', { body: { advance: '2d' } });
    const arrived = world.listings.length - seeded;
    expect(arrived).toBeGreaterThan(20);
    // All but the world's first arrival, added whole so that every field of one has a column.
    expect(rowsAwaiting(world.listingTable)).toBe(arrived - 1);
    const [a, b, c] = world.listings.slice(seeded + 3, seeded + 6) as [Listing, Listing, Listing];
    // Market fields read nothing more.
    void a.amount_funded;
    void a.listing_end_date;
    expect(rowsAwaiting(world.listingTable)).toBe(arrived - 1);
    expect(a.fico_score).toMatch(/^\d{3}-\d{3}$|^<600$|^>=\d/);
    expect(rowsAwaiting(world.listingTable)).toBe(arrived - 2);
    // A write of a description field lands after the description, not under it.
    b.occupation = 'Written by the test';
    expect(rowsAwaiting(world.listingTable)).toBe(arrived - 3);
    expect(b.occupation).toBe('Written by the test');
    expect(typeof b.member_key).toBe('string');
    expect(JSON.parse(JSON.stringify(c)).bureau2).toEqual(c.bureau2);
    expect(rowsAwaiting(world.listingTable)).toBe(arrived - 4);
    expect(rowOf(c)).toBe(seeded + 5);
    // A table without columns yet (a world loaded without listings) cannot make such a row: the market then adds the listing whole.
    expect(describedLaterRow(emptyListingTable(), { ...a }, () => undefined, 0)).toBeNull();
  });

  test("the ticks give a world's table one describer for the world's life, so the code that calls it is not thrown away each tick", async () => {
    // A new function each tick made V8's optimised code that describes rows ("wrong call target") be thrown away and
    // compiled again: six times in a year of clock moves at 100,000 listings (--trace-deopt).
    const app = makeApp({ listings: 300 });
    const world = app.ctx.world;
    await call(app, 'POST', '/__mock/clock', { body: { advance: '1d' } });
    const describer = world.listingTable.describer;
    expect(describer).toBeTypeOf('function');
    const before = world.listings.length;
    await call(app, 'POST', '/__mock/clock', { body: { advance: '1d' } });
    // The second day's ticks added listings, each given the table's describer again.
    expect(world.listings.length).toBeGreaterThan(before);
    expect(world.listingTable.describer).toBe(describer);
    // The one it gives describes its own world's rows: a reset's new world gets one of its own.
    await call(app, 'POST', '/__mock/reset');
    await call(app, 'POST', '/__mock/clock', { body: { advance: '1d' } });
    expect(app.ctx.world).not.toBe(world);
    expect(app.ctx.world.listingTable.describer).toBeTypeOf('function');
    expect(app.ctx.world.listingTable.describer).not.toBe(describer);
    const arrived = app.ctx.world.listings.at(-1)!;
    expect(rowsAwaiting(app.ctx.world.listingTable)).toBeGreaterThan(0);
    expect(arrived.fico_score).toMatch(/^\d{3}-\d{3}$|^<600$|^>=\d/);
  });

  test('in a world loaded from a file whose listings lack a field of the description, an arrived listing reads it as if written whole', () => {
    const app = makeApp({ listings: 300 });
    const text = serializeState(app.ctx.world, app.ctx.clock.now());
    const body = JSON.parse(text.slice(text.indexOf('\n') + 1));
    // An older mock's file: no listing has the credit report date.
    for (const l of body.store.listings) delete l.creditReportDate;
    const older = JSON.stringify(body);
    const file = `MKT-MOCK-STATE v1 bytes=${Buffer.byteLength(older)} sha256=${createHash('sha256').update(older).digest('hex')}\n${older}`;
    const lacking = parseState(file).world;
    const whole = parseState(text).world;
    const seeded = lacking.listings.length;
    for (const world of [lacking, whole]) for (let h = 1; h <= 30; h++) arrivals(world, world.engine.lastTick + h * 3_600_000);
    const arrived = lacking.listings.slice(seeded);
    expect(arrived.length).toBeGreaterThan(5);
    // Read first, before any other field of the description: the listing is described, not read as undefined.
    for (const [k, l] of arrived.entries()) expect(l.creditReportDate, `arrival ${k}`).toBe(whole.listings[seeded + k]!.creditReportDate);
    expect(typeof arrived.at(-1)!.creditReportDate).toBe('number');
    // The same values (in the older file's table the field's column comes last: another order of fields).
    expect(JSON.parse(JSON.stringify(arrived))).toEqual(JSON.parse(JSON.stringify(whole.listings.slice(seeded))));
  });

  test('a listening mock describes what a move added between requests', async () => {
    const mock = await startMock({ listings: 3_000 });
    try {
      const moved = await fetch(`${mock.origin}/__mock/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"advance":"4d"}',
      });
      expect(moved.status).toBe(200);
      const table = () => mock.app.ctx.world.listingTable;
      const awaiting = rowsAwaiting(table());
      expect(awaiting).toBeGreaterThan(500);
      let turns = 0;
      while (rowsAwaiting(table()) > 0 && turns < 500) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        turns++;
      }
      expect(rowsAwaiting(table())).toBe(0);
      expect(turns).toBeGreaterThan(0);
    } finally {
      await mock.close();
    }
  });
});
