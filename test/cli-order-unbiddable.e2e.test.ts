/**
 * Not biddable means not sent (issue 41, item 4), end to end against the mock: a bids file split over several
 * orders is checked whole before its first order, and a listing that cannot take bids is left out with a line,
 * never sent, so no order is refused over it (the mock refuses a whole order over one: ORD0020, ORD0019).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setPending } from '../mock-server/engine/listing-status.js';
import { specialListing } from '../mock-server/seed/seed-extras.js';
import { runMkt, tempHome } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeEach(async () => {
  mock = await startMock({ listings: 400, frozen: true });
});
afterEach(async () => {
  await mock.close();
});

/** Active fractional listings that take a 25.00 bid from alice now, none special. */
function biddable(m: TestMock, n: number): number[] {
  const now = m.app.ctx.clock.now();
  const found = m.app.ctx.world.listings
    .filter(
      (l) =>
        l.listing_status === 2
        && l.investment_typeid === 1
        && l.amount_remaining >= 100
        && !l.borrowerUserId
        && now - l.listing_creation_date > 2 * 86_400_000
        && l.listing_start_date < now
        && !l.mockRole
        && !l.authorizedUsers
        && !l.investmentTypeUnset,
    )
    .map((l) => l.listing_number);
  expect(found.length).toBeGreaterThanOrEqual(n);
  return found.slice(0, n);
}

const placedIds = (m: TestMock) => [...m.app.ctx.world.orders.values()].flatMap((o) => o.bids.map((b) => b.listing_id));

describe('mkt order submit leaves out listings that cannot take bids', () => {
  it('a file of 150 with a listing not yet started in its second hundred: no order refused, 149 placed, one line for it', async () => {
    const home = tempHome();
    const ids = biddable(mock, 149);
    const late = specialListing(mock.app.ctx.world, 'not_started')!;
    // The search shows it (an active listing starting in 50 minutes); a bid on it is ORD0020 for its whole order.
    const search = await runMkt(['listings', 'search', '--listing_number', String(late.listing_number), '-o', 'json'], {
      env: mock.env,
      home,
    });
    expect(JSON.parse(search.stdout).result).toHaveLength(1);
    const file = [...ids.slice(0, 120), late.listing_number, ...ids.slice(120)];
    const path = join(home, 'bids.csv');
    writeFileSync(path, `listing_id,bid_amount\n${file.map((id) => `${id},25`).join('\n')}\n`);
    const r = await runMkt(['order', 'submit', path, '--yes', '--progress'], { env: mock.env, home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/rejected|ORD0020 |refused/);
    expect(r.stderr).toMatch(
      new RegExp(
        `leaving out 1 bid on listings that cannot take bids now:\\n {2}\\S*bids\\.csv line 122: listing ${late.listing_number}: it has not started: listing_start_date .* \\(ORD0020\\)`,
      ),
    );
    expect(r.stderr).toMatch(/order 1\/2 accepted: \S+ \(100 bids\)/);
    expect(r.stderr).toMatch(/order 2\/2 accepted: \S+ \(49 bids\)/);
    const placed = placedIds(mock);
    expect(placed).toHaveLength(149);
    expect(new Set(placed)).toEqual(new Set(ids));
  });

  it('a listing funded since the search (pending completion) is left out too, and the rest placed', async () => {
    const home = tempHome();
    const [a, b, c] = biddable(mock, 3);
    const pending = mock.app.ctx.world.listingByNumber.get(b!)!;
    setPending(mock.app.ctx.world, pending, mock.app.ctx.clock.now());
    const path = join(home, 'bids.csv');
    writeFileSync(path, `listing_id,bid_amount\n${a},25\n${b},25\n${c},25\n`);
    const r = await runMkt(['order', 'submit', path, '--yes'], { env: mock.env, home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`line 3: listing ${b}: the marketplace shows no active listing with this number`));
    expect(placedIds(mock)).toEqual([a, c]);
  });

  it('a listing the search shows without an investment type is left out (it would be ORD0037 for its whole order)', async () => {
    const home = tempHome();
    const [a, c] = biddable(mock, 2);
    const untyped = specialListing(mock.app.ctx.world, 'type_unset')!.listing_number;
    const search = await runMkt(['listings', 'search', '--listing_number', String(untyped), '-o', 'json'], {
      env: mock.env,
      home,
    });
    const shown = JSON.parse(search.stdout).result as Array<Record<string, unknown>>;
    expect(shown).toHaveLength(1);
    expect(shown[0]).not.toHaveProperty('investment_typeid');
    const path = join(home, 'bids.csv');
    writeFileSync(path, `listing_id,bid_amount\n${a},25\n${untyped},25\n${c},25\n`);
    const r = await runMkt(['order', 'submit', path, '--yes'], { env: mock.env, home });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`line 3: listing ${untyped}: it has no investment type \\(ORD0037\\)`));
    expect(r.stderr).not.toMatch(/ORD0037 |rejected|refused/);
    expect(placedIds(mock)).toEqual([a, c]);
  });

  it('--dry-run names the bid the run would leave out, keeps it out of the count and total, exits 2 and sends nothing', async () => {
    const home = tempHome();
    const [a] = biddable(mock, 1);
    const late = specialListing(mock.app.ctx.world, 'not_started')!;
    const path = join(home, 'bids.csv');
    writeFileSync(path, `listing_id,bid_amount\n${a},25\n${late.listing_number},30\n`);
    const r = await runMkt(['order', 'submit', path, '--dry-run'], { env: mock.env, home });
    expect(r.code, r.stderr).toBe(2);
    const rows = JSON.parse(r.stdout) as Array<{ listing_id: number; verdict: string }>;
    expect(rows.map((x) => x.verdict)).toEqual([
      'ok',
      expect.stringMatching(/^cannot take bids now: it has not started: .* \(ORD0020\): the run leaves it out$/),
    ]);
    expect(r.stderr).toMatch(/^1 bid, total 25\.00;/m);
    expect(placedIds(mock)).toEqual([]);
  });
});
