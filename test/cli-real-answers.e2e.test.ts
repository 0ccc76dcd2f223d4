/**
 * Every read command against the real answers of the public clients' tests (test/fixtures/marketplace/),
 * in every output format: exit 0, the figures shown, and -o json exactly as the marketplace sent it.
 * Before the tolerant reader, notes, loans, portfolio and the 2015 account all exited 5 here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMkt } from './helpers/cli.js';
import { corpusFile, NEWEST, OLDEST, startFixtureServer, type FixtureChoice, type FixtureServer } from './helpers/marketplace-fixtures.js';

type Json = Record<string, unknown>;
const item = (file: string, key: string, id: string | number): Json =>
  (corpusFile(file) as { result: Json[] }).result.find((x) => x[key] === id)!;

/** One read command: its arguments, what -o json must equal, and a figure the table and csv must show. */
interface Case {
  args: string[];
  json: unknown;
  table: RegExp;
  csv: RegExp;
}

function cases(c: FixtureChoice): Case[] {
  const newest = c === NEWEST;
  const note = newest ? item('python-notes.json', 'loan_note_id', '35659-26') : item('go-notes.json', 'loan_note_id', '7735-205');
  const listing = newest ? 11111111 : 4247229;
  return [
    {
      args: ['account'],
      json: corpusFile(c.account),
      table: newest ? /total_account_value: +1,111\.11/ : /last_deposit_date: +2015-10-23/,
      csv: newest ? /111\.1111/ : /12345\.67/,
    },
    {
      args: ['notes', 'list'],
      json: corpusFile(c.notes),
      table: newest ? /35659-26 +N\/A/ : /7735-205 +N\/A/,
      csv: newest ? /35659-26,N\/A/ : /7772-64,N\/A/,
    },
    {
      args: ['notes', 'get', String(note.loan_note_id)],
      json: note,
      table: newest ? /platform_rating: +N\/A/ : /principal_balance_pro_rata_share: +42\.17$/m,
      csv: newest ? /69\.7381/ : /42\.17326/,
    },
    { args: ['loans', 'list'], json: corpusFile(c.loans), table: /11111 +2007-10-19 +N\/A/, csv: /11111,2007-10-19,N\/A/ },
    { args: ['loans', 'get', '11111'], json: item(c.loans, 'loan_number', 11111), table: /loan_default_reason: +0/, csv: /-37\.59/ },
    {
      args: ['loans', 'payments', '2300367'],
      json: corpusFile(c.payments),
      table: /2025-02-02 08:00:00 \+0000 +2300367 +0\.78 +0\.22 +0\.56/,
      csv: /0\.7812,0\.2169,0\.5643/,
    },
    { args: ['order', 'list'], json: corpusFile(c.orders), table: /COMPLETED +25\.00/, csv: /COMPLETED,25/ },
    { args: ['order', 'get', '90cf709d-81d6-416a-89f2-ba6ab8146ef2'], json: corpusFile(c.order), table: /INVESTED/, csv: /BID_SUCCEEDED/ },
    { args: ['listings', 'search'], json: corpusFile(c.listings), table: new RegExp(String(listing)), csv: new RegExp(String(listing)) },
    {
      args: ['listings', 'get', String(listing)],
      json: (corpusFile(c.listings) as { result: Json[] }).result[0],
      table: new RegExp(String(listing)),
      csv: new RegExp(String(listing)),
    },
  ];
}

for (const [name, choice] of [
  ['the newest answers (Python client, 2023-2025)', NEWEST],
  ['the oldest answers (Go client, 2015)', OLDEST],
] as const) {
  describe(`every read command on ${name}`, () => {
    let server: FixtureServer;
    beforeAll(async () => {
      server = await startFixtureServer(choice);
    });
    afterAll(() => server.close());

    for (const c of cases(choice)) {
      it(`mkt ${c.args.join(' ')} exits 0 in every format, -o json as sent`, async () => {
        const runs = await Promise.all(['json', 'ndjson', 'csv', 'table'].map((o) => runMkt([...c.args, '-o', o], { env: server.env })));
        const [json, ndjson, csv, table] = runs;
        for (const r of runs) {
          expect(r.stderr).not.toMatch(/mkt:|error/);
          expect(r.code).toBe(0);
        }
        expect(JSON.parse(json!.stdout)).toEqual(c.json);
        const lines = ndjson!.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as unknown);
        const sent = c.json as { result?: unknown[] };
        expect(lines).toEqual(Array.isArray(sent.result) ? sent.result : [c.json]);
        expect(csv!.stdout).toMatch(c.csv);
        expect(table!.stdout).toMatch(c.table);
      });
    }

    it('mkt portfolio exits 0 in every format and reckons with the notes as sent', async () => {
      const runs = await Promise.all(['json', 'ndjson', 'csv', 'table'].map((o) => runMkt(['portfolio', '-o', o], { env: server.env })));
      const [json, ndjson, csv, table] = runs;
      for (const r of runs) {
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
      }
      const p = JSON.parse(json!.stdout);
      const notes = (corpusFile(choice.notes) as { result: Json[] }).result;
      const account = corpusFile(choice.account) as Json;
      expect(p.notes).toBe(notes.length);
      expect(p.invested).toBeCloseTo(
        notes.reduce((s, n) => s + Number(n.note_ownership_amount), 0),
        2,
      );
      expect(p.available_cash_balance).toBe(account.available_cash_balance);
      expect(p.account_value).toBe(account.total_account_value);
      // Old loans are rated N/A in the notes: one bucket, N/A, whichever spelling a note carries.
      expect(p.by_rating['N/A'].notes).toBe(notes.length);
      expect(p.by_rating.NA).toBeUndefined();
      expect(p.by_status.defaulted.notes).toBe(notes.length);
      expect(JSON.parse(ndjson!.stdout)).toEqual(p);
      expect(csv!.stdout.split('\n')[0]).toMatch(/^as_of,account_value,/);
      expect(table!.stdout).toMatch(/^notes +\d+ \(\d+\.\d\d invested\)$/m);
    });
  });
}

describe('mkt loans payments against the real payments answer', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer();
  });
  afterAll(() => server.close());

  it('asks for the loans in one comma-separated loan_number and --since as transaction_effective_date', async () => {
    const r = await runMkt(['loans', 'payments', '2300367', '11111', '--since', '2025-01-01', '--limit', '100', '-o', 'json'], {
      env: server.env,
    });
    expect(r.code).toBe(0);
    const seen = server.requests.filter((q) => q.path === '/v1/loans/payments').at(-1)!;
    expect(Object.fromEntries(seen.query)).toEqual({
      loan_number: '2300367,11111',
      transaction_effective_date: '2025-01-01',
      limit: '100',
    });
    expect(JSON.parse(r.stdout).result[0].payment_amount).toBe('0.7812');
  });

  it('--all streams every row with pages of 100', async () => {
    const r = await runMkt(['loans', 'payments', '2300367', '--all', '-o', 'ndjson'], { env: server.env });
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).transaction_id),
    ).toEqual([318744581, 317088207]);
    expect(server.requests.at(-1)!.query.get('limit')).toBe('100');
  });

  it('refuses a bad date or loan number before anything is sent (exit 2)', async () => {
    const before = server.requests.length;
    const bad = await runMkt(['loans', 'payments', '2300367', '--since', '2025-02-30'], { env: server.env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--since must be a date as yyyy-MM-dd, got '2025-02-30'/);
    const loan = await runMkt(['loans', 'payments', 'x1'], { env: server.env });
    expect(loan.code).toBe(2);
    expect(server.requests.length).toBe(before);
  });
});

describe('mkt notes list filters on the real notes', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer(OLDEST);
  });
  afterAll(() => server.close());

  it('--rating na and N/A both find the notes rated N/A; --status reads the status code as sent', async () => {
    for (const rating of ['na', 'N/A']) {
      const r = await runMkt(['notes', 'list', '--rating', rating, '-o', 'json'], { env: server.env });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).map((n: Json) => n.loan_note_id)).toEqual(['7735-205', '7772-64']);
    }
    const defaulted = await runMkt(['notes', 'list', '--status', 'defaulted', '-o', 'json'], { env: server.env });
    expect(JSON.parse(defaulted.stdout)).toHaveLength(2);
    const current = await runMkt(['notes', 'list', '--status', 'current', '-o', 'json'], { env: server.env });
    expect(JSON.parse(current.stdout)).toEqual([]);
  });
});

describe('the order desk on the 2015 account answer, which has no external_user_id', () => {
  let server: FixtureServer;
  beforeAll(async () => {
    server = await startFixtureServer(OLDEST);
  });
  afterAll(() => server.close());

  it('refuses to submit, saying why, and sends no order', async () => {
    const r = await runMkt(['order', 'submit', '-', '--yes'], { env: server.env, input: 'listing_id,bid_amount\n4247229,25\n' });
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      /has no external_user_id, and the journal that keeps a bid from being sent twice is kept per account: mkt does not submit without it; nothing was sent/,
    );
    expect(server.requests.filter((q) => q.method === 'POST')).toEqual([]);
  });
});
