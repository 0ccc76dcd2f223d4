/**
 * Notes add up to their loans: after random orders, processing and months of servicing (loans pay, go
 * late, default, charge off), every share a note shows is its ownership fraction of the loan's figure to
 * the cent, and the shares of a loan's notes add up to the loan's figure exactly (less the simulated
 * other investors' share, within a cent of their fraction, where notes do not hold the whole loan).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { apportion, apportionCents } from '../mock-server/engine/note-shares.js';
import { NOTE_SHARES } from '../mock-server/views/note-view.js';
import { touchListing } from '../mock-server/search/listing-index.js';
import { notesOfLoan } from '../mock-server/world/world-index.js';
import { LOAN_STATUS } from '../src/contract/enums.js';
import { call, makeApp, order, plainListings, tokenFor } from './engine-fixture.js';

type App = ReturnType<typeof makeApp>;
type Json = Record<string, any>;

/** Investors who may bid on fractional listings (ivy's orders are capped at 2,500 by her state's suitability rule). */
const BUYERS = ['alice-1', 'alice-2', 'dave-1', 'ivy-1'] as const;

type Step =
  | { kind: 'buy'; pick: number; fresh: boolean; bids: { buyer: number; cents: number }[]; fillRest: boolean }
  | { kind: 'process' }
  | { kind: 'advance'; days: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('buy' as const),
      pick: fc.nat(),
      fresh: fc.boolean(),
      // Amounts from 25.00 up, often with awkward cents, so fractions of loans do not divide evenly.
      bids: fc.array(
        fc.record({
          buyer: fc.nat(BUYERS.length - 1),
          cents: fc.oneof(fc.integer({ min: 2500, max: 9999 }), fc.integer({ min: 2500, max: 400_000 })),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      fillRest: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'process' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 75 }) }) },
);

/** Bids on one plain listing, each in its own order (one account may then hold two notes of a loan); a fresh listing no simulated investor has funded yet. */
async function buy(app: App, s: Extract<Step, { kind: 'buy' }>): Promise<void> {
  const candidates = plainListings(app);
  if (candidates.length === 0) return;
  const l = candidates[s.pick % candidates.length]!;
  l.verification_stage = 3;
  if (s.fresh && l.amount_funded > 0 && !app.ctx.world.index.bidsByListing.has(l.listing_number)) {
    Object.assign(l, { amount_funded: 0, amount_remaining: l.listing_amount, percent_funded: 0 });
    touchListing(app.ctx.world, l);
  }
  for (const b of s.bids) await order(app, tokenFor(app, BUYERS[b.buyer]!), [{ listing_id: l.listing_number, bid_amount: b.cents / 100 }]);
  await call(app, 'POST', '/__mock/process');
  // The rest of the listing to one buyer: notes then hold the whole loan.
  if (s.fillRest && l.listing_status === 2 && l.amount_remaining >= 25) {
    await order(app, tokenFor(app, 'alice-1'), [{ listing_id: l.listing_number, bid_amount: l.amount_remaining }]);
    await call(app, 'POST', '/__mock/process');
  }
}

/** Every note of `accountId`, page by page through GET /notes/. */
async function notesOf(app: App, accountId: string): Promise<Json[]> {
  const token = tokenFor(app, accountId);
  const out: Json[] = [];
  for (let offset = 0; ; offset += 25) {
    const page = (await call(app, 'GET', `/v1/notes?offset=${offset}`, { token })).body;
    out.push(...page.result);
    if (offset + 25 >= page.total_count) return out;
  }
}

const cents = (x: number): number => Math.round(x * 100);

/** What the runs covered, so the property cannot pass on worlds where nothing happened. */
const seen = { wholeByNotes: 0, wholeByNotesPaying: 0, late: 0, statuses: new Set<number>() };

/** Checks every loan any account holds notes in, as its holders see it over HTTP. */
async function checkShares(app: App): Promise<void> {
  const byLoan = new Map<number, { holder: string; note: Json }[]>();
  for (const accountId of app.ctx.world.accounts.keys()) {
    for (const note of await notesOf(app, accountId)) {
      const list = byLoan.get(note.loan_number) ?? [];
      list.push({ holder: accountId, note });
      byLoan.set(note.loan_number, list);
    }
  }
  for (const [loanNumber, held] of byLoan) {
    // Every note of the loan is listed, to its holder, exactly once.
    expect(held.map((h) => h.note.loan_note_id).sort()).toEqual(
      notesOfLoan(app.ctx.world, loanNumber)
        .map((n) => n.note_number)
        .sort(),
    );
    const loan = (await call(app, 'GET', `/v1/loans/${loanNumber}`, { token: tokenFor(app, held[0]!.holder) })).body;
    const borrowed = cents(loan.amount_borrowed);
    const unheld = borrowed - held.reduce((s, h) => s + cents(h.note.note_ownership_amount), 0);
    expect(unheld).toBeGreaterThanOrEqual(0);
    seen.statuses.add(loan.loan_status);
    if (loan.days_past_due > 0) seen.late++;
    if (unheld === 0 && held.length > 1) {
      seen.wholeByNotes++;
      if (loan.principal_paid > 0) seen.wholeByNotesPaying++;
    }
    for (const [share, figure] of Object.entries(NOTE_SHARES)) {
      const total = cents(loan[figure]);
      let sum = 0;
      for (const { note } of held) {
        const exact = (total * cents(note.note_ownership_amount)) / borrowed;
        expect(Math.abs(note[share] * 100 - cents(note[share])), 'to the cent').toBeLessThan(1e-6);
        expect(Math.abs(cents(note[share]) - exact), `${note.loan_note_id} ${share}`).toBeLessThan(1);
        sum += cents(note[share]);
      }
      if (unheld === 0) expect(sum, `loan ${loanNumber} ${figure}`).toBe(total);
      else expect(Math.abs(total - sum - (total * unheld) / borrowed), `loan ${loanNumber} ${figure}`).toBeLessThan(1);
    }
  }
}

describe('note shares', () => {
  test('apportion: every part is its exact share rounded down or up, and the parts add up to the total', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -10_000_000n, max: 10_000_000n }),
        fc.array(fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 5_000_000n })), { minLength: 1, maxLength: 12 }),
        (total, weights) => {
          const parts = apportion(total, weights);
          const whole = weights.reduce((s, w) => s + w, 0n);
          if (whole === 0n) {
            // Nothing holds the loan: nothing to share.
            expect(parts.every((p) => p === 0n)).toBe(true);
            return;
          }
          expect(parts.reduce((s, p) => s + p, 0n)).toBe(total);
          parts.forEach((p, i) => {
            // |p × whole − total × w| < whole: p is floor or ceil of the exact share.
            const gap = p * whole - total * weights[i]!;
            expect(gap < whole && -gap < whole).toBe(true);
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  test("apportionCents (the postings' split, in numbers) gives apportion's parts, ties and signs included, in numbers and past them", () => {
    const cents = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5_000_000 }), fc.integer({ min: 0, max: 2 ** 40 }));
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.integer({ min: -(2 ** 45), max: 2 ** 45 })),
        fc.array(fc.oneof(cents, fc.constant(2_500)), { minLength: 1, maxLength: 12 }),
        (total, weights) => {
          expect(apportionCents(total, weights)).toEqual(
            apportion(
              BigInt(total),
              weights.map((w) => BigInt(w)),
            ).map(Number),
          );
        },
      ),
      { numRuns: 1000 },
    );
  });

  test("after random orders, processing and months of servicing, every loan's notes add up to its figures, each share its fraction to the cent", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 10_000 }), fc.array(step, { minLength: 3, maxLength: 10 }), async (seed, steps) => {
        const app = makeApp({ seed, listings: 30 });
        for (const s of steps) {
          if (s.kind === 'buy') await buy(app, s);
          else if (s.kind === 'process') await call(app, 'POST', '/__mock/process');
          else await call(app, 'POST', '/__mock/clock', { body: { advance: `${s.days}d` } });
        }
        // Long enough for the loans bought to originate and pay at least once.
        await call(app, 'POST', '/__mock/clock', { body: { advance: '40d' } });
        await checkShares(app);
      }),
      {
        numRuns: 12,
        // A world where one listing is bid by two orders and filled by a third, then months pass (loans pay, go
        // late, charge off), so the guards below never depend on the draw.
        examples: [
          [
            1,
            [
              {
                kind: 'buy',
                pick: 0,
                fresh: true,
                bids: [
                  { buyer: 0, cents: 5000 },
                  { buyer: 1, cents: 7777 },
                ],
                fillRest: true,
              },
              { kind: 'advance', days: 75 },
              { kind: 'advance', days: 75 },
              { kind: 'advance', days: 75 },
            ],
          ],
        ],
      },
    );
    expect(seen.wholeByNotes).toBeGreaterThan(0);
    expect(seen.wholeByNotesPaying).toBeGreaterThan(0);
    expect(seen.late).toBeGreaterThan(0);
    for (const s of [LOAN_STATUS.CURRENT, LOAN_STATUS.COMPLETED, LOAN_STATUS.CHARGEOFF]) expect(seen.statuses.has(s)).toBe(true);
  }, 120_000);
});
