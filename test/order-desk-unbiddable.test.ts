/**
 * Not biddable means not sent (issue 41, item 4): the desk looks the whole file up before its first order and
 * leaves out, with a line each, the listings that cannot take bids; whyNotBiddable judges a listing as a search
 * shows it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApiClient, Call } from '../src/api/client.js';
import { whyNotBiddable } from '../src/orders/biddable.js';
import { lookUp } from '../src/orders/market-holds.js';
import { RejectedError } from '../src/api/errors.js';
import { EXIT } from '../src/errors.js';
import { bidsOn, failure, range, setup } from './helpers/desk-fakes.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const active = (extra: Record<string, unknown> = {}) => ({
  listing_number: 7,
  listing_status: 2,
  listing_status_reason: 'Active',
  investment_typeid: 1,
  listing_start_date: '2026-05-30 09:00:00 +0000',
  biddable: true,
  ...extra,
});

describe('whyNotBiddable', () => {
  it.each([
    ['biddable: false', { biddable: false }, /biddable: false/],
    ['a status other than Active', { listing_status: 8, listing_status_reason: 'Pending' }, /Pending \(8\), not Active.*ORD0019/],
    ['no investment type', { investment_typeid: undefined }, /no investment type \(ORD0037\)/],
    ['a null investment type', { investment_typeid: null }, /ORD0037/],
    ['a start ahead of the marketplace time', { listing_start_date: '2026-06-01 12:50:00 +0000' }, /has not started.*ORD0020/],
    ['a start ahead in another zone', { listing_start_date: '2026-06-01 08:00:01 -0400' }, /has not started/],
  ])('names %s', (_name, extra, why) => {
    expect(whyNotBiddable(active(extra), NOW)).toMatch(why);
  });

  it('takes an active, started listing of either investment type, and one started exactly now', () => {
    expect(whyNotBiddable(active(), NOW)).toBeNull();
    expect(whyNotBiddable(active({ investment_typeid: 2, listing_status: '2' }), NOW)).toBeNull();
    expect(whyNotBiddable(active({ listing_start_date: '2026-06-01 12:00:00 +0000' }), NOW)).toBeNull();
  });

  it('never throws, whatever the answer holds', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.integer(), (l, now) => {
        const why = whyNotBiddable(l, now);
        expect(why === null || typeof why === 'string').toBe(true);
      }),
    );
  });
});

describe('the desk leaves out listings that cannot take bids', () => {
  it('checks a file of 150 whole before its first order: the one in the second hundred is left out, 149 placed', async () => {
    const { api, desk, lines } = setup();
    api.cash = 10_000;
    const ids = range(150);
    api.unbiddable.set(ids[120]!, 'it has not started (ORD0020)');
    const placed = await desk.place(bidsOn(ids), { source: 'bids.csv' });
    expect(placed).toMatchObject({ verdict: 'placed', exitCode: EXIT.OK, orderIds: ['o1', 'o2'] });
    expect(api.orders.map((o) => o.bid_requests.length)).toEqual([100, 49]);
    expect(api.orders.flatMap((o) => o.bid_requests.map((b) => b.listing_id))).not.toContain(ids[120]);
    // One look-up of every listing, before the first POST.
    expect(api.investedAsked).toEqual([ids]);
    expect(lines).toContain(
      `leaving out 1 bid on listings that cannot take bids now:\n  bids.csv line 122: listing ${ids[120]}: it has not started (ORD0020)`,
    );
  });

  it('leaves them out beside held ones with skipHeld, each in its own report', async () => {
    const { api, desk, lines } = setup();
    api.participation.set(2, 25);
    api.unbiddable.set(3, 'its status is Pending (8), not Active: it cannot take bids (ORD0019)');
    await desk.place(bidsOn([1, 2, 3, 4]), { skipHeld: true });
    expect(api.orders[0]!.bid_requests.map((b) => b.listing_id)).toEqual([1, 4]);
    expect(lines).toContain('leaving out 1 bid on listings already held:\n  listing 2: the marketplace shows 25.00 of yours already in it');
    expect(lines).toContain(
      'leaving out 1 bid on listings that cannot take bids now:\n  listing 3: its status is Pending (8), not Active: it cannot take bids (ORD0019)',
    );
  });

  it('still refuses a file with held bids without skipHeld, sending nothing', async () => {
    const { api, desk } = setup();
    api.participation.set(2, 25);
    api.unbiddable.set(3, 'it has no investment type (ORD0037)');
    await expect(desk.place(bidsOn([1, 2, 3]))).rejects.toThrow(/refusing 1 bid that could place money twice/);
    expect(api.orders).toHaveLength(0);
  });

  it('leaves them out with allowDuplicate too: a bid again on a held listing, never one on a listing that takes none', async () => {
    const { api, desk } = setup();
    api.participation.set(2, 25);
    api.unbiddable.set(3, 'it has no investment type (ORD0037)');
    await desk.place(bidsOn([1, 2, 3]), { allowDuplicate: true });
    expect(api.orders[0]!.bid_requests.map((b) => b.listing_id)).toEqual([1, 2]);
  });

  it('sends nothing and asks nothing when no listing can take bids', async () => {
    const { api, desk, lines } = setup();
    api.unbiddable.set(1, 'it has no investment type (ORD0037)');
    const placed = await desk.place(bidsOn([1]), { confirm: async () => expect.fail('nothing to confirm') });
    expect(placed).toMatchObject({ verdict: 'placed', exitCode: EXIT.OK, orderIds: [] });
    expect(lines).toContain('no bid left on a listing that can take bids: nothing was sent');
    expect(api.orders).toHaveLength(0);
  });

  it('two faults: a listing stops taking bids after the look-up, sinking order 2 of 2; the rerun places the rest, each listing once', async () => {
    const { api, desk, lines } = setup();
    api.cash = 10_000;
    const ids = range(150);
    const late = ids[130]!;
    // The look-up saw every listing active; by the time order 2 goes, one is funded: the marketplace refuses it whole.
    const refusal = `Listing [${late}] is in status [PENDING_COMPLETION] and cannot currently accept bids.`;
    api.next.push('ok', new RejectedError(refusal, EXIT.REJECTED, 400, 'ORD0019', { code: 'ORD0019', message: refusal }));
    const first = await failure(desk.place(bidsOn(ids), { source: 'bids.csv' }));
    expect(first.message).toMatch(/^order 2\/2 rejected: .*PENDING_COMPLETION.*Orders already placed: o1\.$/);
    expect(api.orders).toHaveLength(1);
    // The rerun: order 1's listings are held, the funded one is now seen as such; the other 49 go, once.
    api.unbiddable.set(late, 'the marketplace shows no active listing with this number');
    const again = await desk.place(bidsOn(ids), { source: 'bids.csv', skipHeld: true });
    expect(again.orderIds).toEqual(['o2']);
    const placed = api.orders.flatMap((o) => o.bid_requests.map((b) => b.listing_id));
    expect(placed).toHaveLength(149);
    expect(new Set(placed).size).toBe(149);
    expect(placed).not.toContain(late);
    expect(lines.some((l) => l.startsWith('leaving out 100 bids on listings already held:'))).toBe(true);
    expect(lines).toContain(
      `leaving out 1 bid on listings that cannot take bids now:\n  bids.csv line 132: listing ${late}: the marketplace shows no active listing with this number`,
    );
  });
});

/** A client whose listings search answers `pageSize` at most a page, from `listings`, filtered by number unless `ignoresNumbers`. */
function searchClient(listings: Array<Record<string, unknown>>, pageSize: number, ignoresNumbers = false) {
  const asked: URLSearchParams[] = [];
  const client = {
    call: async <T>(c: Call<T>): Promise<T> => {
      const q = c.query!;
      asked.push(new URLSearchParams(q));
      const numbers = q.get('listing_number')!.split(',').map(Number);
      const whole = q.get('whole_loan') === 'true';
      const all = listings.filter(
        (l) => (ignoresNumbers || numbers.includes(l.listing_number as number)) && (l.investment_typeid === 2) === whole,
      );
      const offset = Number(q.get('offset'));
      const page = all.slice(offset, offset + Math.min(pageSize, Number(q.get('limit'))));
      return c.decode({ result: page, result_count: page.length, total_count: all.length }, 'answer');
    },
  } as unknown as ApiClient;
  return { client, asked };
}

describe('the look-up of a file', () => {
  const active = (n: number, extra: Record<string, unknown> = {}) => ({
    listing_number: n,
    listing_status: 2,
    investment_typeid: 1,
    listing_start_date: '2026-05-30 09:00:00 +0000',
    amount_participation: 0,
    invested: false,
    biddable: true,
    ...extra,
  });

  it('pages a search that answers fewer than asked a page: every listing found, none taken for gone', async () => {
    const { client, asked } = searchClient(
      range(60).map((n) => active(n)),
      25,
    );
    const found = await lookUp(client, range(60), () => NOW);
    expect(found.notBiddable).toEqual(new Map());
    expect(asked.map((q) => q.get('offset'))).toEqual(['0', '25', '50']);
  });

  it('asks no more pages than numbers from a search that ignores the numbers, and takes none it did not ask for', async () => {
    const { client, asked } = searchClient(
      range(5000, 1).map((n) => active(n)),
      25,
      true,
    );
    const found = await lookUp(client, [4000, 4001], () => NOW);
    expect(asked).toHaveLength(2);
    expect([...found.notBiddable.keys()]).toEqual([4000, 4001]);
  });

  it('finds a whole loan by its second search, and judges each listing found', async () => {
    const { client } = searchClient(
      [active(1), active(2, { investment_typeid: 2 }), active(3, { listing_start_date: '2026-06-02 09:00:00 +0000' })],
      100,
    );
    const found = await lookUp(client, [1, 2, 3, 4], () => NOW);
    expect([...found.notBiddable.keys()]).toEqual([3, 4]);
    expect(found.notBiddable.get(3)).toMatch(/has not started/);
    expect(found.notBiddable.get(4)).toMatch(/no active listing with this number/);
  });
});
