/**
 * A year of `invest simulate` tells the same story in its statement as in its account: the year's
 * statement from the payments adds up, figure by figure, to the simulated account's ledger movements
 * for payments that year, to the cent; the last month's statement reconciles with the account; each
 * month reports a realised and an expected return.
 */
import { appOf } from '../mock-server/library/internal.js';
import { expect, test } from 'vitest';
import { LEDGER_KINDS } from '../mock-server/engine/ledger.js';
import { readLedgers } from '../src/flows/gather.js';
import { statement, type Statement } from '../src/flows/statement.js';
import { simulate } from '../src/invest/simulate.js';
import { parseStrategy, type Strategy } from '../src/invest/strategy.js';

const STRATEGY =
  'rules:\n  - name: spread\n    filters:\n      platform_rating: [A, B, C, D, E, HR]\n    sort_by: lender_yield desc\n    amount: 25\n    max_listings: 10\n';

function strategy(): Strategy {
  const parsed = parseStrategy(STRATEGY, 'strategy.yaml', undefined);
  if (!('strategy' in parsed)) throw new Error('bad test strategy');
  return parsed.strategy;
}

test("after 12 months the year's statement adds up to the account's ledger movements for that year, and the last month's reconciles", async () => {
  let year: Statement | undefined;
  const ledger: Record<string, number> = {};
  const sim = await simulate(strategy(), {
    months: 12,
    seed: 5,
    cash: 5000,
    listings: 200,
    atEnd: async ({ market, client, accountId }) => {
      const app = appOf(market);
      year = statement(await readLedgers(client), Date.UTC(2026, 0, 1), Date.UTC(2026, 11, 31));
      for (const e of app.ctx.world.ledger) {
        if (e.accountId === accountId && e.at >= Date.UTC(2026, 0, 1) && e.at < Date.UTC(2027, 0, 1))
          ledger[e.kind] = (ledger[e.kind] ?? 0) + Math.round(e.amount * 100);
      }
    },
  });
  const cents = (x: number): number => Math.round(x * 100);
  const t = year!.total;
  expect(t.payments).toBeGreaterThan(500);
  expect(cents(t.interest_received)).toBe(ledger[LEDGER_KINDS.INTEREST]);
  expect(cents(t.principal_received)).toBe(ledger[LEDGER_KINDS.PRINCIPAL]);
  expect(cents(t.late_fees_received)).toBe(ledger[LEDGER_KINDS.LATE_FEE] ?? 0);
  expect(-cents(t.service_fees_paid)).toBe(ledger[LEDGER_KINDS.SERVICE_FEE]);
  // Charged-off notes: their loss is in the year; a collection fee comes out of what an agency collects, and moves cash.
  expect(t.principal_lost).toBeGreaterThan(0);
  expect(-cents(t.collection_fees_paid)).toBe(ledger[LEDGER_KINDS.COLLECTION_FEE] ?? 0);
  expect(cents(t.net_cash)).toBe(
    ledger[LEDGER_KINDS.INTEREST]!
      + ledger[LEDGER_KINDS.PRINCIPAL]!
      + (ledger[LEDGER_KINDS.LATE_FEE] ?? 0)
      + ledger[LEDGER_KINDS.SERVICE_FEE]!
      + (ledger[LEDGER_KINDS.COLLECTION_FEE] ?? 0),
  );
  // Every month reconciles: its rows (the month table's received) against the ledger over the same days.
  expect(sim.reconciliation).toMatchObject({ months: 12, months_reconciled: 12, difference: 0, differing: [], from: '2026-01-05' });
  expect(sim.reconciliation.statement_cash).toBeGreaterThan(0);
  for (const m of sim.months) expect([m.difference, cents(m.received)]).toEqual([0, cents(m.ledger_cash)]);
  // The month table adds up to the months' statements, so to the ledger.
  expect(cents(sim.months.reduce((x, m) => x + m.received, 0))).toBe(cents(sim.reconciliation.ledger_cash));
  expect(sim.statement.from).toBe('2026-12-05');
  for (const m of sim.months.slice(1)) {
    expect(typeof m.realised_return).toBe('number');
    expect(m.expected_return!).toBeLessThanOrEqual(m.realised_return!);
    expect(m.return_to_date).toBe(m.realised_return);
  }
}, 300_000);

test("every month's received, as the month table shows it, is what the account's ledger credited for payments in that month's days", async () => {
  const credited: number[] = [];
  const sim = await simulate(strategy(), {
    months: 12,
    seed: 5,
    cash: 5000,
    listings: 200,
    atEnd: async ({ market, accountId }) => {
      const app = appOf(market);
      // A month runs from its first day (the simulation's start day, moved by whole months) to the day before the next's.
      for (let m = 0; m < 12; m++) {
        const from = Date.UTC(2026, m, 5);
        const to = Date.UTC(2026, m + 1, 5);
        let total = 0;
        for (const e of app.ctx.world.ledger) {
          if (
            e.accountId === accountId
            && e.at >= from
            && e.at < to
            && !['ORDER_DEBIT', 'BID_REFUND', 'DEPOSIT', 'WITHDRAWAL'].includes(e.kind)
          )
            total += Math.round(e.amount * 100);
        }
        credited.push(total);
      }
    },
  });
  expect(sim.months.map((m) => Math.round(m.received * 100))).toEqual(credited);
}, 300_000);
