/**
 * The note fields of the real answer (issue 21): `payment_received`, `accrued_interest`,
 * `platform_proceeds_net_received`, settlement and extension, each consistent with the note's shares and
 * its loan's servicing on the mock's clock. The real answer they follow is grahamtt/prosper-api (86b314e)
 * tests/test_client.py `test_list_notes`.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { accruedInterest, monthsOnSchedule } from '../mock-server/views/note-view.js';
import { addMonths } from '../src/contract/amortisation.js';
import { LOAN_STATUS } from '../src/contract/enums.js';
import { call, DAY, HOUR, makeApp, START, tokenFor } from './engine-fixture.js';

type Json = Record<string, any>;
const cents = (x: number): number => Math.round(x * 100);

/** Every note of the caller, all pages. */
async function allNotes(app: ReturnType<typeof makeApp>, token: string): Promise<Json[]> {
  const out: Json[] = [];
  for (let offset = 0; ; offset += 25) {
    const page = (await call(app, 'GET', `/v1/notes?offset=${offset}&limit=25`, { token })).body;
    out.push(...page.result);
    if (offset + 25 >= page.total_count) return out;
  }
}

describe('payment_received', () => {
  test("is the real answer's sum: principal + interest + service fees paid, the note's shares", () => {
    // The real note: 15.8919 + 14.749939 − 0.589991 = 30.051848, to the millionth.
    expect(Math.round((15.8919 + 14.749939 - 0.589991) * 1e6)).toBe(30_051_848);
  });

  test('is that sum, to the cent, on every note of the seeded world and after months of servicing', async () => {
    const app = makeApp({ listings: 700 });
    const alice = tokenFor(app, 'alice-1');
    for (const when of ['now', 'later']) {
      if (when === 'later') expect((await call(app, 'POST', '/__mock/clock', { body: { advance: '75d' } })).status).toBe(200);
      const notes = await allNotes(app, alice);
      expect(notes.length).toBeGreaterThan(25);
      for (const n of notes) {
        expect(cents(n.payment_received), n.loan_note_id).toBe(
          cents(n.principal_paid_pro_rata_share) + cents(n.interest_paid_pro_rata_share) + cents(n.service_fees_paid_pro_rata_share),
        );
      }
      expect(notes.some((n) => n.payment_received > 0)).toBe(true);
    }
  });
});

describe('settlement, extension and platform proceeds', () => {
  test('Unspecified and 0 unless the loan was settled in full, then Settled', async () => {
    const app = makeApp({ listings: 700 });
    const alice = tokenFor(app, 'alice-1');
    // A loan of alice's that defaulted and was then settled, as the seed settles some (settleSomeDefaults).
    const held = (await allNotes(app, alice)).find((n) => n.note_status === LOAN_STATUS.CURRENT)!;
    Object.assign(app.ctx.world.loans.get(held.loan_number)!, {
      loan_status: LOAN_STATUS.COMPLETED,
      loan_default_reason: 6,
      principal_balance: 0,
    });
    const notes = await allNotes(app, alice);
    for (const n of notes) {
      expect(n, n.loan_note_id).toMatchObject({
        platform_proceeds_net_received: 0,
        loan_extension_status: 'Unspecified',
        loan_extension_term: 0,
        loan_settlement_status: n.note_default_reason === 6 ? 'Settled' : 'Unspecified',
      });
    }
    expect(
      notes.some((n) => n.loan_settlement_status === 'Settled'),
      'alice holds a loan settled in full',
    ).toBe(true);
  });
});

describe('accrued_interest', () => {
  test('months on a schedule: whole months by the calendar, the current one in part, never negative', () => {
    const jan31 = Date.parse('2026-01-31T00:00:00Z');
    expect(monthsOnSchedule(jan31, addMonths(jan31, 1))).toBe(1);
    expect(monthsOnSchedule(jan31, addMonths(jan31, 7))).toBe(7);
    expect(monthsOnSchedule(jan31, jan31 - DAY)).toBe(0);
    const feb28 = addMonths(jan31, 1);
    expect(monthsOnSchedule(jan31, feb28 + (addMonths(jan31, 2) - feb28) / 2)).toBeCloseTo(1.5, 12);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4e11 }),
        fc.integer({ min: 0, max: 3e10 }),
        fc.integer({ min: 1, max: 1e9 }),
        (from, span, step) => {
          const a = monthsOnSchedule(from + 1e12, from + 1e12 + span);
          const b = monthsOnSchedule(from + 1e12, from + 1e12 + span + step);
          // Grows with time, at most a month per 28 days.
          return a >= 0 && b >= a && b - a <= step / (28 * DAY) + 1e-9;
        },
      ),
    );
  });

  test('is nothing on a loan not owed interest: charged off, completed, cancelled or not yet originated', async () => {
    const app = makeApp({ listings: 700 });
    const alice = tokenFor(app, 'alice-1');
    // One of alice's current loans defaults (bankruptcy) and is not yet charged off.
    const current = (await allNotes(app, alice)).find(
      (n) => n.note_status === LOAN_STATUS.CURRENT && n.principal_balance_pro_rata_share > 0,
    )!;
    Object.assign(app.ctx.world.loans.get(current.loan_number)!, { loan_status: LOAN_STATUS.DEFAULTED, loan_default_reason: 2 });
    const notes = await allNotes(app, alice);
    const ended = notes.filter((n) => n.note_status !== LOAN_STATUS.CURRENT && n.note_status !== LOAN_STATUS.DEFAULTED);
    expect(new Set(ended.map((n) => n.note_status)).size).toBeGreaterThan(1);
    for (const n of ended) expect(n.accrued_interest, n.loan_note_id).toBe(0);
    const defaulted = notes.filter((n) => n.note_status === LOAN_STATUS.DEFAULTED && n.principal_balance_pro_rata_share > 0);
    expect(defaulted.length).toBeGreaterThan(0);
    // As the real answer's defaulted note, a defaulted loan not yet charged off keeps accruing.
    for (const n of defaulted) expect(n.accrued_interest, n.loan_note_id).toBeGreaterThan(0);
  });

  test("builds up to the month's interest on the share by the due date, and the payment then made carries it", async () => {
    const app = makeApp({ listings: 700 });
    const alice = tokenFor(app, 'alice-1');
    const world = app.ctx.world;
    // Current notes on loans paid up to date whose next due date is past a day from now: nothing is owed from before.
    const before = (await allNotes(app, alice)).filter((n) => {
      const loan = world.loans.get(n.loan_number)!;
      return (
        n.note_status === LOAN_STATUS.CURRENT
        && n.days_past_due === 0
        && n.principal_balance_pro_rata_share > 0
        && !loan.missedPayments
        && loan.next_payment_due_date > START + DAY
      );
    });
    expect(before.length).toBeGreaterThan(3);
    const due = new Map(before.map((n) => [n.loan_note_id, world.loans.get(n.loan_number)!.next_payment_due_date]));
    // Just before the earliest due date, each accrues its share × rate / 12 for the part of the month gone by.
    const first = Math.min(...due.values());
    await call(app, 'POST', '/__mock/clock', { body: { to: new Date(first - HOUR).toISOString() } });
    const accrued = new Map((await allNotes(app, alice)).map((n) => [n.loan_note_id, n]));
    for (const n of before) {
      const now = accrued.get(n.loan_note_id)!;
      const monthly = (n.principal_balance_pro_rata_share * n.borrower_rate) / 12;
      const part = monthsOnSchedule(addMonths(due.get(n.loan_note_id)!, -1), first - HOUR);
      expect(Math.abs(now.accrued_interest - monthly * part), n.loan_note_id).toBeLessThanOrEqual(0.005 + 1e-9);
      expect(now.accrued_interest).toBeLessThanOrEqual(cents(monthly) / 100 + 0.005);
    }
    // Past every due date by a day, a loan that made one payment paid the note about that month's interest on its share.
    const made = new Map(before.map((n) => [n.loan_note_id, world.loans.get(n.loan_number)!.paymentsMade]));
    await call(app, 'POST', '/__mock/clock', { body: { to: new Date(Math.max(...due.values()) + DAY).toISOString() } });
    let paid = 0;
    for (const n of before) {
      if (world.loans.get(n.loan_number)!.paymentsMade !== made.get(n.loan_note_id)! + 1) continue;
      const after = (await call(app, 'GET', `/v1/notes/${n.loan_note_id}`, { token: alice })).body;
      if (after.days_past_due > 0) continue;
      paid++;
      const got = after.interest_paid_pro_rata_share - n.interest_paid_pro_rata_share;
      // The servicing charges the loan's month of interest and splits it; the accrual works on the share: cents apart.
      expect(Math.abs(got - (n.principal_balance_pro_rata_share * n.borrower_rate) / 12), n.loan_note_id).toBeLessThanOrEqual(0.03);
    }
    expect(paid).toBeGreaterThan(0);
  });

  test('the rule itself: share × rate / 12 per month since the last due date paid, to the cent', () => {
    const origination = Date.parse('2025-01-15T00:00:00Z');
    const loan = {
      loan_status: LOAN_STATUS.CURRENT,
      borrower_rate: 0.12,
      origination_date: origination,
      next_payment_due_date: addMonths(origination, 4),
      oldestMissedDue: null,
    } as unknown as Parameters<typeof accruedInterest>[0];
    // Halfway through the fourth month: 1000 × 0.01 × 0.5.
    const half = addMonths(origination, 3) + (addMonths(origination, 4) - addMonths(origination, 3)) / 2;
    expect(accruedInterest(loan, 1000, half)).toBe(5);
    // Two due dates missed: from the last one paid, the month before the oldest missed.
    const late = { ...loan, oldestMissedDue: addMonths(origination, 2) };
    expect(accruedInterest(late, 1000, half)).toBe(25);
    // Never from before the origination.
    expect(accruedInterest({ ...loan, next_payment_due_date: origination }, 1000, addMonths(origination, 1))).toBe(10);
    expect(accruedInterest({ ...loan, loan_status: LOAN_STATUS.CHARGEOFF }, 1000, half)).toBe(0);
  });
});
