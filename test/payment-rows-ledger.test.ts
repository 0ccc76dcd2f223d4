/**
 * A note's payment rows (GET /loans/payments) and the cash its account was posted for them (the ledger)
 * agree, note by note and figure by figure, to the cent: also when two holders' shares of a figure tie,
 * where splitting the paid principal and splitting the new balance can hand the odd cent to different holders.
 */
import { expect, test } from 'vitest';
import { LEDGER_KINDS } from '../mock-server/engine/ledger.js';
import { paymentRows } from '../mock-server/views/payment-view.js';
import { call, DAY, makeApp, order, plainListings, tokenFor } from './engine-fixture.js';

test("every note's payment rows add up to what the ledger posted to its account for it, figure by figure", async () => {
  const app = makeApp({ listings: 400 });
  const world = app.ctx.world;
  // Two accounts holding equal notes in the same loans: their shares of every split tie.
  // The youngest (the last in numbering order): the longest left to fund, so that most of them originate.
  const listings = plainListings(app).slice(-24);
  expect(listings.length).toBe(24);
  for (const account of ['alice-1', 'alice-2']) {
    const placed = await order(
      app,
      tokenFor(app, account),
      listings.map((l) => ({ listing_id: l.listing_number, bid_amount: 25 })),
    );
    expect(placed.status).toBe(200);
  }
  await call(app, 'POST', '/__mock/clock', { body: { advance: '400d' } });
  const mine = world.notes.filter(
    (n) => (n.accountId === 'alice-1' || n.accountId === 'alice-2') && listings.some((l) => l.listing_number === n.listingNumber),
  );
  expect(mine.length).toBeGreaterThanOrEqual(30);
  const posted = new Map<string, Record<string, number>>();
  for (const e of world.ledger) {
    if (!e.ref) continue;
    const sums = posted.get(`${e.accountId} ${e.ref}`) ?? {};
    sums[e.kind] = (sums[e.kind] ?? 0) + Math.round(e.amount * 100);
    posted.set(`${e.accountId} ${e.ref}`, sums);
  }
  let rowsSeen = 0;
  for (const note of mine) {
    const rows = paymentRows(world, world.loans.get(note.loanNumber)!, note.accountId).filter(
      (r) => r.note.note_number === note.note_number,
    );
    rowsSeen += rows.length;
    const sum = (f: 'principal' | 'interest' | 'lateFees' | 'serviceFees'): number => rows.reduce((s, r) => s + r.share[f], 0);
    const ledger = posted.get(`${note.accountId} ${note.loanNumber}:${note.note_number}`) ?? {};
    expect({
      note: note.note_number,
      principal: sum('principal'),
      interest: sum('interest'),
      lateFees: sum('lateFees'),
      // 0 - x, not -x: a note whose rows hold no service fee (a loan that defaulted before paying) sums to 0, not -0.
      serviceFees: 0 - sum('serviceFees'),
    }).toEqual({
      note: note.note_number,
      principal: ledger[LEDGER_KINDS.PRINCIPAL] ?? 0,
      interest: ledger[LEDGER_KINDS.INTEREST] ?? 0,
      lateFees: ledger[LEDGER_KINDS.LATE_FEE] ?? 0,
      serviceFees: ledger[LEDGER_KINDS.SERVICE_FEE] ?? 0,
    });
  }
  expect(rowsSeen).toBeGreaterThan(300);
  expect(app.ctx.clock.now()).toBeGreaterThan(listings[0]!.listing_start_date + 300 * DAY);
}, 120_000);
