/**
 * Loans kept by column (mock-server/world/loan-table.ts): every loan the world holds, seeded, originated
 * by a clock move or loaded from a state file, is a row of the world's loan table, reads and serialises as
 * the plain loan it was made from, and carries arrears and a charge-off time only while it has them.
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { parseState, serializeState } from '../mock-server/world/persistence.js';
import { emptyLoanTable, loanRow } from '../mock-server/world/loan-table.js';
import type { RowTable } from '../mock-server/world/row-table.js';
import type { Loan } from '../mock-server/world/world.js';
import { LISTING_STATUS, LOAN_STATUS } from '../src/contract/enums.js';
import { DAY, makeApp, order, plainListings, tokenFor } from './engine-fixture.js';

const LATER = ['missedPayments', 'oldestMissedDue', 'chargeOffAt', 'paymentLog'] as const;

/** The row numbers of `loans` in `table` order: each loan a distinct row below the table's size. */
const rowsOf = (loans: Iterable<Loan>): number[] => [...loans].map((l) => (l as unknown as { $row: number }).$row);

describe('the loan table', () => {
  test('holds every loan of a world seeded, moved 75 days (originations, payments, arrears) and loaded again', () => {
    const app = makeApp({ listings: 300 });
    const seeded = app.ctx.world.loans.size;
    app.ctx.clock.advance(75 * DAY);
    const world = app.ctx.world;
    expect(world.loans.size).toBeGreaterThan(seeded + 50);
    const rows = rowsOf(world.loans.values());
    expect(new Set(rows).size).toBe(world.loans.size);
    expect(rows.every((r) => Number.isInteger(r) && r >= 0 && r < world.loanTable.size)).toBe(true);
    // Amounts, rates, dates and statuses live in typed columns, not in arrays of boxed numbers.
    for (const name of [
      'amount_borrowed',
      'borrower_rate',
      'origination_date',
      'loan_status',
      'principal_balance',
      'next_payment_due_date',
    ]) {
      expect(world.loanTable.columns.find((c) => c.name === name)!.kind, name).not.toBe('any');
    }
    // Arrears and a charge-off time only on the loans that have them; a loan caught up has none.
    const loans = [...world.loans.values()];
    expect(loans.some((l) => (l.missedPayments ?? 0) > 0)).toBe(true);
    expect(loans.some((l) => l.paymentsMade > 0 && l.paymentLog)).toBe(true);
    for (const l of loans) {
      const text = JSON.parse(JSON.stringify(l)) as Record<string, unknown>;
      if (!(l.missedPayments! > 0)) expect(text).not.toHaveProperty('missedPayments');
      if (l.oldestMissedDue == null) expect(text).not.toHaveProperty('oldestMissedDue');
      if (l.chargeOffAt == null) expect(text).not.toHaveProperty('chargeOffAt');
    }
    // Loaded again: the same loans as rows of a new table, the same text.
    const text = serializeState(world, app.ctx.clock.now());
    const loaded = parseState(text).world;
    expect(loaded.loanTable).not.toBe(world.loanTable);
    expect(loaded.loanTable.size).toBe(loaded.loans.size);
    expect(new Set(rowsOf(loaded.loans.values())).size).toBe(loaded.loans.size);
    expect(serializeState(loaded, app.ctx.clock.now())).toBe(text);
  });

  test('a world without seeded history, moved 100 days, saves, loads and saves the same text (its loans got payment logs and arrears)', async () => {
    const app = makeApp({ seed: 7, listings: 300, history: 'none' });
    // A payment log is kept on a loan some account holds a note in (postings.ts): alice bids on thirty listings first.
    const bids = plainListings(app)
      .slice(0, 30)
      .map((l) => ({ listing_id: l.listing_number, bid_amount: 25 }));
    expect((await order(app, tokenFor(app, 'alice-1'), bids)).status).toBe(200);
    app.ctx.clock.advance(100 * DAY);
    const loans = [...app.ctx.world.loans.values()];
    expect(loans.some((l) => l.paymentLog !== undefined)).toBe(true);
    expect(loans.some((l) => (l.missedPayments ?? 0) > 0)).toBe(true);
    const text = serializeState(app.ctx.world, app.ctx.clock.now());
    expect(serializeState(parseState(text).world, app.ctx.clock.now())).toBe(text);
  });

  test('keeps the fields set later in one order, whichever of them its first row held', () => {
    const base = (n: number): Loan => ({ loan_number: n, listingNumber: n, amount_borrowed: 100, paymentsMade: 1 }) as Loan;
    const text = (firstHas: Partial<Loan>): string => {
      const table = emptyLoanTable();
      loanRow(table, { ...base(1), ...firstHas });
      return JSON.stringify(loanRow(table, { ...base(2), paymentLog: [1], missedPayments: 2, chargeOffAt: 5 }));
    };
    const expected = JSON.stringify({ ...base(2), missedPayments: 2, chargeOffAt: 5, paymentLog: [1] });
    expect(text({})).toBe(expected);
    expect(text({ paymentLog: [0] })).toBe(expected);
    expect(text({ chargeOffAt: 9 })).toBe(expected);
    expect(text({ paymentLog: [0], oldestMissedDue: 3 })).toBe(expected);
  });

  test('a world saved with the nulls and zeros of no arrears loads without them in its sparse columns', () => {
    const app = makeApp({ listings: 300 });
    app.ctx.clock.advance(20 * DAY);
    // As the mock before this one wrote it: every originated loan with missedPayments 0 and nulls, every ended listing with originateAt null.
    const saved = JSON.parse(serializeState(app.ctx.world, app.ctx.clock.now()).split('\n').slice(1).join('\n')) as {
      now: number;
      store: Record<string, unknown>;
    };
    const loans = (saved.store.loans as { $map: [number, Record<string, unknown>][] }).$map;
    for (const [, loan] of loans)
      Object.assign(loan, {
        missedPayments: loan.missedPayments ?? 0,
        oldestMissedDue: loan.oldestMissedDue ?? null,
        chargeOffAt: loan.chargeOffAt ?? null,
      });
    const listings = saved.store.listings as Record<string, unknown>[];
    for (const l of listings) if (l.listing_status !== LISTING_STATUS.PENDING) l.originateAt = null;
    const body = JSON.stringify(saved);
    const old = `MKT-MOCK-STATE v1 bytes=${Buffer.byteLength(body)} sha256=${createHash('sha256').update(body).digest('hex')}\n${body}`;
    const world = parseState(old).world;
    // The rows a column set later holds: a map's entries, or a typed one's rows set (origination times: a null would have made it a map).
    const sparse = (table: RowTable, name: string): number => {
      const c = table.columns.find((k) => k.name === name)!;
      if (c.kind === 'sparseNum') return c.data.subarray(0, table.size).filter((x) => x !== 0).length;
      return c.kind === 'sparse' ? c.data.size : NaN;
    };
    const live = [...world.loans.values()];
    expect(sparse(world.loanTable, 'missedPayments')).toBe(live.filter((l) => (l.missedPayments ?? 0) !== 0).length);
    expect(sparse(world.loanTable, 'oldestMissedDue')).toBe(live.filter((l) => l.oldestMissedDue != null).length);
    expect(sparse(world.loanTable, 'chargeOffAt')).toBe(live.filter((l) => l.chargeOffAt != null).length);
    expect(sparse(world.listingTable, 'originateAt')).toBe(world.listings.filter((l) => l.originateAt != null).length);
    expect(sparse(world.listingTable, 'originateAt')).toBeLessThan(50);
    expect(world.listingTable.columns.find((c) => c.name === 'originateAt')!.kind).toBe('sparseNum');
    // The world is the one saved: the same text as the mock that never stopped.
    expect(serializeState(world, saved.now)).toBe(serializeState(app.ctx.world, app.ctx.clock.now()));
  });

  test('a row reads, writes and serialises as the plain loan, the fields set later included, in one order', () => {
    const table = emptyLoanTable();
    const plainLoans: Loan[] = [];
    const rows: Loan[] = [];
    for (let i = 0; i < 40; i++) {
      const plain = {
        loan_number: 500_000 + i,
        listingNumber: 10_000_000 + i,
        amount_borrowed: 1000 + i * 13.37,
        borrower_rate: 0.1234,
        term: 36,
        platform_rating: i % 3 === 0 ? 'AA' : 'N/A',
        origination_date: 1.7e12 + i * 3_600_123,
        loan_status: 1,
        loan_default_reason: null,
        days_past_due: 0,
        principal_balance: 1000 + i * 13.37,
        principal_paid: 0,
        interest_paid: 0,
        late_fees_paid: 0,
        platform_fees_paid: 0,
        service_fees_paid: -0.5,
        collection_fees_paid: 0,
        debt_sale_proceeds_received: 0,
        next_payment_due_date: 1.7e12 + 30 * DAY,
        next_payment_due_amount: 31.25,
        paymentsMade: 0,
      } as Loan;
      plainLoans.push({ ...plain });
      rows.push(loanRow(table, plain));
    }
    // Servicing's changes, in the order a plain loan would get its fields: the text is the plain loan's with the later fields in LATER order.
    const change = (l: Loan, i: number): void => {
      if (i % 4 === 1) {
        l.missedPayments = 2;
        l.oldestMissedDue = 1.7e12 + 5 * DAY;
        l.days_past_due = 12;
      }
      if (i % 4 === 2) {
        l.paymentLog = [0, 1, 2];
        l.paymentsMade = 1;
        l.principal_balance = 987.65;
      }
      if (i % 4 === 3) {
        l.loan_status = LOAN_STATUS.DEFAULTED;
        l.loan_default_reason = 2;
        l.chargeOffAt = 1.7e12 + 40 * DAY;
        l.missedPayments = undefined;
      }
      if (i % 8 === 1) {
        l.missedPayments = undefined;
        l.oldestMissedDue = undefined;
      }
    };
    rows.forEach(change);
    plainLoans.forEach(change);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const plain = plainLoans[i]!;
      for (const k of Object.keys(plain))
        expect((row as unknown as Record<string, unknown>)[k], `${i} ${k}`).toStrictEqual((plain as unknown as Record<string, unknown>)[k]);
      const ordered = Object.fromEntries([
        ...Object.entries(plain).filter(([k]) => !(LATER as readonly string[]).includes(k)),
        ...LATER.filter((k) => plain[k] !== undefined).map((k) => [k, plain[k]]),
      ]);
      expect(JSON.stringify(row)).toBe(JSON.stringify(ordered));
    }
    // Only the loans that hold a later field have an entry in its column.
    for (const name of LATER) {
      const column = table.columns.find((c) => c.name === name)!;
      expect(column.kind).toBe('sparse');
      expect((column.data as Map<number, unknown>).size).toBe(plainLoans.filter((l) => l[name] !== undefined).length);
    }
  });
});
