import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunk, readBids } from '../src/orders/bids-file.js';
import { UsageError } from '../src/errors.js';

async function problems(text: string, amount?: string): Promise<string> {
  try {
    await readBids(text, 'bids.csv', amount);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error('expected the file to be refused');
}

describe('reading a bids file', () => {
  it('reads listing_id and bid_amount with their line numbers', async () => {
    const bids = await readBids('listing_id,bid_amount\n10000001,25\n10000002,30.50\n', 'bids.csv');
    expect(bids).toEqual([
      { listing_id: 10000001, bid_amount: 25, line: 2 },
      { listing_id: 10000002, bid_amount: 30.5, line: 3 },
    ]);
  });

  it('accepts listing_number and fills missing amounts from --amount', async () => {
    const bids = await readBids('listing_number\n10000001\n10000002\n', 'stdin', '25');
    expect(bids.map((b) => b.bid_amount)).toEqual([25, 25]);
    const mixed = await readBids('listing_id,bid_amount\n1,\n2,40\n', 'f', '25');
    expect(mixed.map((b) => b.bid_amount)).toEqual([25, 40]);
  });

  it('reports every problem with its line number, header being line 1', async () => {
    const text = 'listing_id,bid_amount\n10000001,25\nabc,25\n-4,25\n10000002,24.99\n10000003,25.001\n10000001,30\n10000004,\n';
    const msg = await problems(text);
    expect(msg).toContain('6 problems');
    expect(msg).toContain("bids.csv line 3: listing id 'abc' is not a positive whole number");
    expect(msg).toContain("bids.csv line 4: listing id '-4'");
    expect(msg).toContain('bids.csv line 5: bid_amount 24.99 is below the minimum bid of 25.00');
    expect(msg).toContain("bids.csv line 6: bid_amount '25.001' is not an amount with at most 2 decimals");
    expect(msg).toContain('bids.csv line 7: listing 10000001 is already bid on at line 2');
    expect(msg).toContain('bids.csv line 8: bid_amount is empty');
  });

  it('refuses an empty file, a header without bids, and a header without the needed columns', async () => {
    expect(await problems('')).toMatch(/is empty/);
    expect(await problems('listing_id,bid_amount\n')).toMatch(/no bids/);
    expect(await problems('id,amount\n1,25\n')).toMatch(/line 1: the header needs a listing_id or listing_number column/);
    expect(await problems('listing_id\n1\n')).toMatch(/no bid_amount column/);
  });

  it('refuses a bad --amount before reading rows', async () => {
    expect(await problems('listing_id\n1\n', '10')).toMatch(/--amount: 10 is below the minimum/);
  });

  it('splits 250 bids into orders of 100, 100 and 50', () => {
    expect(
      chunk(
        Array.from({ length: 250 }, (_, i) => i),
        100,
      ).map((c) => c.length),
    ).toEqual([100, 100, 50]);
  });
});

/** A CSV cell: quoted (quotes doubled) when it holds a comma, quote, line break or edge space, or when asked. */
function cell(text: string, forceQuote = false): string {
  return forceQuote || /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const EXTRA_NAMES = ['comment', 'note', 'listing_title', 'amount', 'source'];
const extraText = fc.array(fc.constantFrom('a', 'b', ' ', ',', '"', '\n', '\r\n', '\r', 'é'), { maxLength: 8 }).map((a) => a.join(''));

describe('bids file shapes: BOM, CRLF, extra columns, quoted multi-line fields', () => {
  it('returns the rows, each with the line its record starts on', async () => {
    const file = fc.record({
      bom: fc.boolean(),
      eol: fc.constantFrom('\n', '\r\n'),
      trailingEol: fc.boolean(),
      extras: fc.array(fc.constantFrom(...EXTRA_NAMES), { maxLength: 3 }),
      idName: fc.constantFrom('listing_id', 'listing_number', 'Listing_ID'),
      idAt: fc.nat(),
      amountAt: fc.nat(),
      rows: fc.uniqueArray(
        fc.record({
          id: fc.integer({ min: 1, max: 2 ** 31 }),
          cents: fc.integer({ min: 2500, max: 1_000_000 }),
          extra: fc.array(extraText, { minLength: 3, maxLength: 3 }),
          quoteId: fc.boolean(),
          blankLinesBefore: fc.nat({ max: 2 }),
        }),
        { selector: (r) => r.id, minLength: 1, maxLength: 15 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(file, async (f) => {
        // Header columns: the extras, with listing id and amount put in at random places.
        const cols: string[] = f.extras.map((_, i) => `x${i}`);
        cols.splice(f.idAt % (cols.length + 1), 0, 'id');
        cols.splice(f.amountAt % (cols.length + 1), 0, 'amount');
        const name = (c: string): string => (c === 'id' ? f.idName : c === 'amount' ? 'bid_amount' : f.extras[Number(c.slice(1))]!);
        let text = (f.bom ? '\ufeff' : '') + cols.map(name).join(',');
        const expected: Array<{ listing_id: number; bid_amount: number; line: number }> = [];
        for (const r of f.rows) {
          text += f.eol.repeat(1 + r.blankLinesBefore);
          const amount = (r.cents / 100).toFixed(r.cents % 100 === 0 ? 0 : 2);
          const value = (c: string): string =>
            c === 'id' ? cell(String(r.id), r.quoteId) : c === 'amount' ? amount : cell(r.extra[Number(c.slice(1))]!);
          expected.push({ listing_id: r.id, bid_amount: r.cents / 100, line: text.split('\n').length });
          text += cols.map(value).join(',');
        }
        if (f.trailingEol) text += f.eol;
        expect(await readBids(text, 'bids.csv')).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('names the right line for a problem after a quoted field spanning lines (CRLF)', async () => {
    const text = 'listing_id,comment,bid_amount\r\n1,"first\r\nsecond\r\nthird",25\r\nabc,x,25\r\n2,"a\nb",10\r\n';
    const msg = await problems(text);
    expect(msg).toContain("bids.csv line 5: listing id 'abc'");
    expect(msg).toContain('bids.csv line 6: bid_amount 10 is below the minimum');
  });

  it('names the line where a record with an unclosed quote starts', async () => {
    const msg = await problems('listing_id,comment,bid_amount\r\n1,"ok\r\nstill",25\r\n2,"never closed,25\r\n3,x,25\r\n');
    expect(msg).toMatch(/^bids\.csv line 4: not valid CSV: Quote Not Closed/);
  });

  it('refuses a header naming a column twice, naming the column', async () => {
    expect(await problems('listing_id,bid_amount,bid_amount\n1,25,30\n')).toMatch(
      /line 1: the header has bid_amount more than once: bid_amount \(column 2\) and bid_amount \(column 3\)/,
    );
    expect(await problems('\ufeffcomment,LISTING_ID,listing_id,bid_amount\n,1,2,25\n')).toMatch(
      /line 1: the header has more than one listing column: listing_id \(column 2\) and listing_id \(column 3\)/,
    );
    expect(await problems('listing_id,listing_number,bid_amount\n1,1,25\n')).toMatch(
      /listing_id \(column 1\) and listing_number \(column 2\)/,
    );
  });

  it('ignores other columns, even repeated ones', async () => {
    const bids = await readBids('comment,listing_id,comment,bid_amount\r\nhi,1,there,25\r\n', 'bids.csv');
    expect(bids).toEqual([{ listing_id: 1, bid_amount: 25, line: 2 }]);
  });
});

describe('listing ids are read as text, never as a rounded number', () => {
  const digits = fc.oneof(
    fc.stringMatching(/^[0-9]{1,20}$/),
    fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String),
    fc.bigInt({ min: 2n ** 53n - 5n, max: 2n ** 53n + 5n }).map(String),
    fc.tuple(fc.nat({ max: 3 }), fc.bigInt({ min: 1n, max: 2n ** 53n })).map(([z, n]) => '0'.repeat(z) + String(n)),
    fc.stringMatching(/^[1-9][0-9]{20,400}$/),
  );

  it("accepts exactly the plain decimals of positive safe integers, and the id sent reads as the file's text", async () => {
    await fc.assert(
      fc.asyncProperty(digits, async (text) => {
        const valid = /^[1-9][0-9]*$/.test(text) && BigInt(text) <= BigInt(Number.MAX_SAFE_INTEGER);
        let bids;
        try {
          bids = await readBids(`listing_id,bid_amount\n${text},25\n`, 'bids.csv');
        } catch (err) {
          expect(err).toBeInstanceOf(UsageError);
          expect(valid).toBe(false);
          expect((err as Error).message).toMatch(/bids\.csv line 2: listing id '/);
          return;
        }
        expect(valid).toBe(true);
        // The number goes out as JSON: its text there must be the file's, digit for digit.
        expect(JSON.stringify(bids[0]!.listing_id)).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses 2^53 + 1 and a 400-digit id with the line number, instead of …992 or null', async () => {
    const msg = await problems('listing_id,bid_amount\n10000001,25\n9007199254740993,25\n' + '9'.repeat(400) + ',25\n');
    expect(msg).toContain("bids.csv line 3: listing id '9007199254740993' is larger than 9007199254740991");
    expect(msg).toMatch(/bids\.csv line 4: listing id '9{20}…\(400 characters\)' is larger than 9007199254740991/);
    expect(msg).toContain('2 problems');
  });

  it('takes 2^53 - 1 itself, and refuses leading zeros naming the id to write', async () => {
    expect((await readBids('listing_id,bid_amount\n9007199254740991,25\n', 'b'))[0]!.listing_id).toBe(9007199254740991);
    expect(await problems('listing_id,bid_amount\n0042,25\n')).toContain(
      "bids.csv line 2: listing id '0042' has leading zeros; write it as 42",
    );
    expect(await problems('listing_id,bid_amount\n000,25\n')).toContain("listing id '000' is not a positive whole number");
  });
});
