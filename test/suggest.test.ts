import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alternatives, suggest, suggestions } from '../src/suggest.js';

const FLAGS = [
  '--fico_score',
  '--borrower_state',
  '--borrower_rate_min',
  '--borrower_rate_max',
  '--listing_status',
  '--sort-by',
  '--limit',
  '--all',
];

describe('one "did you mean" for every typed name', () => {
  it('a close spelling wins, - and _ alike, case aside', () => {
    expect(suggest('--fico_scor', FLAGS)).toBe('--fico_score');
    expect(suggest('--fico-scor', FLAGS)).toBe('--fico_score');
    expect(suggest('--Borrower-State', FLAGS)).toBe('--borrower_state');
    expect(suggest('borrower_rat', ['borrower_rate', 'borrower_apr', 'lender_yield'])).toBe('borrower_rate');
  });

  it('else a name the word is a whole part or the start of: fico → fico_score, state → borrower_state', () => {
    expect(suggest('--fico', FLAGS)).toBe('--fico_score');
    expect(suggest('--state', FLAGS)).toBe('--borrower_state');
    expect(suggest('fico', ['name', 'filters', 'fico_score', 'amount'])).toBe('fico_score');
    expect(suggestions('--rate', FLAGS)).toEqual(['--borrower_rate_min', '--borrower_rate_max']);
    expect(suggest('at01', ['at01s_min', 'at01s_max'])).toBe('at01s_min');
  });

  it('nothing for a word like no candidate, for the empty word, or for a name typed right', () => {
    expect(suggestions('--xyzzy', FLAGS)).toEqual([]);
    expect(suggestions('', FLAGS)).toEqual([]);
    expect(suggestions('--all', FLAGS)).toEqual([]);
    // Two letters are no part to go on: `st` is not taken for borrower_state.
    expect(suggestions('st', ['borrower_state'])).toEqual([]);
  });

  it('any candidate with one character changed is found again, and every suggestion is a candidate', () => {
    const name = fc.stringMatching(/^[a-z]{3,8}(_[a-z]{2,8}){0,3}$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { minLength: 1, maxLength: 12 }),
        fc.nat(),
        fc.nat(),
        fc.constantFrom('x', 'q', 'z'),
        (names, pick, at, letter) => {
          const target = names[pick % names.length]!;
          const i = at % target.length;
          const typo = target.slice(0, i) + letter + target.slice(i + 1);
          const got = suggestions(typo, names);
          for (const g of got) expect(names).toContain(g);
          if (typo !== target && !names.includes(typo)) expect(got.length).toBeGreaterThan(0);
        },
      ),
    );
  });

  it('reads a list of suggestions as words', () => {
    expect(alternatives(['a'])).toBe('a');
    expect(alternatives(['a', 'b'])).toBe('a or b');
    expect(alternatives(['a', 'b', 'c'])).toBe('one of a, b or c');
  });
});
