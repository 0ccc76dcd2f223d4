/** `mkt notes list|get` spawned against the real mock over HTTP: every output format, --all, client-side filters, bad ids. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTE_FIELDS } from '../src/contract/note-fields.js';
import { NOWHERE, runMkt } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeAll(async () => {
  // A world big enough that alice holds more than one page of notes.
  mock = await startMock({ listings: 700 });
});
afterAll(async () => {
  await mock.close();
});

type Json = Record<string, any>;
const lines = (text: string): Json[] =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
const held = () => mock.app.ctx.world.notes.filter((n) => n.accountId === 'alice-1');
const statusOf = (loanNumber: number) => mock.app.ctx.world.loans.get(loanNumber)!.loan_status;

describe('mkt notes list', () => {
  it('prints one page as the API envelope (json), every note with --all (ndjson, json array), and csv with the default columns', async () => {
    const all = held();
    expect(all.length).toBeGreaterThan(25);
    const page = await runMkt(['notes', 'list', '-o', 'json'], { env: mock.env });
    expect(page.code, page.stderr).toBe(0);
    const envelope = JSON.parse(page.stdout);
    expect(envelope).toMatchObject({ result_count: 25, total_count: all.length });
    expect(Object.keys(envelope.result[0])).toEqual(expect.arrayContaining([...NOTE_FIELDS]));
    const nd = await runMkt(['notes', 'list', '--all', '-o', 'ndjson'], { env: mock.env });
    expect(nd.code, nd.stderr).toBe(0);
    const ids = lines(nd.stdout).map((n) => n.loan_note_id);
    expect([...ids].sort()).toEqual(all.map((n) => n.note_number).sort());
    const array = JSON.parse((await runMkt(['notes', 'list', '--all'], { env: mock.env })).stdout);
    expect(array.map((n: Json) => n.loan_note_id)).toEqual(ids);
    const csv = (await runMkt(['notes', 'list', '-o', 'csv'], { env: mock.env })).stdout.trim().split('\n');
    expect(csv[0]).toBe(
      'loan_note_id,platform_rating,note_status_description,days_past_due,note_ownership_amount,principal_balance_pro_rata_share,principal_paid_pro_rata_share,interest_paid_pro_rata_share,lender_yield,term,origination_date,next_payment_due_date',
    );
    expect(csv).toHaveLength(26);
  });

  it('fits the table to the terminal, keeping the note, its status and balance first, and says how to see the rest', async () => {
    const r = await runMkt(['notes', 'list', '-o', 'table'], { env: { ...mock.env, COLUMNS: '60' } });
    expect(r.code, r.stderr).toBe(0);
    const out = r.stdout.trimEnd().split('\n');
    for (const line of out) expect(line.length).toBeLessThanOrEqual(60);
    // Columns keep their order; the narrow terminal drops the least important ones.
    expect(out[0]).toMatch(/^note\s.*\sstatus\s.*\sbalance\b/);
    expect(out[0]).not.toMatch(/interest paid|lender_yield/);
    expect(out).toHaveLength(26);
    expect(r.stderr).toMatch(/25 of \d+ — use --all or --offset/);
    const wide = await runMkt(['notes', 'list', '-o', 'table'], { env: { ...mock.env, COLUMNS: '200' } });
    expect(wide.stdout.split('\n')[0]).toMatch(
      /^note\s+rating\s+status\s+days_past_due\s+owned\s+balance\s+principal paid\s+interest paid\s+lender_yield/,
    );
  });

  it('--columns and --query shape json and ndjson; --sort-by sorts by any note field', async () => {
    const picked = lines(
      (await runMkt(['notes', 'list', '-o', 'ndjson', '--columns', 'loan_note_id,note_status'], { env: mock.env })).stdout,
    );
    for (const n of picked) expect(Object.keys(n)).toEqual(['loan_note_id', 'note_status']);
    const q = await runMkt(['notes', 'list', '--all', '-o', 'json', '--query', 'length(@)'], { env: mock.env });
    expect(JSON.parse(q.stdout)).toBe(held().length);
    const bad = await runMkt(['notes', 'list', '--columns', 'loan_note_idd'], { env: NOWHERE });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown column 'loan_note_idd'.*loan_note_id/s);
    const sorted = JSON.parse((await runMkt(['notes', 'list', '--sort-by', 'note_ownership_amount asc'], { env: mock.env })).stdout).result;
    const amounts = sorted.map((n: Json) => n.note_ownership_amount);
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
  });

  it('--status and --rating keep matching notes from every page, by word or code, ratings including N/A (typed N/A or NA)', async () => {
    const late = new Set(
      held()
        .filter((n) => [2, 3].includes(statusOf(n.loanNumber)))
        .map((n) => n.note_number),
    );
    expect(late.size).toBeGreaterThan(0);
    for (const status of ['chargeoff,defaulted', '2,3', 'Charge-Off,DEFAULTED']) {
      const r = await runMkt(['notes', 'list', '--status', status, '-o', 'ndjson'], { env: mock.env });
      expect(r.code, r.stderr).toBe(0);
      expect(new Set(lines(r.stdout).map((n) => n.loan_note_id))).toEqual(late);
    }
    const ratings = new Set(['AA', 'A', 'N/A']);
    const ratingOf = (n: { loanNumber: number }): string => mock.app.ctx.world.loans.get(n.loanNumber)!.platform_rating;
    const wanted = held().filter((n) => ratings.has(ratingOf(n)) && statusOf(n.loanNumber) === 4);
    expect(
      wanted.some((n) => ratingOf(n) === 'N/A'),
      'the seeded world has completed N/A notes',
    ).toBe(true);
    for (const typed of ['aa,A,na', 'AA,a,N/A']) {
      const both = await runMkt(['notes', 'list', '--rating', typed, '--status', 'completed', '-o', 'json'], { env: mock.env });
      expect(both.code, both.stderr).toBe(0);
      expect(
        JSON.parse(both.stdout)
          .map((n: Json) => n.loan_note_id)
          .sort(),
        typed,
      ).toEqual(wanted.map((n) => n.note_number).sort());
    }
  });

  it('refuses a bad filter or a filter with paging flags with exit 2, before anything is sent', async () => {
    for (const [args, message] of [
      [['--status', 'late'], /--status: unknown value 'late'; use .*current \(1\)/],
      [['--status', '9'], /--status: unknown value '9'/],
      [['--status', ','], /--status needs at least one value/],
      [['--rating', 'Z'], /--rating: unknown value 'Z'; use AA, A, B, C, D, E, HR, N\/A \(or NA\)/],
      [['--status', 'current', '--limit', '5'], /leave out --limit and --offset/],
      [['--limit', '26'], /--limit must be at most 25/],
    ] as const) {
      const r = await runMkt(['notes', 'list', ...args], { env: NOWHERE });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
    }
  });
});

describe('mkt notes get', () => {
  it('prints one note as json, as the list shows it, or as a field/value table', async () => {
    const first = JSON.parse((await runMkt(['notes', 'list'], { env: mock.env })).stdout).result[0];
    const one = await runMkt(['notes', 'get', first.loan_note_id], { env: mock.env });
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toEqual(first);
    const table = await runMkt(['notes', 'get', first.loan_note_id, '-o', 'table'], { env: mock.env });
    // One record as `field: value` lines, the note's money as money.
    expect(table.stdout).toMatch(new RegExp(`^loan_note_id:\\s+${first.loan_note_id}$`, 'm'));
    expect(table.stdout).toMatch(/^principal_balance_pro_rata_share:\s+\d{1,3}(,\d{3})*\.\d\d$/m);
  });

  it("a malformed id is exit 2 with nothing sent; an id that is not among your notes is the marketplace's 404 (exit 4)", async () => {
    for (const id of ['abc', '500001', '500001-x']) {
      const r = await runMkt(['notes', 'get', id], { env: NOWHERE });
      expect(r.code, id).toBe(2);
      expect(r.stderr).toContain(`got '${id}'`);
    }
    const bobs = mock.app.ctx.world.notes.find((n) => n.accountId === 'bob-1')!.note_number;
    const r = await runMkt(['notes', 'get', bobs], { env: mock.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain(bobs);
  });
});
