/**
 * A strategy file's `sort_by` is checked as `mkt listings search --sort-by` checks it: src/invest takes the
 * contract's reader and the sort field's hint from below (src/suggest.ts), not from the command above it, and
 * for any text says what the flag says: the same problem and the same hint, or nothing for a good value.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSearchQuery } from '../src/commands/listings-actions.js';
import { SORTABLE_FIELDS } from '../src/contract/listing-fields.js';
import { UsageError } from '../src/errors.js';
import { checkSortBy } from '../src/invest/marketplace-rules.js';

/** What `--sort-by TEXT` refuses, worded as a strategy file's problem (no flag, the hint after a `;`), or null. */
function flagSays(text: string): string | null {
  try {
    buildSearchQuery({ sortBy: text }, undefined);
    return null;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    return `${err.message.replace(/^--sort-by: /, '')}${err.hint ? `; ${err.hint}` : ''}`;
  }
}

const FIELDS = [...SORTABLE_FIELDS];

/** A field as typed: a sortable one, one with a typo or a missing part, or anything. */
const field = fc.oneof(
  fc.constantFrom(...FIELDS),
  fc
    .tuple(fc.constantFrom(...FIELDS), fc.nat(), fc.constantFrom('', 'x', '_', 'e'))
    .map(([f, at, put]) => f.slice(0, at % f.length) + put + f.slice((at % f.length) + 1)),
  fc.constantFrom(...FIELDS).map((f) => f.split('_')[0]!),
  fc.string({ maxLength: 12 }),
);
const clause = fc.tuple(field, fc.constantFrom('', ' asc', ' DESC', ' desc', ' up', ' asc desc', '  ')).map(([f, d]) => f + d);
const sortText = fc.array(clause, { minLength: 1, maxLength: 3 }).map((cs) => cs.join(','));

describe('a strategy sort_by check', () => {
  it('says of any text what `mkt listings search --sort-by` says', () => {
    fc.assert(
      fc.property(sortText, (text) => {
        expect(checkSortBy(text)).toBe(flagSays(text));
      }),
      { numRuns: 300, seed: 39 },
    );
  });

  it('suggests the field meant, as the flag does', () => {
    expect(checkSortBy('lender_yeild desc')).toBe(
      "unknown field 'lender_yeild'; did you mean lender_yield? (`mkt listings fields` lists the field names)",
    );
    expect(checkSortBy('lender_yield sideways')).toBe("direction must be asc or desc, got 'lender_yield sideways'");
    expect(checkSortBy('lender_yield desc, fico_score')).toBeNull();
  });
});
