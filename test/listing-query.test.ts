import { describe, expect, it } from 'vitest';
import { buildSearchQuery } from '../src/commands/listings-actions.js';
import { parseListingQuery } from '../mock-server/search/listing-query.js';

/** The mock's 400 message for `query`, or null when it accepts it. */
function mockProblem(query: URLSearchParams): string | null {
  try {
    parseListingQuery(query, undefined);
    return null;
  } catch (err) {
    return (err as { body: { message: string } }).body.message;
  }
}

/** The CLI's exit-2 message for `opts`, or null when it accepts them. */
function cliProblem(opts: Record<string, unknown>): string | null {
  try {
    buildSearchQuery(opts, undefined);
    return null;
  } catch (err) {
    expect(err).toMatchObject({ exitCode: 2 });
    return (err as Error).message;
  }
}

describe('one reader for a listings search, on both sides', () => {
  it.each([
    [{ borrower_rate_min: '0.3', borrower_rate_max: '0.1' }, 'borrower_rate_min: is greater than borrower_rate_max'],
    [{ fico_score: '900-999' }, "fico_score: unknown value '900-999'"],
    [{ has_mortgage: 'maybe' }, "has_mortgage: must be true or false, got 'maybe'"],
    [{ listing_end_date_min: 'soon' }, "listing_end_date_min: 'soon' is not a date"],
  ])('refuses %o in the CLI (exit 2, naming the flag) as the mock does (400, naming the parameter)', (opts, problem) => {
    const cli = cliProblem(opts);
    const mock = mockProblem(new URLSearchParams(Object.entries(opts)));
    expect(cli).toContain(`--${problem}`);
    expect(mock).toContain(problem);
  });

  it('names the CLI flag for the control parameters', () => {
    expect(cliProblem({ sortBy: 'borrower_rate sideways' })).toBe("--sort-by: direction must be asc or desc, got 'borrower_rate sideways'");
    expect(mockProblem(new URLSearchParams({ sort_by: 'borrower_rate sideways' }))).toBe(
      "sort_by: direction must be asc or desc, got 'borrower_rate sideways'",
    );
    expect(cliProblem({ includeCreditBureauValues: 'bureau3' })).toBe(
      "--include-credit-bureau-values: must be bureau1, bureau2 or both, got 'bureau3'",
    );
    expect(cliProblem({ biddable: 'Nope' })).toBe("--biddable: must be true or false, got 'Nope'");
  });

  it('sends booleans as the API writes them', () => {
    const q = buildSearchQuery({ has_mortgage: 'TRUE', biddable: true, invested: 'False', borrower_rate_min: '0.1' }, undefined);
    expect(q.toString()).toBe('borrower_rate_min=0.1&has_mortgage=true&biddable=true&invested=false');
  });
});
