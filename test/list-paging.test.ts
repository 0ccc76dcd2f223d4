/**
 * GET /notes/ and GET /loans/ order the caller's rows by the sort's fields alone and view only the page
 * asked for, so paging through every note (`--all`, `mkt portfolio`) costs the notes once, not once a page.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { MockApp } from '../mock-server/app.js';
import { noteViews } from '../mock-server/views/note-view.js';
import { loanView } from '../mock-server/views/views.js';
import { sortBy, type SortClause } from '../mock-server/search/query-params.js';
import { addNote, notesOf } from '../mock-server/world/world-index.js';
import { LOAN_SORT_FIELDS } from '../src/contract/enums.js';
import { NOTE_FIELDS } from '../src/contract/note-fields.js';
import { call, makeApp, tokenFor } from './engine-fixture.js';
import { step, STEP_ACCOUNTS, takeStep } from './helpers/engine-steps.js';

/** Gives `accountId` notes of 25 on the world's loans, in turn, until it holds `count`. */
function holdNotes(app: MockApp, accountId: string, count: number): void {
  const world = app.ctx.world;
  const loans = [...world.loans.values()];
  for (let k = 0; notesOf(world, accountId).length < count; k++) {
    const loan = loans[k % loans.length]!;
    addNote(world, {
      note_number: `${loan.loan_number}-8${k}`,
      accountId,
      listingNumber: loan.listingNumber,
      loanNumber: loan.loan_number,
      amount: 25,
      orderId: null,
    });
  }
}

/** Counts loan views built: a loan's view reads its principal balance, which ordering by origination or number never does. */
function countViews(app: MockApp): { views: number } {
  const seen = { views: 0 };
  const loans = app.ctx.world.loans;
  for (const [n, loan] of loans) {
    loans.set(
      n,
      new Proxy(loan, {
        get: (t, p, r) => {
          if (p === 'principal_balance') seen.views++;
          return Reflect.get(t, p, r);
        },
      }),
    );
  }
  return seen;
}

const ids = (body: { result: { loan_note_id?: string; loan_number: number }[] }) => body.result.map((r) => r.loan_note_id ?? r.loan_number);

describe('GET /notes/ and /loans/ view only the page asked for', () => {
  test.each([
    ['/v1/notes', ''],
    ['/v1/notes', '&sort_by=loan_note_id%20desc'],
    ['/v1/notes', '&sort_by=ownership_start_date,listing_number'],
    ['/v1/loans', ''],
    ['/v1/loans', '&sort_by=loan_number'],
  ])('every page of %s%s views at most its own rows', async (path, sort) => {
    const app = makeApp({ listings: 300 });
    holdNotes(app, 'alice-1', 400);
    const alice = tokenFor(app, 'alice-1');
    const seen = countViews(app);
    const got: unknown[] = [];
    let total = Infinity;
    for (let offset = 0; offset < total; offset += 25) {
      seen.views = 0;
      const res = await call(app, 'GET', `${path}?offset=${offset}&limit=25${sort}`, { token: alice });
      expect(res.status).toBe(200);
      total = res.body.total_count;
      got.push(...ids(res.body));
      // A note's view reads its loan's view (and its split reads none): at most one view a row of the page.
      expect(seen.views, `offset ${offset}`).toBeLessThanOrEqual(res.body.result_count);
    }
    expect(total).toBeGreaterThan(75);
    expect(new Set(got).size).toBe(total);
  });

  test.each([
    ['/v1/notes', 'principal_balance_pro_rata_share desc'],
    ['/v1/notes', 'term,days_past_due desc'],
    ['/v1/loans', 'principal_balance'],
  ])(
    'a sort on %s by %s, which reads views, is sorted once: later pages view only their rows until the world moves',
    async (path, sort) => {
      const app = makeApp({ listings: 300 });
      holdNotes(app, 'alice-1', 400);
      const alice = tokenFor(app, 'alice-1');
      const seen = countViews(app);
      const pageAt = async (offset: number) => {
        seen.views = 0;
        const res = await call(app, 'GET', `${path}?offset=${offset}&limit=25&sort_by=${encodeURIComponent(sort)}`, { token: alice });
        expect(res.status).toBe(200);
        return res.body;
      };
      const first = await pageAt(0);
      expect(seen.views).toBeGreaterThan(75);
      for (let offset = 25; offset < first.total_count; offset += 25) {
        await pageAt(offset);
        expect(seen.views, `offset ${offset}`).toBeLessThanOrEqual(25);
      }
      // A change to the world (here the clock, which servicing follows) is a new order: every row is read again.
      expect((await call(app, 'POST', '/__mock/clock', { body: { advance: '40d' } })).status).toBe(200);
      await pageAt(25);
      expect(seen.views).toBeGreaterThan(75);
      await pageAt(50);
      expect(seen.views).toBeLessThanOrEqual(25);
      // So is any change at the same instant: every route that writes moves the world's version.
      expect((await call(app, 'POST', '/__mock/process')).status).toBe(200);
      await pageAt(50);
      expect(seen.views).toBeGreaterThan(75);
    },
  );
});

const ZONES = [undefined, 'America/Los_Angeles', 'Pacific/Kiritimati'] as const;
const clauses = (fields: readonly string[]) =>
  fc.uniqueArray(fc.record({ field: fc.constantFrom(...fields), desc: fc.boolean() }), {
    minLength: 0,
    maxLength: 3,
    selector: (c) => c.field,
  });
const sortParam = (sort: SortClause[]) => sort.map((c) => `${c.field} ${c.desc ? 'desc' : 'asc'}`).join(',');
const DEFAULT: SortClause[] = [{ field: 'origination_date', desc: true }];

/** The whole list as it was answered before paging read only the page: every row viewed, then sorted. */
function wholeList(app: MockApp, path: string, sort: SortClause[], zone: string | undefined): unknown[] {
  const world = app.ctx.world;
  const now = app.ctx.clock.now();
  const mine = notesOf(world, 'alice-1');
  const rows: Record<string, unknown>[] =
    path === '/v1/notes'
      ? noteViews(world, [...mine].reverse(), now, zone)
      : [...new Set(mine.map((n) => n.loanNumber))].sort((a, b) => b - a).map((n) => loanView(world, world.loans.get(n)!, now, zone));
  return sortBy(rows, sort.length > 0 ? sort : DEFAULT, (r, f) => r[f]);
}

test('paged answers are the whole sorted list, for any sort, zone and page size, after any steps of the world', async () => {
  const seen = { rows: 0 };
  await fc.assert(
    fc.asyncProperty(
      fc.array(step, { minLength: 1, maxLength: 8 }),
      fc.constantFrom('/v1/notes', '/v1/loans'),
      fc.constantFrom(...ZONES),
      fc.integer({ min: 4, max: 40 }),
      clauses(NOTE_FIELDS),
      clauses([...LOAN_SORT_FIELDS]),
      async (steps, path, zone, limit, noteSort, loanSort) => {
        const app = makeApp({ listings: 120 });
        const tokens = STEP_ACCOUNTS.map((a) => tokenFor(app, a));
        const sort = path === '/v1/notes' ? noteSort : loanSort;
        const headers: Record<string, string> = zone ? { timezone: zone } : {};
        const query = sort.length > 0 ? `&sort_by=${encodeURIComponent(sortParam(sort))}` : '';
        // The same list is paged through after every step, so an order kept from before a step would show.
        for (const s of steps) {
          await takeStep(app, tokens, s);
          const want = wholeList(app, path, sort, zone);
          const got: unknown[] = [];
          for (let offset = 0; offset < want.length; offset += limit) {
            const res = await call(app, 'GET', `${path}?offset=${offset}&limit=${limit}${query}`, { token: tokens[0], headers });
            expect(res.status).toBe(200);
            expect(res.body.total_count).toBe(want.length);
            got.push(...res.body.result);
          }
          expect(JSON.stringify(got)).toBe(JSON.stringify(want));
          seen.rows += want.length;
        }
      },
    ),
    { numRuns: 30, seed: 20261123 },
  );
  expect(seen.rows).toBeGreaterThan(40);
});
