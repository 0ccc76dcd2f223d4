/**
 * The reader against any answer the real corpus' schema allows (test/fixtures/marketplace/): every
 * field present or left out, numbers as JSON numbers or decimal strings, dates in any of the forms
 * the real answers use, enumeration values we do not know, reasons null or 0, extra fields. Each is
 * read without an exception and kept exactly as sent (what `-o json` prints); the portfolio reckons
 * with any such notes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseApiDateTime } from '../src/contract/dates.js';
import {
  decodeAccount,
  decodeEnvelope,
  decodeListing,
  decodeLoan,
  decodeNote,
  decodeOrder,
  decodePayment,
  DecodeError,
  type Reader,
} from '../src/contract/decode.js';
import { display } from '../src/output/columns.js';
import { noteFigures } from '../src/flows/figures.js';
import { marketToday, portfolioReport } from '../src/portfolio/model.js';
import { corpusFile } from './helpers/marketplace-fixtures.js';

type Json = Record<string, unknown>;
const itemsOf = (...files: string[]): Json[] =>
  files.flatMap((f) => {
    const body = corpusFile(f) as Json;
    return Array.isArray(body.result) ? (body.result as Json[]) : [body];
  });

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
/** A date in one of the forms the real answers use. */
const dateText = fc
  .tuple(fc.integer({ min: Date.UTC(2005, 0, 1), max: Date.UTC(2035, 0, 1) }), fc.constantFrom('day', 'api', 'iso-ms', 'iso-z'))
  .map(([ms, form]) => {
    const t = new Date(Math.floor(ms / 1000) * 1000);
    const day = `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
    const time = `${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}`;
    return form === 'day'
      ? day
      : form === 'api'
        ? `${day} ${time} +0000`
        : form === 'iso-ms'
          ? `${day}T${time}.000+0000`
          : `${day}T${time}Z`;
  });
/** A figure as a JSON number or as the decimal string the payments answer sends. */
const figure = (min: number, max: number) =>
  fc
    .double({ min, max, noNaN: true, noDefaultInfinity: true })
    .chain((x) => fc.constantFrom<unknown>(x, x.toFixed(4), String(Math.round(x))));
const WORDS = ['N/A', 'NA', 'AA', 'HR', 'DEFAULTED', 'COMPLETED', 'PENDING', 'INVESTED', 'A_NEW_STATUS', 'Unspecified', 'Success'];
const word = fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 12 }));

/** A value like `sample` (the corpus' value of this field) as the schema allows it. */
function like(name: string, sample: unknown): fc.Arbitrary<unknown> {
  if (/_reason$/.test(name)) return fc.constantFrom<unknown>(null, 0, 1, 2, 3);
  if (/(^|_)(date)$/.test(name) && typeof sample === 'string') return dateText;
  if (/(^|_)(status|term|months|number|age_in_months|days_past_due|pre_days_past_due)$/.test(name) && typeof sample === 'number') {
    return fc.integer({ min: 0, max: 400 }).chain((n) => fc.constantFrom<unknown>(n, String(n)));
  }
  if (/rate|yield/.test(name) && typeof sample === 'number') return figure(0, 0.45);
  if (typeof sample === 'number' || (typeof sample === 'string' && /^-?\d+(\.\d+)?$/.test(sample))) return figure(-1000, 100_000);
  if (typeof sample === 'string') return word;
  if (typeof sample === 'boolean') return fc.boolean();
  if (sample === null) return fc.constantFrom<unknown>(null, 'x');
  return fc.constant(sample);
}

/** An item of the kind `samples` are: each known field left out or given a value the schema allows, plus unknown fields. */
function answerLike(samples: Json[], keep: readonly string[] = []): fc.Arbitrary<Json> {
  const fields = new Map<string, unknown>();
  for (const s of samples) for (const [k, v] of Object.entries(s)) if (!fields.has(k) || fields.get(k) === null) fields.set(k, v);
  const parts = Object.fromEntries(
    [...fields].map(([k, v]) => [k, keep.includes(k) ? like(k, v) : fc.option(like(k, v), { nil: undefined, freq: 3 })]),
  );
  return fc
    .tuple(
      fc.record(parts),
      fc.dictionary(
        fc.string({ minLength: 1, maxLength: 8 }).map((k) => `x_${k}`),
        fc.jsonValue({ maxDepth: 2 }),
        { maxKeys: 3 },
      ),
    )
    .map(([known, extra]) => {
      const out: Json = {};
      for (const [k, v] of Object.entries(known)) if (v !== undefined) out[k] = v;
      return { ...out, ...extra };
    });
}

const envelopeOf = (item: fc.Arbitrary<Json>) =>
  fc
    .tuple(fc.array(item, { maxLength: 4 }), fc.boolean())
    .map(([result, asText]) => ({ result, result_count: asText ? String(result.length) : result.length, total_count: result.length }));

const KINDS: [string, Reader<unknown>, fc.Arbitrary<Json>][] = [
  ['note', decodeNote, answerLike(itemsOf('python-notes.json', 'go-notes.json'))],
  ['loan', decodeLoan, answerLike(itemsOf('python-loans.json'))],
  ['account', decodeAccount, answerLike(itemsOf('python-account-2023.json', 'go-account-2015.json'))],
  [
    'order',
    decodeOrder,
    answerLike(itemsOf('python-orders-list.json', 'python-order-create.json', 'go-order-status.json', 'go-order-create.json')),
  ],
  ['payment', decodePayment, answerLike(itemsOf('python-payments.json'))],
  ['listing', decodeListing, answerLike(itemsOf('python-listings-search.json', 'go-search.json'))],
];

describe('the reader on any answer the real corpus allows', () => {
  for (const [name, decode, arb] of KINDS) {
    it(`reads any ${name} without an exception and keeps it exactly as sent`, () => {
      fc.assert(
        fc.property(arb, (answer) => {
          const read = decode(answer, 'answer');
          expect(JSON.stringify(read)).toBe(JSON.stringify(answer));
        }),
        { numRuns: 300 },
      );
    });
  }

  it('reads any list answer of them as sent, counts as numbers or text', () => {
    fc.assert(
      fc.property(envelopeOf(KINDS[0]![2]), (page) => {
        expect(JSON.stringify(decodeEnvelope(decodeNote)(page, 'answer'))).toBe(JSON.stringify(page));
      }),
      { numRuns: 100 },
    );
  });

  it('still refuses what is no answer at all: not an object, or a list without its result', () => {
    for (const bad of ['<html>', null, 42, []]) expect(() => decodeNote(bad, 'answer')).toThrow(DecodeError);
    expect(() => decodeEnvelope(decodeNote)({ total_count: 1 }, 'answer')).toThrow(/answer\.result is not an array/);
  });
});

describe('what the commands make of such answers', () => {
  const note = answerLike(itemsOf('python-notes.json', 'go-notes.json'), ['note_ownership_amount', 'origination_date']).filter(
    (n) => Number(n.note_ownership_amount) > 0,
  );

  it('the portfolio reckons with any notes that say what was invested and when: finite figures, a return or a reason', () => {
    fc.assert(
      fc.property(fc.array(note, { maxLength: 5 }), fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }), (raw, now) => {
        const notes = raw.map((n, i) => noteFigures(decodeNote(n, 'answer'), `note ${i}`));
        const today = marketToday(now, notes);
        const p = portfolioReport(decodeAccount({ available_cash_balance: '10.5' }, 'answer'), notes, today);
        for (const [k, v] of Object.entries(p)) if (typeof v === 'number') expect(Number.isFinite(v), k).toBe(true);
        expect(p.annualized_return === null).toBe(p.annualized_return_reason !== null);
        expect(p.available_cash_balance).toBe(10.5);
      }),
      { numRuns: 200 },
    );
  });

  it('a note without what was invested is named, not guessed', () => {
    expect(() => noteFigures(decodeNote({ loan_note_id: '1-1', origination_date: '2015-10-23' }, 'answer'), 'note 1-1')).toThrow(
      new DecodeError('note 1-1.note_ownership_amount', 'is missing'),
    );
  });

  it('every date form of the real answers names the same instant', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2005, 0, 1), max: Date.UTC(2035, 0, 1) }), (ms) => {
        const t = new Date(Math.floor(ms / 1000) * 1000);
        const iso = t.toISOString();
        const day = iso.slice(0, 10);
        const api = `${day} ${iso.slice(11, 19)} +0000`;
        expect(parseApiDateTime(iso)).toBe(t.getTime());
        expect(parseApiDateTime(`${iso.slice(0, 19)}.000+0000`)).toBe(t.getTime());
        expect(parseApiDateTime(`${iso.slice(0, 19)}+00:00`)).toBe(t.getTime());
        expect(parseApiDateTime(api)).toBe(t.getTime());
        expect(parseApiDateTime(day)).toBe(Date.parse(`${day}T00:00:00Z`));
      }),
    );
    expect(parseApiDateTime('2025-02-03T08:00:00.000-0500')).toBe(Date.parse('2025-02-03T13:00:00Z'));
    expect(parseApiDateTime('2025-02-30')).toBeNull();
  });

  it('a table shows an amount sent as a decimal string as it shows the number', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.constantFrom('payment_amount', 'principal_balance_pro_rata_share', 'borrower_rate'),
        (x, col) => {
          const text = x.toFixed(4);
          expect(display(col, text)).toEqual(display(col, Number(text)));
        },
      ),
    );
    expect(display('transaction_effective_date', '2025-02-03T08:00:00.000+0000').text).toBe('2025-02-03 08:00:00 +0000');
    expect(display('match_back_id', '1234').text).toBe('1234');
  });
});
