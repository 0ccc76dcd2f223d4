/** Loans the caller holds notes in, serviced month by month, and the account that follows every cent of it. */
import { describe, expect, test } from 'vitest';
import { checkInvariants } from '../mock-server/audit/invariants.js';
import { LOAN_STATUS } from '../src/contract/enums.js';
import { call, makeApp, order, plainListings, tokenFor } from './engine-fixture.js';

describe('GET /loans/', () => {
  test('lists only loans the caller holds notes in, 25 at most per page, newest origination first by default', async () => {
    const app = makeApp({ listings: 700 });
    const alice = tokenFor(app, 'alice-1');
    const held = new Set(app.ctx.world.notes.filter((n) => n.accountId === 'alice-1').map((n) => n.loanNumber));
    expect(held.size).toBeGreaterThan(25);
    const page = (await call(app, 'GET', '/v1/loans?limit=100', { token: alice })).body;
    expect(page.total_count).toBe(held.size);
    expect(page.result_count).toBe(25);
    for (const l of page.result) expect(held.has(l.loan_number)).toBe(true);
    const dates = page.result.map((l: { origination_date: string }) => l.origination_date);
    expect(dates).toEqual([...dates].sort().reverse());
    const asc = (await call(app, 'GET', `/v1/loans?sort_by=${encodeURIComponent('principal_balance asc')}`, { token: alice })).body.result;
    const balances = asc.map((l: { principal_balance: number }) => l.principal_balance);
    expect(balances).toEqual([...balances].sort((x, y) => x - y));
    expect((await call(app, 'GET', '/v1/loans?sort_by=color', { token: alice })).status).toBe(400);
    expect((await call(app, 'GET', '/v1/loans', { token: tokenFor(app, 'carol-1') })).body.total_count).toBe(0);
  });

  test('GET /loans/{id} answers a held loan, 404 for one not held, 400 for a non-number', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const recent = (n: number): boolean =>
      app.ctx.world.listingByNumber.get(app.ctx.world.loans.get(n)!.listingNumber)!.listing_start_date > Date.parse('2018-08-09');
    const aliceLoans = app.ctx.world.notes.filter((n) => n.accountId === 'alice-1').map((n) => n.loanNumber);
    const mine = aliceLoans.find(recent)!;
    const old = aliceLoans.find((n) => !recent(n))!;
    const other = [...app.ctx.world.loans.keys()].find(
      (n) => !app.ctx.world.notes.some((x) => x.loanNumber === n && x.accountId === 'alice-1'),
    )!;
    const res = await call(app, 'GET', `/v1/loans/${mine}`, { token: alice });
    expect(res.status).toBe(200);
    expect(res.body.loan_number).toBe(mine);
    expect(res.body).not.toHaveProperty('group_leader_award');
    // The deprecated field only for loans whose listing started on or before 2018-08-08.
    expect((await call(app, 'GET', `/v1/loans/${old}`, { token: alice })).body.group_leader_award).toBe(0);
    expect((await call(app, 'GET', `/v1/loans/${other}`, { token: alice })).status).toBe(404);
    expect((await call(app, 'GET', '/v1/loans/abc', { token: alice })).status).toBe(400);
    expect((await call(app, 'GET', `/v1/loans/${mine}`, { token: tokenFor(app, 'bob-1') })).status).toBe(404);
  });

  test('loan_status and loan_default_reason are consistent on every loan, seeded or serviced over a year', async () => {
    const app = makeApp();
    const seeded = new Set(app.ctx.world.loans.keys());
    await call(app, 'POST', '/__mock/clock', { body: { advance: '365d' } });
    const statuses = new Set<number>();
    const completedByServicing: number[] = [];
    for (const loan of app.ctx.world.loans.values()) {
      statuses.add(loan.loan_status);
      // The spec types it as a date: every loan has one, ended loans too.
      expect(typeof loan.next_payment_due_date).toBe('number');
      if (loan.loan_status === LOAN_STATUS.CURRENT) {
        expect(loan.loan_default_reason).toBeNull();
        expect(loan.principal_balance).toBeGreaterThan(0);
      }
      if (loan.loan_status === LOAN_STATUS.COMPLETED) {
        // Paid off is no default (null); PaidInFull and SettledInFull only after a default, which servicing never reverses.
        expect([null, 5, 6]).toContain(loan.loan_default_reason);
        if (!seeded.has(loan.loan_number)) completedByServicing.push(loan.loan_default_reason ?? 0);
        expect(loan.principal_balance).toBe(0);
      }
      if (loan.loan_status === LOAN_STATUS.DEFAULTED || loan.loan_status === LOAN_STATUS.CHARGEOFF) {
        expect([1, 2, 3]).toContain(loan.loan_default_reason);
      }
      expect(loan.principal_paid + loan.principal_balance).toBeCloseTo(
        loan.loan_status === LOAN_STATUS.CANCELLED ? loan.principal_paid : loan.amount_borrowed,
        0,
      );
    }
    for (const s of [LOAN_STATUS.CURRENT, LOAN_STATUS.COMPLETED, LOAN_STATUS.DEFAULTED, LOAN_STATUS.CHARGEOFF])
      expect(statuses.has(s)).toBe(true);
    expect(completedByServicing.every((r) => r === 0)).toBe(true);
    expect(checkInvariants(app.ctx.world)).toEqual({ ok: true, violations: [] });
  });
});

describe('servicing and the account', () => {
  test('a new loan pays month by month (amortised interest and principal, fees) and the account balances stay exact', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const l = plainListings(app)[0]!;
    l.verification_stage = 3;
    const amount = l.amount_remaining;
    await order(app, alice, [{ listing_id: l.listing_number, bid_amount: amount }]);
    await call(app, 'POST', '/__mock/process');
    await call(app, 'POST', '/__mock/clock', { body: { advance: '4d' } });
    const loanNumber = l.loan_number!;
    const start = (await call(app, 'GET', `/v1/loans/${loanNumber}`, { token: alice })).body;
    expect(start).toMatchObject({ principal_paid: 0, interest_paid: 0, age_in_months: 0, loan_status: 1, term: l.listing_term });
    const firstDue = start.next_payment_due_date;
    const note = app.ctx.world.notes.find((n) => n.loanNumber === loanNumber && n.accountId === 'alice-1')!;
    let lastPaid = 0;
    let payments = 0;
    for (let month = 1; month <= 3; month++) {
      await call(app, 'POST', '/__mock/clock', { body: { advance: '31d' } });
      const loan = (await call(app, 'GET', `/v1/loans/${loanNumber}`, { token: alice })).body;
      if (loan.loan_status !== 1) break;
      if (loan.principal_paid > lastPaid) payments++;
      expect(loan.principal_paid + loan.principal_balance).toBeCloseTo(loan.amount_borrowed, 2);
      lastPaid = loan.principal_paid;
    }
    expect(payments).toBeGreaterThan(0);
    const loan = app.ctx.world.loans.get(loanNumber)!;
    expect(loan.interest_paid).toBeGreaterThan(0);
    expect(loan.service_fees_paid).toBeLessThan(0);
    expect(firstDue).not.toBe((await call(app, 'GET', `/v1/loans/${loanNumber}`, { token: alice })).body.next_payment_due_date);
    // The note's share of principal came back as cash: its principal fell by exactly what was credited.
    const credited = app.ctx.world.ledger
      .filter((e) => e.kind === 'PRINCIPAL' && e.ref === `${loanNumber}:${note.note_number}`)
      .reduce((s, e) => s + e.amount, 0);
    expect(note.principal! + credited).toBeCloseTo(amount, 2);
    const account = (await call(app, 'GET', '/v1/accounts/platform', { token: alice })).body;
    const mine = app.ctx.world.ledger.filter((e) => e.accountId === 'alice-1').reduce((s, e) => s + e.amount, 0);
    expect(account.available_cash_balance).toBeCloseTo(mine, 2);
    expect(checkInvariants(app.ctx.world).ok).toBe(true);
  });

  test('GET /accounts/platform needs read_platform_account and reports cash, pending, total and external_user_id', async () => {
    const app = makeApp();
    const bob = tokenFor(app, 'bob-1');
    const res = await call(app, 'GET', '/v1/accounts/platform', { token: bob });
    const invested = app.ctx.world.notes.filter((n) => n.accountId === 'bob-1').reduce((s, n) => s + (n.principal ?? 0), 0);
    expect(res.body).toMatchObject({
      available_cash_balance: 40,
      pending_investments_primary_market: 0,
      outstanding_principal_on_active_notes: Math.round(invested * 100) / 100,
      total_account_value: Math.round((40 + invested) * 100) / 100,
      external_user_id: app.ctx.world.accounts.get('bob-1')!.externalUserId,
    });
    app.ctx.world.tokens.get(bob)!.scopes = ['read_listing'];
    expect((await call(app, 'GET', '/v1/accounts/platform', { token: bob })).status).toBe(403);
  });
});

describe('arrears', () => {
  test('missed payments grow days past due, are caught up with late and failed-payment fees, or end in default and charge-off', async () => {
    const app = makeApp();
    await call(app, 'POST', '/__mock/clock', { body: { advance: '365d' } });
    const loans = [...app.ctx.world.loans.values()].filter((l) => l.origination_date > Date.parse('2026-01-01'));
    const caughtUp = loans.filter((l) => l.late_fees_paid > 0);
    expect(caughtUp.length).toBeGreaterThan(0);
    for (const l of caughtUp) expect(l.platform_fees_paid).toBeGreaterThan(0);
    const delinquent = loans.filter((l) => l.loan_default_reason === 1);
    expect(delinquent.length).toBeGreaterThan(0);
    for (const l of delinquent) {
      expect(l.days_past_due).toBeGreaterThanOrEqual(91);
      if (l.loan_status === LOAN_STATUS.CHARGEOFF) expect(l.days_past_due).toBeGreaterThanOrEqual(121);
    }
    // Notes in a charged-off loan hold no principal any more.
    for (const n of app.ctx.world.notes) {
      if (app.ctx.world.loans.get(n.loanNumber)!.loan_status === LOAN_STATUS.CHARGEOFF) expect(n.principal).toBe(0);
    }
  });
});
