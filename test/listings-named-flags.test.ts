/**
 * `mkt listings search` defines only the filter flags its arguments name (src/commands/options.ts, namedOnly):
 * defining all 109 was a few percent of a search's start-up (issue 43, item 5). The others must change nothing:
 * any argv, parsed with the named flags alone, gives what it gives with every flag defined (the options read,
 * or the same error and the same words, help included).
 */
import { Command } from '@commander-js/extra-typings';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineFilterFlags } from '../src/commands/listings-actions.js';
import { searchCommand } from '../src/commands/listings-commands.js';
import { namedOnly } from '../src/commands/options.js';
import { rootCommand } from '../src/context.js';
import { filterParamNames } from '../src/contract/listing-filters.js';

/** Parses `mkt listings search ARGS` (argv is the whole run's) with the named flags alone, or with every flag. */
function parse(argv: string[], namedAlone: boolean) {
  const root = rootCommand();
  const listings = new Command('listings');
  const search = searchCommand();
  listings.addCommand(search);
  root.addCommand(listings);
  defineFilterFlags(search, namedAlone ? argv : undefined, root);
  let out = '';
  for (const c of [root, listings, search]) {
    c.exitOverride();
    c.configureOutput({ writeOut: (s) => (out += s), writeErr: (s) => (out += s) });
  }
  let opts: unknown;
  search.action((o) => void (opts = o));
  try {
    root.parse(argv, { from: 'user' });
    return { opts, globals: root.opts(), out };
  } catch (err) {
    const e = err as { code?: string; message?: string };
    return { error: e.code, message: e.message, out };
  }
}

const FILTERS = ['fico_score', 'borrower_rate_min', 'listing_term', 'prior_platform_loans_min', 'income_range', 'g093s_max'];
const token = fc.oneof(
  fc.constantFrom(...FILTERS.flatMap((f) => [`--${f}`, `--${f.replaceAll('_', '-')}`])),
  fc.constantFrom(...FILTERS).map((f) => `--${f}=760-779`),
  fc.constantFrom('--limit', '--all', '--sort-by', '--sort_by', '--whole-loan', '--biddable', '--offset', '--include-credit-bureau-values'),
  fc.constantFrom('-o', '--output', 'json', '--verbose', '--no-color', '--profile', '--timezone', 'UTC', '-V'),
  fc.constantFrom('--fico', '--nope', '-x', '-5', '--no_color', '--fico_scor', '--'),
  fc.constantFrom('5', 'a,b', '760-779', 'false', 'x'),
  fc.constantFrom('help', '--help', '-h'),
);

describe('the filter flags a search defines', () => {
  it('are only those its arguments name, when nothing else may show them', () => {
    expect(FILTERS.every((f) => filterParamNames().includes(f))).toBe(true);
    const argv = ['listings', 'search', '--fico-score', '760-779', '--borrower_rate_min=0.1', '-o', 'json', '--limit', '5'];
    expect(namedOnly(argv, filterParamNames(), [searchCommand(), rootCommand()])).toEqual(new Set(['fico_score', 'borrower_rate_min']));
    // A help flag, or a flag nobody defines (its suggestion comes from every flag): all of them.
    for (const extra of ['--help', '-h', 'help', '--fico', '-x'])
      expect(namedOnly([...argv, extra], filterParamNames(), [searchCommand(), rootCommand()]), extra).toBeUndefined();
    // `--` may be a flag's value: what follows it may still be flags (a property run found this).
    expect(
      namedOnly(['listings', 'search', '--limit', '--', '--fico_score=1'], filterParamNames(), [searchCommand(), rootCommand()]),
    ).toEqual(new Set(['fico_score']));
  });

  it('read any argv as every flag would: the same options, errors and words', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 8 }), (args) => {
        const argv = ['listings', 'search', ...args];
        expect(parse(argv, true)).toEqual(parse(argv, false));
      }),
      // The first two found by earlier runs: `--` taken as a flag's value, the flags after it read.
      {
        numRuns: 1000,
        examples: [[['--limit', '--', '--fico_score=760-779']], [['--listing-term', '--', '--fico_score']], [['--', '--fico_score', 'x']]],
      },
    );
  });
});
