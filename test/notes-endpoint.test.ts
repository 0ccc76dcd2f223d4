/** GET /notes/ and GET /notes/{loan_note_id}: the caller's notes only, paged like loans, each its loan's figures pro rata. */
import { describe, expect, test } from 'vitest';
import { NOTE_SHARES } from '../mock-server/views/note-view.js';
import { decodeEnvelope, decodeNote } from '../src/contract/decode.js';
import { call, makeApp, tokenFor } from './engine-fixture.js';

const mine = (app: ReturnType<typeof makeApp>, accountId: string) => app.ctx.world.notes.filter((n) => n.accountId === accountId);

describe('GET /notes/', () => {
  test("lists the caller's notes only, 25 a page by default and at most, newest origination first, every note once across pages", async () => {
    const app = makeApp({ listings: 700 });
    const alice = tokenFor(app, 'alice-1');
    const held = mine(app, 'alice-1');
    expect(held.length).toBeGreaterThan(25);
    const first = await call(app, 'GET', '/v1/notes', { token: alice });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ result_count: 25, total_count: held.length });
    expect(() => decodeEnvelope(decodeNote)(first.body, 'notes')).not.toThrow();
    const dates = first.body.result.map((n: { origination_date: string }) => n.origination_date);
    expect(dates).toEqual([...dates].sort().reverse());
    // A limit above the maximum is clamped, as on the other list endpoints.
    expect((await call(app, 'GET', '/v1/notes?limit=100', { token: alice })).body.result_count).toBe(25);
    const ids: string[] = [];
    for (let offset = 0; offset < held.length; offset += 10) {
      const page = (await call(app, 'GET', `/v1/notes?offset=${offset}&limit=10`, { token: alice })).body;
      ids.push(...page.result.map((n: { loan_note_id: string }) => n.loan_note_id));
    }
    expect(ids.sort()).toEqual(held.map((n) => n.note_number).sort());
    expect((await call(app, 'GET', `/v1/notes?offset=${held.length}`, { token: alice })).body).toEqual({
      result: [],
      result_count: 0,
      total_count: held.length,
    });
  });

  test('bad paging or sort_by is a 400 naming the parameter', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    for (const [query, param] of [
      ['offset=-1', 'offset'],
      ['offset=1.5', 'offset'],
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=-5', 'limit'],
      ['sort_by=color', 'sort_by'],
      ['sort_by=term%20up', 'sort_by'],
    ]) {
      const res = await call(app, 'GET', `/v1/notes?${query}`, { token: alice });
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('VAL0001');
      expect(res.body.message).toContain(param);
    }
  });

  test('sort_by takes any note field and direction', async () => {
    const app = makeApp({ listings: 700 });
    const alice = tokenFor(app, 'alice-1');
    for (const [field, dir] of [
      ['principal_balance_pro_rata_share', 'asc'],
      ['note_ownership_amount', 'desc'],
      ['platform_rating', 'asc'],
      // Figures made of shares, worked out when the note is answered.
      ['accrued_interest', 'desc'],
      ['payment_received', 'asc'],
    ] as const) {
      const result = (await call(app, 'GET', `/v1/notes?sort_by=${encodeURIComponent(`${field} ${dir}`)}`, { token: alice })).body.result;
      const values = result.map((n: Record<string, number | string>) => n[field]);
      const sorted = [...values].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
      expect(values).toEqual(dir === 'asc' ? sorted : sorted.reverse());
    }
  });

  test('needs the read_note scope: a token without it gets 403 insufficient_scope', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    app.ctx.world.tokens.get(alice)!.scopes = ['read_loan', 'read_listing'];
    const note = mine(app, 'alice-1')[0]!.note_number;
    for (const path of ['/v1/notes', `/v1/notes/${note}`]) {
      const res = await call(app, 'GET', path, { token: alice });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('insufficient_scope');
    }
    expect((await call(app, 'GET', '/v1/notes', { token: tokenFor(app, 'alice-1', true) })).status).toBe(200);
    expect((await call(app, 'GET', '/v1/notes')).status).toBe(401);
  });

  test("another account's notes are invisible: not listed, and 404 when asked for by id", async () => {
    const app = makeApp();
    const bobNote = mine(app, 'bob-1')[0]!;
    const alice = tokenFor(app, 'alice-1');
    const aliceIds = (await call(app, 'GET', '/v1/notes?limit=25', { token: alice })).body.result.map(
      (n: { loan_note_id: string }) => n.loan_note_id,
    );
    expect(aliceIds).not.toContain(bobNote.note_number);
    const res = await call(app, 'GET', `/v1/notes/${bobNote.note_number}`, { token: alice });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
    expect((await call(app, 'GET', `/v1/notes/${bobNote.note_number}`, { token: tokenFor(app, 'bob-1') })).status).toBe(200);
    expect((await call(app, 'GET', '/v1/notes', { token: tokenFor(app, 'carol-1') })).body).toEqual({
      result: [],
      result_count: 0,
      total_count: 0,
    });
    // alice's second account holds none of her first account's notes.
    expect((await call(app, 'GET', `/v1/notes/${mine(app, 'alice-1')[0]!.note_number}`, { token: tokenFor(app, 'alice-2') })).status).toBe(
      404,
    );
  });
});

describe('GET /notes/{loan_note_id}', () => {
  test('answers a held note as the list does; 404 for an unknown id, 400 for one not shaped like a note id', async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const listed = (await call(app, 'GET', '/v1/notes', { token: alice })).body.result[0];
    const one = await call(app, 'GET', `/v1/notes/${listed.loan_note_id}`, { token: alice });
    expect(one.status).toBe(200);
    expect(one.body).toEqual(listed);
    expect(() => decodeNote(one.body, 'note')).not.toThrow();
    const unknown = await call(app, 'GET', '/v1/notes/123-456', { token: alice });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain('123-456');
    for (const bad of ['abc', '500001', '500001-', '-900001', '1-2-3', '500001-9x']) {
      const res = await call(app, 'GET', `/v1/notes/${bad}`, { token: alice });
      expect(res.status, bad).toBe(400);
      expect(res.body.message).toMatch(/^loan_note_id: /);
    }
  });

  test("a note carries its loan's status, dates, rating and terms, and the listing's lender yield; is_sold is false", async () => {
    const app = makeApp();
    const alice = tokenFor(app, 'alice-1');
    const notes = (await call(app, 'GET', '/v1/notes', { token: alice })).body.result;
    const statuses = new Set<number>();
    for (const note of notes) {
      const loan = (await call(app, 'GET', `/v1/loans/${note.loan_number}`, { token: alice })).body;
      const stored = app.ctx.world.notes.find((n) => n.note_number === note.loan_note_id)!;
      statuses.add(loan.loan_status);
      expect(note).toMatchObject({
        loan_number: loan.loan_number,
        listing_number: stored.listingNumber,
        note_ownership_amount: stored.amount,
        note_status: loan.loan_status,
        note_status_description: loan.loan_status_description,
        note_default_reason: loan.loan_default_reason,
        note_default_reason_description: loan.loan_default_reason_description,
        platform_rating: loan.platform_rating,
        term: loan.term,
        borrower_rate: loan.borrower_rate,
        amount_borrowed: loan.amount_borrowed,
        age_in_months: loan.age_in_months,
        days_past_due: loan.days_past_due,
        origination_date: loan.origination_date,
        next_payment_due_date: loan.next_payment_due_date,
        ownership_start_date: loan.origination_date,
        lender_yield: app.ctx.world.listingByNumber.get(stored.listingNumber)!.lender_yield,
        is_sold: false,
        ownership_end_date: null,
        is_in_bankruptcy: loan.loan_default_reason === 2,
      });
      for (const [share, figure] of Object.entries(NOTE_SHARES)) {
        expect(Math.abs(note[share] - (stored.amount / loan.amount_borrowed) * loan[figure]), share).toBeLessThan(0.01 + 1e-9);
      }
    }
    expect(statuses.size).toBeGreaterThan(2);
  });
});
