/** GET /v1/loans/payments: the caller's share of each loan payment, its validation, pages, zones, route and scope. */
import { describe, expect, test } from 'vitest';
import { notesOf } from '../mock-server/world/world-index.js';
import { START, DAY, call, makeApp, tokenFor } from './engine-fixture.js';
import { startMock } from './helpers/mock.js';

type App = ReturnType<typeof makeApp>;
type Json = Record<string, any>;

/** The loans `accountId` holds notes in, lowest number first. */
const heldLoans = (app: App, accountId: string): number[] =>
  [...new Set(notesOf(app.ctx.world, accountId).map((n) => n.loanNumber))].sort((a, b) => a - b);

/** A token holding only `scopes`. */
function scopedToken(app: App, accountId: string, scopes: string[]): string {
  const value = `test-${accountId}-${scopes.join('+')}`;
  app.ctx.world.tokens.set(value, {
    value,
    kind: 'access',
    clientId: 'mkt-demo',
    accountId,
    scopes,
    expiresAt: START + 365 * DAY,
    authKey: 'test',
  });
  return value;
}

const payments = (app: App, token: string, query: string, headers: Record<string, string> = {}) =>
  call(app, 'GET', `/v1/loans/payments?${query}`, { token, headers });

describe('GET /v1/loans/payments', () => {
  test("answers the seeded history of a held loan: one row per payment, newest first, in the real answer's forms", async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const loan = heldLoans(app, 'alice-1').find((n) => app.ctx.world.loans.get(n)!.paymentsMade > 3)!;
    const res = await payments(app, alice, `loan_number=${loan}&limit=100`);
    expect(res.status).toBe(200);
    const rows: Json[] = res.body.result;
    expect(res.body.total_count).toBe(rows.length);
    expect(rows.length).toBeGreaterThanOrEqual(app.ctx.world.loans.get(loan)!.paymentsMade);
    for (const r of rows) {
      expect(r.loan_number).toBe(loan);
      expect(r.transaction_effective_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/);
      expect(r.match_back_id).toMatch(/^[0-9A-F]{40}$/);
      expect(r).toMatchObject({
        payment_transaction_code: 'ACH',
        payment_status: 'Success',
        loan_payment_cashflow_type: 'Payment',
        prior_match_back_id: null,
        post_days_past_due: null,
      });
    }
    const dates = rows.map((r) => Date.parse(r.transaction_effective_date));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    // The balance falls payment by payment, oldest to newest.
    const balances = rows.map((r) => Number(r.resulting_principal_balance)).reverse();
    expect(balances).toEqual([...balances].sort((a, b) => b - a));
  });

  test('takes several loan numbers, comma-separated or repeated; a loan the caller holds no note in gives no rows', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const [a, b] = heldLoans(app, 'alice-1');
    const other = [...app.ctx.world.loans.keys()].find((n) => !heldLoans(app, 'alice-1').includes(n))!;
    const count = async (query: string) => (await payments(app, alice, query)).body.total_count as number;
    const [ca, cb] = [await count(`loan_number=${a}`), await count(`loan_number=${b}`)];
    expect(ca).toBeGreaterThan(0);
    expect(await count(`loan_number=${a},${b}`)).toBe(ca + cb);
    expect(await count(`loan_number=${a}&loan_number=${b}`)).toBe(ca + cb);
    expect(await count(`loan_number=${a}%2C${b}`)).toBe(ca + cb);
    expect(await count(`loan_number=${a},${a}`)).toBe(ca);
    expect(await count(`loan_number=${other}`)).toBe(0);
    expect(await count(`loan_number=${other},${a},999999999`)).toBe(ca);
    // Another holder of the same loans sees only rows of their own notes: bob holds none of alice's.
    expect((await payments(app, tokenFor(app, 'bob-1'), `loan_number=${a}`)).body).toEqual({ result: [], result_count: 0, total_count: 0 });
  });

  test('loan_number missing or not loan numbers, and a transaction_effective_date that is not yyyy-MM-dd, are 400 VAL0001 naming the parameter', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const [loan] = heldLoans(app, 'alice-1');
    for (const query of [
      '',
      'limit=5',
      'loan_number=',
      'loan_number=abc',
      `loan_number=${loan},`,
      `loan_number=${loan},,1`,
      'loan_number=-5',
      'loan_number=1.5',
      'loan_number=1234567890123456',
    ]) {
      const res = await payments(app, alice, query);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VAL0001');
      expect(res.body.message).toMatch(/^loan_number: /);
    }
    for (const date of [
      '2026-13-01',
      '2026-02-30',
      '2026/01/01',
      '20260101',
      '2026-01-01 00:00:00',
      '2026-01-01T00:00:00',
      'yesterday',
      '',
    ]) {
      const res = await payments(app, alice, `loan_number=${loan}&transaction_effective_date=${encodeURIComponent(date)}`);
      expect(res.status, date).toBe(400);
      expect(res.body).toMatchObject({ code: 'VAL0001' });
      expect(res.body.message).toMatch(/^transaction_effective_date: .*yyyy-MM-dd/);
    }
  });

  test('pages: 25 by default, at most 100, the pages in order add up to the whole list without a repeat', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const loans = heldLoans(app, 'alice-1').join(',');
    const first = (await payments(app, alice, `loan_number=${loans}`)).body;
    expect(first.total_count).toBeGreaterThan(150);
    expect(first.result_count).toBe(25);
    expect((await payments(app, alice, `loan_number=${loans}&limit=500`)).body.result_count).toBe(100);
    const rows: Json[] = [];
    for (let offset = 0; offset < first.total_count; offset += 40)
      rows.push(...(await payments(app, alice, `loan_number=${loans}&offset=${offset}&limit=40`)).body.result);
    expect(rows).toHaveLength(first.total_count);
    expect(rows.slice(0, 25)).toEqual(first.result);
    expect(new Set(rows.map((r) => r.transaction_id)).size).toBe(rows.length);
    for (const bad of ['offset=-1', 'limit=-1', 'limit=abc', 'offset=1.5'])
      expect((await payments(app, alice, `loan_number=${loans}&${bad}`)).status, bad).toBe(400);
  });

  test("dates are in the timezone header's zone, and transaction_effective_date is a day in that zone", async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const loans = heldLoans(app, 'alice-1').join(',');
    const utc: Json[] = (await payments(app, alice, `loan_number=${loans}&limit=100`)).body.result;
    const zoned: Json[] = (await payments(app, alice, `loan_number=${loans}&limit=100`, { timezone: 'America/Los_Angeles' })).body.result;
    expect(zoned.map((r) => r.transaction_id)).toEqual(utc.map((r) => r.transaction_id));
    for (const [i, r] of zoned.entries()) {
      expect(r.transaction_effective_date).toMatch(/-0[78]00$/);
      for (const f of ['transaction_effective_date', 'account_effective_date', 'funds_available_date', 'investor_disbursement_date']) {
        expect(Date.parse(r[f]), f).toBe(Date.parse(utc[i]![f]));
      }
    }
    // A payment at 12:00 UTC is the next day at 02:00 in Kiritimati (+14): its UTC day's successor takes it only there.
    const noon = utc.find((r) => r.transaction_effective_date.slice(11, 13) === '12')!;
    const at = Date.parse(noon.transaction_effective_date);
    const nextDay = new Date(at + DAY).toISOString().slice(0, 10);
    const ids = async (date: string, headers: Record<string, string> = {}) =>
      (
        (await payments(app, alice, `loan_number=${noon.loan_number}&limit=100&transaction_effective_date=${date}`, headers)).body
          .result as Json[]
      ).map((r) => r.transaction_id);
    expect(await ids(nextDay)).not.toContain(noon.transaction_id);
    expect(await ids(nextDay, { timezone: 'Pacific/Kiritimati' })).toContain(noon.transaction_id);
    expect(await ids(new Date(at).toISOString().slice(0, 10))).toContain(noon.transaction_id);
    // On or after the day: every row left is effective on or after its first instant.
    const since = await ids(new Date(at).toISOString().slice(0, 10));
    const all = utc.filter((r) => r.loan_number === noon.loan_number);
    expect(since).toEqual(
      all
        .filter((r) => Date.parse(r.transaction_effective_date) >= Date.parse(`${new Date(at).toISOString().slice(0, 10)}T00:00:00Z`))
        .map((r) => r.transaction_id),
    );
    expect(since.length).toBeLessThan(all.length);
    expect((await payments(app, alice, `loan_number=${noon.loan_number}`, { timezone: 'Mars/Base' })).status).toBe(400);
  });

  test('reaches its own route, not /v1/loans/{loan_id}, with or without a trailing slash; /v1/loans/{loan_id} still answers its loan', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const [loan] = heldLoans(app, 'alice-1');
    for (const path of [`/v1/loans/payments?loan_number=${loan}`, `/v1/loans/payments/?loan_number=${loan}`]) {
      const res = await call(app, 'GET', path, { token: alice });
      expect(res.status, path).toBe(200);
      expect(res.body.result[0].loan_number).toBe(loan);
    }
    // Without loan_number it is this route's own 400, not the loan route's loan_id error.
    expect((await call(app, 'GET', '/v1/loans/payments', { token: alice })).body.message).toMatch(/^loan_number: /);
    expect((await call(app, 'GET', `/v1/loans/${loan}`, { token: alice })).body.loan_number).toBe(loan);
    expect((await call(app, 'POST', `/v1/loans/payments?loan_number=${loan}`, { token: alice })).status).toBe(405);
  });

  test("answers over HTTP as in-process, through the server's own routing", async () => {
    const mock = await startMock();
    try {
      const [loan] = heldLoans(mock.app, 'alice-1');
      const headers = { authorization: `bearer ${mock.env.MKT_ACCESS_TOKEN}`, timezone: 'America/New_York' };
      const res = await fetch(`${mock.origin}/v1/loans/payments?loan_number=${loan}&limit=3`, { headers });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Json;
      expect(body.result_count).toBe(3);
      expect(body.result[0].transaction_effective_date).toMatch(/-0[45]00$/);
      expect(body).toEqual(
        (
          await call(mock.app, 'GET', `/v1/loans/payments?loan_number=${loan}&limit=3`, {
            token: mock.env.MKT_ACCESS_TOKEN,
            headers: { timezone: 'America/New_York' },
          })
        ).body,
      );
    } finally {
      await mock.close();
    }
  });

  test('needs a token with read_loan: none is 401, another scope 403, a read-only grant reads', async () => {
    const app = makeApp();
    const [loan] = heldLoans(app, 'alice-1');
    const query = `loan_number=${loan}`;
    expect((await call(app, 'GET', `/v1/loans/payments?${query}`)).status).toBe(401);
    const other = await payments(app, scopedToken(app, 'alice-1', ['read_listing', 'read_note']), query);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('insufficient_scope');
    expect((await payments(app, scopedToken(app, 'alice-1', ['read_loan']), query)).status).toBe(200);
    expect((await payments(app, tokenFor(app, 'alice-1', true), query)).body.total_count).toBeGreaterThan(0);
  });

  test('a payment the engine makes is a new row at its own time; the rows already there stay as they were', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const loan = heldLoans(app, 'alice-1').find((n) => app.ctx.world.loans.get(n)!.loan_status === 1)!;
    const before: Json[] = (await payments(app, alice, `loan_number=${loan}&limit=100`)).body.result;
    await call(app, 'POST', '/__mock/clock', { body: { advance: '70d' } });
    const after: Json[] = (await payments(app, alice, `loan_number=${loan}&limit=100`)).body.result;
    const added = after.length - before.length;
    expect(added).toBeGreaterThanOrEqual(1);
    expect(after.slice(added)).toEqual(before);
    for (const r of after.slice(0, added)) {
      const at = Date.parse(r.transaction_effective_date);
      expect(at).toBeGreaterThan(START);
      expect(at % 3_600_000).toBe(0);
    }
    // Only rows on or after a day after the start: the new ones.
    const since = new Date(START + DAY).toISOString().slice(0, 10);
    expect((await payments(app, alice, `loan_number=${loan}&limit=100&transaction_effective_date=${since}`)).body.result).toEqual(
      after.slice(0, added),
    );
  });
});
