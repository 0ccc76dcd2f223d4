import { describe, expect, test } from 'vitest';
import { specialListing } from '../mock-server/seed/seed-extras.js';
import { seedWorld } from '../mock-server/seed/seed.js';
import { simulate, SIMULATION_START } from '../src/invest/simulate.js';
import { parseStrategy, type Strategy } from '../src/invest/strategy.js';

const STRATEGY =
  'rules:\n  - name: spread\n    filters:\n      platform_rating: [A, B, C, D]\n    sort_by: lender_yield desc\n    amount: 25\n    max_listings: 10\n';

function strategy(): Strategy {
  const parsed = parseStrategy(STRATEGY, 'strategy.yaml', undefined);
  if (!('strategy' in parsed)) throw new Error('bad test strategy');
  return parsed.strategy;
}

describe('a fresh investor in the seeded world', () => {
  test('has one funded account and no history, and leaves the rest of the world as seeded', () => {
    const plain = seedWorld({ seed: 3, listings: 100, now: SIMULATION_START });
    const funded = seedWorld({ seed: 3, listings: 100, now: SIMULATION_START, investor: { id: 'simulated', cash: 1234.5 } });
    expect(funded.accounts.get('simulated-1')).toMatchObject({ userId: 'simulated', cash: 1234.5 });
    expect(funded.users.get('simulated')).toMatchObject({ active: true, stateAllowsInvesting: true, accountIds: ['simulated-1'] });
    expect(funded.notes.filter((n) => n.accountId === 'simulated-1')).toEqual([]);
    expect(funded.listings).toEqual(plain.listings);
    expect([...funded.accounts.values()].filter((a) => a.id !== 'simulated-1')).toEqual([...plain.accounts.values()]);
  });

  test('cannot take the name of a seeded user', () => {
    expect(() => seedWorld({ seed: 3, listings: 100, now: SIMULATION_START, investor: { id: 'alice', cash: 1 } })).toThrow(
      /'alice' already exists/,
    );
  });
});

describe('mkt invest simulate', () => {
  test('the same seed gives the same report; another seed another', async () => {
    const o = { months: 1, seed: 5, cash: 2000, listings: 200 };
    const a = await simulate(strategy(), o);
    const b = await simulate(strategy(), o);
    expect(b).toEqual(a);
    expect(a.months).toHaveLength(1);
    expect(a.portfolio.notes).toBeGreaterThan(0);
    const other = await simulate(strategy(), { ...o, seed: 6 });
    expect(other).not.toEqual(a);
  }, 120_000);

  test("a day's search asks for about the rows it can bid on, not the API's most: a row costs the mock its rendering", async () => {
    const limits: number[] = [];
    await simulate(strategy(), {
      months: 1,
      seed: 5,
      cash: 2000,
      listings: 200,
      atEnd: async ({ market }) => {
        for (const r of await market.requests.list({ limit: 1_000 }))
          if (r.method === 'GET' && r.path.includes('/listings') && r.query.includes('platform_rating='))
            limits.push(Number(new URLSearchParams(r.query).get('limit')));
      },
    });
    expect(limits.length).toBeGreaterThan(5);
    // max_listings 10: twice that, or the API's default page when that is more.
    for (const l of limits) expect(l).toBe(25);
  }, 120_000);

  test("the order desk's look before it places reads the orders as the run does: from the first that may still count", async () => {
    const offsets: number[] = [];
    const r = await simulate(strategy(), {
      months: 2,
      seed: 5,
      cash: 2000,
      listings: 200,
      atEnd: async ({ market, accountId }) => {
        const log = await market.requests.list({ limit: 2_000 });
        // The account the simulation reads (named without asking the mock's state, which checks every book first) is the investor's one account.
        expect((await market.accounts()).find((u) => u.user === 'simulated')?.accounts).toEqual([accountId]);
        // The log is newest first: oldest first here.
        for (const q of log.reverse())
          if (q.method === 'GET' && /\/orders\/?$/.test(q.path)) offsets.push(Number(new URLSearchParams(q.query).get('offset')));
      },
    });
    expect(r.months).toHaveLength(2);
    // Once the first orders settled, no read starts from the first order again (the desk read every order before each placement).
    const past = offsets.findIndex((o) => o > 0);
    expect(past).toBeGreaterThan(0);
    expect(offsets.slice(past).filter((o) => o === 0)).toEqual([]);
  }, 120_000);

  test("a day's run reads the orders from the first one it can still count, not every order since the start", async () => {
    const offsets: number[] = [];
    const r = await simulate(strategy(), {
      months: 2,
      seed: 5,
      cash: 2000,
      listings: 200,
      atEnd: async ({ market }) => {
        for (const q of await market.requests.list({ limit: 1_000 }))
          if (q.method === 'GET' && /\/orders\/?$/.test(q.path)) offsets.push(Number(new URLSearchParams(q.query).get('offset')));
      },
    });
    expect(r.months).toHaveLength(2);
    // Orders settle within days (funded or expired): later days start past them.
    expect(Math.max(...offsets)).toBeGreaterThan(0);
  }, 120_000);

  test('a listing the marketplace refuses a whole order over is passed by on later tries, and the rest are bid on', async () => {
    const world = seedWorld({ seed: 5, listings: 200, now: SIMULATION_START, investor: { id: 'simulated', cash: 2000 } });
    // Shown to everyone, biddable by alice alone: the order that holds it is refused, naming it.
    const restricted = specialListing(world, 'restricted')!;
    const others = world.listings
      .filter((l) => l !== restricted && l.listing_status === restricted.listing_status && l.investment_typeid === 1 && !l.mockRole)
      .slice(0, 3)
      .map((l) => l.listing_number);
    const ids = [restricted.listing_number, ...others];
    const parsed = parseStrategy(
      `rules:\n  - name: these\n    filters:\n      listing_number: [${ids.join(', ')}]\n    amount: 25\n`,
      'strategy.yaml',
      undefined,
    );
    if (!('strategy' in parsed)) throw new Error('bad test strategy');
    const orders: { status: number | null; listings: number[] }[] = [];
    const r = await simulate(parsed.strategy, {
      months: 1,
      seed: 5,
      cash: 2000,
      listings: 200,
      atEnd: async ({ market }) => {
        for (const q of await market.requests.list({ limit: 1_000 }))
          if (q.method === 'POST' && /\/orders\/?$/.test(q.path)) {
            const body = q.body as { bid_requests: { listing_id: number }[] };
            orders.push({ status: q.status, listings: body.bid_requests.map((b) => b.listing_id) });
          }
      },
    });
    // One refusal, then the order without it; never the refused listing again.
    expect(orders.filter((o) => o.status !== 200)).toEqual([{ status: 400, listings: expect.arrayContaining(ids) }]);
    expect(
      orders
        .filter((o) => o.status === 200)
        .flatMap((o) => o.listings)
        .sort(),
    ).toEqual(others.sort());
    expect(r.months[0]!.bid).toBe(75);
  }, 120_000);
});
