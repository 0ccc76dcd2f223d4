/**
 * GET /accounts/platform in the real marketplace's shape: the identities that tie its figures to the ledger
 * (views/account-view.ts `accountView`) hold for every account after every step of random worlds.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { parseApiDateTime } from '../src/contract/dates.js';
import { LOAN_STATUS } from '../src/contract/enums.js';
import type { AccountAnswerFields, NoteAnswerFields } from '../src/contract/resources.js';
import { call, makeApp, tokenFor } from './engine-fixture.js';
import { step, STEP_ACCOUNTS, takeStep } from './helpers/engine-steps.js';

const RATING_KEYS = ['NA', 'HR', 'E', 'D', 'C', 'B', 'A', 'AA'];
const MONEY = [
  'available_cash_balance',
  'pending_investments_primary_market',
  'pending_investments_secondary_market',
  'pending_quick_invest_orders',
  'total_principal_received_on_active_notes',
  'total_amount_invested_on_active_notes',
  'outstanding_principal_on_active_notes',
  'total_account_value',
  'pending_deposit',
  'last_deposit_amount',
  'last_withdraw_amount',
];

const c = (x: number): number => Math.round(x * 100);
const sumCents = (xs: Iterable<number>): number => [...xs].reduce((s, x) => s + c(x), 0);

/** Every note of the account behind `token`, as GET /notes pages them. */
async function allNotes(app: MockApp, token: string): Promise<NoteAnswerFields[]> {
  const out: NoteAnswerFields[] = [];
  for (let offset = 0; ; offset += 25) {
    const page = (await call(app, 'GET', `/v1/notes?offset=${offset}&limit=25`, { token })).body as {
      result: NoteAnswerFields[];
      total_count: number;
    };
    out.push(...page.result);
    if (out.length >= page.total_count || page.result.length === 0) return out;
  }
}

/** A note's outstanding principal as the portfolio reads it: its share of the loan's balance, none once charged off. */
const noteOutstanding = (n: NoteAnswerFields): number => (n.note_status === LOAN_STATUS.CHARGEOFF ? 0 : n.principal_balance_pro_rata_share);

/** Checks every identity of one account's answer against the world. */
async function checkAccount(app: MockApp, accountId: string, token: string): Promise<void> {
  const res = await call(app, 'GET', '/v1/accounts/platform', { token });
  expect(res.status).toBe(200);
  const a = res.body as AccountAnswerFields;
  const field = (f: string): unknown => (res.body as Record<string, unknown>)[f];
  const world = app.ctx.world;
  for (const f of MONEY) {
    const v = field(f);
    expect(typeof v, f).toBe('number');
    expect(Number.isInteger(Math.round((v as number) * 100 * 1e6) / 1e6), `${f} ${String(v)} has at most 2 decimals`).toBe(true);
  }
  expect(Object.keys(a.invested_notes).sort()).toEqual([...RATING_KEYS].sort());
  expect(Object.keys(a.pending_bids).sort()).toEqual([...RATING_KEYS].sort());
  // Cash is the account's ledger.
  expect(c(a.available_cash_balance)).toBe(sumCents(world.ledger.filter((e) => e.accountId === accountId).map((e) => e.amount)));
  // Pending is what its PENDING bids hold, and the by-rating figures add up to it.
  const bids = [...world.orders.values()].filter((o) => o.accountId === accountId).flatMap((o) => o.bids);
  const held = bids.filter((b) => b.bid_status === 'PENDING').map((b) => (b.bid_result === 'NONE' ? b.bid_amount : b.bid_amount_placed));
  expect(c(a.pending_investments_primary_market)).toBe(sumCents(held));
  expect(sumCents(Object.values(a.pending_bids))).toBe(c(a.pending_investments_primary_market));
  // Outstanding principal is the sum of its notes' as GET /notes shows them (nothing on a charged-off note), by rating too.
  expect(c(a.outstanding_principal_on_active_notes)).toBe(sumCents((await allNotes(app, token)).map(noteOutstanding)));
  expect(sumCents(Object.values(a.invested_notes))).toBe(c(a.outstanding_principal_on_active_notes));
  // Invested on active notes = principal received on them + principal outstanding.
  expect(c(a.total_amount_invested_on_active_notes)).toBe(
    c(a.total_principal_received_on_active_notes) + c(a.outstanding_principal_on_active_notes),
  );
  expect(a.total_principal_received_on_active_notes).toBeGreaterThanOrEqual(0);
  // Total value = cash + every pending figure + outstanding principal.
  expect(c(a.total_account_value)).toBe(
    c(a.available_cash_balance)
      + c(a.pending_investments_primary_market)
      + c(a.pending_investments_secondary_market)
      + c(a.pending_quick_invest_orders)
      + c(a.outstanding_principal_on_active_notes),
  );
  // The last deposit and withdrawal are real ledger entries, in the past of the mock's clock.
  const last = (kind: string) => world.ledger.filter((e) => e.accountId === accountId && e.kind === kind).at(-1)!;
  expect(a.last_deposit_amount).toBe(last('DEPOSIT').amount);
  expect(a.last_withdraw_amount).toBe(-last('WITHDRAWAL').amount);
  for (const f of ['last_deposit_date', 'last_withdraw_date']) {
    expect(parseApiDateTime(String(field(f)))!).toBeLessThanOrEqual(app.ctx.clock.now());
  }
}

describe('the account answer', () => {
  test('its identities hold for every account after every step of random orders, clock moves, processing and withdrawals', async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const app = makeApp({ listings: 80 });
        const tokens = STEP_ACCOUNTS.map((a) => tokenFor(app, a));
        const accounts = [...new Set(STEP_ACCOUNTS)];
        for (const s of steps) {
          await takeStep(app, tokens, s);
          for (const a of accounts) await checkAccount(app, a, tokens[STEP_ACCOUNTS.indexOf(a)]!);
          checked++;
        }
      }),
      { numRuns: 15, seed: 20260415 },
    );
    expect(checked).toBeGreaterThan(50);
  });

  test('after clock moves over a seeded world, the total is its parts to the cent and the outstanding principal the sum of the notes', async () => {
    const app = makeApp({ listings: 300 });
    const token = tokenFor(app, 'alice-1');
    let moved = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 45 }), async (days) => {
        await call(app, 'POST', '/__mock/clock', { body: { advance: `${days}d` } });
        moved += days;
        await checkAccount(app, 'alice-1', token);
      }),
      { numRuns: 12, seed: 20261126 },
    );
    expect(moved).toBeGreaterThan(60);
  });

  test('has every field the real marketplace sends, dates in the asked time zone', async () => {
    const app = makeApp();
    const res = await call(app, 'GET', '/v1/accounts/platform', {
      token: tokenFor(app, 'alice-1'),
      headers: { timezone: 'America/New_York' },
    });
    expect(res.body.last_deposit_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} -0[45]00$/);
    expect(res.body.platform_account_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body).not.toHaveProperty('pending_investments');
  });
});
