/**
 * What the account answer keeps or narrows so that a daily read costs little (views/account-view.ts): the
 * last deposit and withdrawal from an index the ledger's newer entries catch up (engine/ledger.ts `lastEntry`),
 * and each note's outstanding principal from its loan's balance split alone (views/note-view.ts
 * `noteOutstanding`). Each answers what the full reading answers: the scan of the whole ledger, the note's view.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LEDGER_KINDS, lastEntry, post } from '../mock-server/engine/ledger.js';
import { noteOutstanding, noteViews } from '../mock-server/views/note-view.js';
import { emptyWorld, type World } from '../mock-server/world/world.js';
import type { LedgerEntry } from '../mock-server/world/records.js';
import { LOAN_STATUS } from '../src/contract/enums.js';
import { touchListing } from '../mock-server/search/listing-index.js';
import { call, makeApp, order, plainListings, tokenFor } from './engine-fixture.js';

const ACCOUNTS = ['a', 'b', 'c'];
const KINDS = [LEDGER_KINDS.DEPOSIT, LEDGER_KINDS.WITHDRAWAL, LEDGER_KINDS.INTEREST, LEDGER_KINDS.ORDER_DEBIT];

/** The last entry of `kind` on `accountId` by a scan of the whole ledger, newest first: what `lastEntry` answered before it kept one. */
function scanned(world: World, accountId: string, kind: string): LedgerEntry | undefined {
  for (let i = world.ledger.length - 1; i >= 0; i--) {
    const e = world.ledger[i]!;
    if (e.accountId === accountId && e.kind === kind) return e;
  }
  return undefined;
}

type Op =
  | { op: 'post'; account: number; kind: number; cents: number }
  | { op: 'push'; account: number; kind: number; cents: number }
  | { op: 'read' }
  | { op: 'replace'; keep: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('post' as const),
      account: fc.nat(2),
      kind: fc.nat(3),
      cents: fc.integer({ min: 1, max: 5000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('push' as const),
      account: fc.nat(2),
      kind: fc.nat(3),
      cents: fc.integer({ min: 1, max: 5000 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('read' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('replace' as const), keep: fc.nat(40) }) },
);

function worldOf(): World {
  const world = emptyWorld(1);
  for (const id of ACCOUNTS) world.accounts.set(id, { id, cash: 1_000_000 } as never);
  return world;
}

describe('the account reads kept', () => {
  test('lastEntry answers the scan of the whole ledger after any posts, direct pushes (as the seed makes) and reads', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 60 }), (ops) => {
        const world = worldOf();
        let t = 0;
        for (const o of ops) {
          if (o.op === 'post') post(world, ACCOUNTS[o.account]!, o.kind === 1 ? -o.cents / 100 : o.cents / 100, KINDS[o.kind]!, null, ++t);
          else if (o.op === 'push')
            world.ledger.push({ at: ++t, accountId: ACCOUNTS[o.account]!, amount: o.cents / 100, kind: KINDS[o.kind]!, ref: null });
          // A ledger replaced by a shorter one (nothing does so now): the kept entries must not outlive it.
          else if (o.op === 'replace') world.ledger = world.ledger.slice(0, o.keep);
          for (const a of [...ACCOUNTS, 'nobody'])
            for (const k of KINDS) expect(lastEntry(world, a, k), `${a} ${k} after ${o.op}`).toBe(scanned(world, a, k));
        }
      }),
      { numRuns: 200, seed: 20261129 },
    );
  });

  test("a note's outstanding principal is its view's balance share (0 once charged off), notes sharing a loan included", async () => {
    const app = makeApp({ listings: 300 });
    const world = app.ctx.world;
    // Three listings each bought by several orders (alice-1's two notes of one loan, alice-2's beside them) and
    // filled, so that their loans originate held by notes alone, with uneven weights.
    for (const l of plainListings(app).slice(0, 3)) {
      l.verification_stage = 3;
      Object.assign(l, { amount_funded: 0, amount_remaining: l.listing_amount, percent_funded: 0 });
      touchListing(world, l);
      for (const [who, amount] of [
        ['alice-1', 77.77],
        ['alice-1', 25.01],
        ['alice-2', 51.3],
      ] as const)
        expect((await order(app, tokenFor(app, who), [{ listing_id: l.listing_number, bid_amount: amount }])).status).toBe(200);
      await call(app, 'POST', '/__mock/process');
      const rest = await order(app, tokenFor(app, 'alice-1'), [{ listing_id: l.listing_number, bid_amount: l.amount_remaining }]);
      expect(rest.status, JSON.stringify(rest.body)).toBe(200);
      await call(app, 'POST', '/__mock/process');
    }
    let shared = 0;
    let chargedOff = 0;
    for (const days of [0, 20, 45, 90, 150, 240]) {
      if (days > 0) await call(app, 'POST', '/__mock/clock', { body: { advance: `${days}d` } });
      // Read after the move (a read settles the world first), then compare with the notes' own views.
      await call(app, 'GET', '/__mock/state');
      const now = app.ctx.clock.now();
      const outstanding = noteOutstanding(world);
      const views = noteViews(world, world.notes, now, undefined);
      world.notes.forEach((n, i) => {
        const loan = world.loans.get(n.loanNumber)!;
        const expected = loan.loan_status === LOAN_STATUS.CHARGEOFF ? 0 : views[i]!.principal_balance_pro_rata_share;
        expect(outstanding(n), n.note_number).toBe(expected);
        if (world.index.notesByLoan.get(n.loanNumber)!.length > 1) shared++;
        if (loan.loan_status === LOAN_STATUS.CHARGEOFF) chargedOff++;
      });
    }
    // The cases the split must get right were met: a loan held by several notes, a charged-off loan.
    expect(shared).toBeGreaterThan(0);
    expect(chargedOff).toBeGreaterThan(0);
  });
});
