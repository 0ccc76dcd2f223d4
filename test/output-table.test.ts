import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LISTING_COLUMNS } from '../src/commands/listings-actions.js';
import { display } from '../src/output/columns.js';
import { LISTING_SECTIONS, sectionLines } from '../src/output/sections.js';
import { planTable, tableLines, wrapText } from '../src/output/table.js';

/** Listings shaped like the API's, with a long title and large amounts so that a narrow table must give something up. */
const rows = Array.from({ length: 30 }, (_, i) => ({
  listing_number: 10_000_000 + i,
  platform_rating: ['AA', 'A', 'B', 'HR'][i % 4],
  fico_score: '760-779',
  listing_term: 36,
  borrower_rate: 0.1299,
  listing_amount: 1234.56 * (i + 1) * 10,
  amount_remaining: 500,
  percent_funded: 0.4567,
  listing_title: i % 2 ? 'Debt consolidation for a very long stated reason' : 'Auto',
  borrower_state: 'CA',
}));

function layout(width: number): string[] {
  return tableLines(planTable(rows, DEFAULT_LISTING_COLUMNS, { width }), rows);
}

describe('a table laid out for a terminal', () => {
  it.each([80, 120])('has no line longer than %i columns', (width) => {
    for (const line of layout(width)) expect([...line].length).toBeLessThanOrEqual(width);
  });

  it('keeps the first columns at 80 and drops from the end', () => {
    const plan = planTable(rows, DEFAULT_LISTING_COLUMNS, { width: 80 }).map((c) => c.name);
    expect(plan.slice(0, 8)).toEqual(DEFAULT_LISTING_COLUMNS.slice(0, 8));
    expect(plan).not.toContain('borrower_state');
  });

  it('shows every default column at 120', () => {
    expect(planTable(rows, DEFAULT_LISTING_COLUMNS, { width: 120 }).map((c) => c.name)).toEqual(DEFAULT_LISTING_COLUMNS);
  });

  it('marks a cut value with …', () => {
    const text = layout(80).join('\n');
    expect(text).toContain('…');
    expect(text).not.toContain('Debt consolidation for a very long stated reason');
    expect(layout(200).join('\n')).toContain('Debt consolidation for a very long stated reason');
  });

  it('keeps a listed priority column over the ones after it', () => {
    const plan = planTable(rows, DEFAULT_LISTING_COLUMNS, { width: 60, priority: ['listing_number', 'listing_title'] }).map((c) => c.name);
    expect(plan).toContain('listing_title');
    expect(plan[0]).toBe('listing_number');
  });

  it('right-aligns numbers, shows rates as percentages and amounts with thousands separators', () => {
    const [header, first] = layout(120);
    expect(first).toContain('12.99%');
    expect(first).toContain('45.67%');
    expect(first).toContain('12,345.60');
    // The rate column ends where its header ends.
    expect(header!.indexOf('rate') + 'rate'.length).toBe(first!.indexOf('12.99%') + '12.99%'.length);
    expect(display('borrower_rate', 0.1299).text).toBe('12.99%');
    expect(display('listing_amount', 1234.56).text).toBe('1,234.56');
    expect(display('income_range', 3).text).toBe('3');
  });

  it('wraps a description column instead of cutting it', () => {
    const long = { field: 'x', description: 'Borrower approved for partial funding when the listing is at least seventy percent funded' };
    const lines = tableLines(planTable([long], ['field', 'description'], { width: 40 }), [long]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain('seventy percent funded');
    expect(wrapText('a b c', 3)).toEqual(['a b', 'c']);
  });

  it('prints natural widths when no width is given (piped)', () => {
    expect(layout(10_000)).toEqual(tableLines(planTable(rows, DEFAULT_LISTING_COLUMNS), rows));
  });
});

describe('one listing as sections', () => {
  it('groups fields under headings, and a nested object as its name over its own fields', () => {
    const item = {
      listing_number: 7,
      borrower_rate: 0.1,
      borrower_state: 'CA',
      platform_rating: 'A',
      surprise: 1,
      credit_bureau_values_bureau2_indexed: { g980s: 2, at01s: 11 },
    };
    const lines = sectionLines(item, LISTING_SECTIONS, 80);
    expect(lines).toContain('listing');
    expect(lines).toContain('bureau');
    expect(lines).toContain('other');
    const nested = lines.indexOf('  credit_bureau_values_bureau2_indexed');
    expect(nested).toBeGreaterThan(lines.indexOf('bureau'));
    expect(lines.slice(nested + 1, nested + 3).map((l) => l.trim().split(/ +/))).toEqual([
      ['g980s:', '2'],
      ['at01s:', '11'],
    ]);
    expect(lines.some((l) => /borrower_rate: +10\.00%/.test(l))).toBe(true);
    expect(lines.indexOf('rates')).toBeLessThan(lines.indexOf('borrower'));
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  });

  it('fits 80 columns with the bureau keys of a real listing, every value whole and aligned', () => {
    const bureau = {
      credit_report_date: '2026-05-29 16:48:52 +0000',
      s207s_months_since_most_recent_public_record_bankruptcy: 97,
      re33s_balance_owed_on_all_revolving_accounts: 220656,
      at57s_amount_delinquent: 216575,
    };
    const lines = sectionLines({ listing_number: 7, credit_bureau_values_bureau2_indexed: bureau }, LISTING_SECTIONS, 80);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(lines.join('\n')).not.toContain('…');
    const values = lines.filter((l) => l.startsWith('    '));
    expect(values.map((l) => l.trim().replace(/: +/, ': '))).toEqual([
      'credit_report_date: 2026-05-29 16:48:52 +0000',
      's207s_months_since_most_recent_public_record_bankruptcy: 97',
      're33s_balance_owed_on_all_revolving_accounts: 220,656.00',
      'at57s_amount_delinquent: 216,575.00',
    ]);
    // Keys that fit the block's column share one value column; the one too long for it (with a date in the block) follows its key.
    expect(new Set(values.filter((l) => !l.includes('s207s')).map((l) => l.search(/(?<=: +)\S/))).size).toBe(1);
  });

  it('at any width keeps every line within it and every key and value whole', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,70}$/);
    const value = fc.oneof(fc.integer(), fc.stringMatching(/^[A-Za-z0-9 ,.-]{0,300}$/), fc.boolean());
    const leaves = fc.dictionary(name, value, { maxKeys: 8 });
    const item = fc.dictionary(name, fc.oneof(value, leaves), { minKeys: 1, maxKeys: 12 });
    fc.assert(
      fc.property(item, fc.integer({ min: 20, max: 200 }), (it, width) => {
        const lines = sectionLines(it, LISTING_SECTIONS, width);
        for (const line of lines) expect([...line].length).toBeLessThanOrEqual(width);
        const text = lines.join('').replace(/\s+/g, '');
        const leafTexts = Object.entries(it).flatMap(([k, v]) =>
          v !== null && typeof v === 'object'
            ? [k, ...Object.entries(v).flatMap(([kk, vv]) => [`${kk}:${display(kk, vv).text}`])]
            : [`${k}:${display(k, v).text}`],
        );
        for (const t of leafTexts) expect(text).toContain(t.replace(/\s+/g, ''));
      }),
      { numRuns: 300 },
    );
  });
});
