/** --state: the world survives a restart, is written atomically, and a torn or corrupt file is refused. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { checkInvariants } from '../mock-server/audit/invariants.js';
import { startHttpServer } from '../mock-server/http-adapter.js';
import { parseState, serializeState, StateFileError } from '../mock-server/world/persistence.js';
import { call, makeApp, order, plainListings, START, tokenFor } from './engine-fixture.js';

const apps: MockApp[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close?.();
});

function stateApp(file: string): MockApp {
  const app = makeApp({ stateFile: file, listings: 120 });
  apps.push(app);
  return app;
}

describe('a restart with --state', () => {
  test('continues where it left off: clock, orders, balances, listings, and the engine keeps going', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mkt-state-')), 'world.json');
    const first = stateApp(file);
    const alice = tokenFor(first, 'alice-1');
    const l = plainListings(first)[0]!;
    l.verification_stage = 3;
    const id = (await order(first, alice, [{ listing_id: l.listing_number, bid_amount: l.amount_remaining }])).body.order_id;
    await call(first, 'POST', '/__mock/process');
    await call(first, 'POST', '/__mock/clock', { body: { advance: '2h' } });
    const before = (await call(first, 'GET', '/v1/accounts/platform', { token: alice })).body;
    const orderBefore = (await call(first, 'GET', `/v1/orders/${id}`, { token: alice })).body;
    await first.close?.();

    const second = stateApp(file);
    expect(second.ctx.clock.now()).toBe(START + 2 * 3_600_000);
    expect((await call(second, 'GET', '/v1/accounts/platform', { token: alice })).body).toEqual(before);
    expect((await call(second, 'GET', `/v1/orders/${id}`, { token: alice })).body).toEqual(orderBefore);
    expect(second.ctx.world.listingByNumber.get(l.listing_number)!.listing_status).toBe(8);
    await call(second, 'POST', '/__mock/clock', { body: { advance: '4d' } });
    expect((await call(second, 'GET', `/v1/orders/${id}`, { token: alice })).body.order_status).toBe('COMPLETED');
    expect(checkInvariants(second.ctx.world).ok).toBe(true);
  });

  test("keeps each loan's payment log: the payment rows read the same after a restart, and new payments follow them", async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mkt-state-')), 'world.json');
    const first = stateApp(file);
    const alice = tokenFor(first, 'alice-1');
    const loans = [...new Set(first.ctx.world.notes.filter((n) => n.accountId === 'alice-1').map((n) => n.loanNumber))].join(',');
    await call(first, 'POST', '/__mock/clock', { body: { advance: '70d' } });
    const logged = [...first.ctx.world.loans.values()].filter((l) => l.paymentLog).length;
    expect(logged).toBeGreaterThan(0);
    const rows = (await call(first, 'GET', `/v1/loans/payments?loan_number=${loans}&limit=100`, { token: alice })).body;
    await first.close?.();

    const second = stateApp(file);
    expect([...second.ctx.world.loans.values()].filter((l) => l.paymentLog).length).toBe(logged);
    expect((await call(second, 'GET', `/v1/loans/payments?loan_number=${loans}&limit=100`, { token: alice })).body).toEqual(rows);
    await call(second, 'POST', '/__mock/clock', { body: { advance: '40d' } });
    const later = (await call(second, 'GET', `/v1/loans/payments?loan_number=${loans}&limit=100`, { token: alice })).body;
    expect(later.total_count).toBeGreaterThan(rows.total_count);
    const byId = new Map(later.result.map((r: { transaction_id: number }) => [r.transaction_id, r]));
    for (const r of rows.result) if (byId.has(r.transaction_id)) expect(byId.get(r.transaction_id)).toEqual(r);
  });

  test('a running server keeps its folder: on close a base snapshot and a fresh log, a lock file naming nobody and no temporary files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mkt-state-'));
    const file = join(dir, 'world');
    const app = stateApp(file);
    const server = await startHttpServer(app, '127.0.0.1', 0);
    const token = tokenFor(app, 'alice-1');
    const res = await fetch(`${server.origin}/v1/orders/`, {
      method: 'POST',
      headers: { authorization: `bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ bid_requests: [{ listing_id: plainListings(app)[0]!.listing_number, bid_amount: 25 }] }),
    });
    expect(res.status).toBe(200);
    const { order_id } = (await res.json()) as { order_id: string };
    await server.close();
    expect(readdirSync(dir)).toEqual(['world']);
    // The kernel's lock is let go with the file left in place (removing it is how two mocks came to hold one folder).
    expect(readFileSync(join(file, 'mock.pid'), 'utf8')).toBe('');
    const kept = readdirSync(file)
      .filter((n) => n !== 'mock.pid')
      .sort();
    expect(kept).toEqual([expect.stringMatching(/^world-\d{6}\.log$/), expect.stringMatching(/^world-\d{6}\.snapshot$/)]);
    const saved = parseState(readFileSync(join(file, kept[1]!), 'utf8'), kept[1]);
    expect(saved.world.orders.has(order_id)).toBe(true);
  });

  test('a single file an earlier mock wrote still loads, and keeps being saved whole on every change', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mkt-state-')), 'world.json');
    const old = makeApp({ listings: 120 });
    writeFileSync(file, serializeState(old.ctx.world, old.ctx.clock.now()));
    const app = stateApp(file);
    const alice = tokenFor(app, 'alice-1');
    const id = (await order(app, alice, [{ listing_id: plainListings(app)[0]!.listing_number, bid_amount: 25 }])).body.order_id;
    expect(parseState(readFileSync(file, 'utf8'), file).world.orders.has(id)).toBe(true);
  });
});

describe('a bad state file', () => {
  const world = (): string => {
    const app = makeApp({ listings: 20 });
    return serializeState(app.ctx.world, app.ctx.clock.now());
  };

  test('a torn file (cut short mid-write) is refused with a clear error', () => {
    const text = world();
    expect(() => parseState(text.slice(0, Math.floor(text.length / 2)), 'w.json')).toThrow(/w\.json is torn/);
  });

  test('an edited file (checksum mismatch) is refused', () => {
    const text = world().replace('"alice"', '"alicf"');
    expect(() => parseState(text, 'w.json')).toThrow(/corrupt/);
  });

  test('something that is not a state file is refused, and the mock does not start on it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mkt-state-'));
    const file = join(dir, 'world.json');
    writeFileSync(file, '{"hello": "world"}');
    expect(() => makeApp({ stateFile: file })).toThrow(StateFileError);
    expect(() => makeApp({ stateFile: file })).toThrow(/not a mkt mock state file.*delete it to start a fresh world/);
  });

  test('an intact file round-trips to the same world', () => {
    const text = world();
    const saved = parseState(text);
    expect(serializeState(saved.world, saved.now)).toBe(text);
  });
});

describe('a restart with --state keeps the OAuth world', () => {
  test('a key and tokens issued before the restart still work after it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mkt-state-')), 'world.json');
    const first = makeApp({ stateFile: file, listings: 60, autoApprove: ['alice'] });
    apps.push(first);
    const redirect = await first.handle(new Request('http://127.0.0.1/oauth?client_id=mkt-demo&response_type=auth_key&state=s1'));
    expect(redirect.status).toBe(302);
    const authKey = new URL(redirect.headers.get('location')!).searchParams.get('auth_key')!;
    const form = new URLSearchParams({
      grant_type: 'authorization_key',
      client_id: 'mkt-demo',
      client_secret: 'mkt-demo-secret',
      auth_key: authKey,
    });
    const tokenRes = await first.handle(
      new Request('http://127.0.0.1/v1/security/oauth/token', {
        method: 'POST',
        body: form,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
    const tokens = (await tokenRes.json()) as { access_token: string };
    await first.close?.();

    const second = makeApp({ stateFile: file, listings: 60 });
    apps.push(second);
    expect((await call(second, 'GET', '/v1/accounts/platform', { token: tokens.access_token })).status).toBe(200);
    const again = await second.handle(
      new Request('http://127.0.0.1/v1/security/oauth/token', {
        method: 'POST',
        body: form,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    );
    expect(again.status).toBe(200);
  });
});

describe('a state file written by an older mock', () => {
  test('an ended loan saved with next_payment_due_date null is read back with the last due date its payments reached', () => {
    const app = makeApp({ listings: 60 });
    apps.push(app);
    const loan = [...app.ctx.world.loans.values()].find((l) => l.loan_status === 4 && l.paymentsMade > 0)!;
    const due = loan.next_payment_due_date;
    (loan as { next_payment_due_date: number | null }).next_payment_due_date = null;
    const back = parseState(serializeState(app.ctx.world, START)).world.loans.get(loan.loan_number)!;
    expect(typeof back.next_payment_due_date).toBe('number');
    // Within a few days of the seed's own date for it (the seed counts months of 30.4375 days, the reader calendar months).
    expect(Math.abs(back.next_payment_due_date - due)).toBeLessThan(10 * 86_400_000);
  });

  test('old loans and their listings saved rated NA are read back rated N/A, as this mock spells it', () => {
    const app = makeApp({ listings: 60 });
    apps.push(app);
    const old = [...app.ctx.world.loans.values()].filter((l) => l.platform_rating === 'N/A');
    expect(old.length).toBeGreaterThan(0);
    for (const loan of old) {
      loan.platform_rating = 'NA';
      app.ctx.world.listingByNumber.get(loan.listingNumber)!.platform_rating = 'NA';
    }
    expect(serializeState(app.ctx.world, START)).toContain('"platform_rating":"NA"');
    const back = parseState(serializeState(app.ctx.world, START)).world;
    for (const loan of old) {
      expect(back.loans.get(loan.loan_number)!.platform_rating).toBe('N/A');
      expect(back.listingByNumber.get(loan.listingNumber)!.platform_rating).toBe('N/A');
    }
    expect(serializeState(back, START)).not.toContain('"platform_rating":"NA"');
  });
});
