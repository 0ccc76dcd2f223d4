/**
 * A suggestion wherever a name is typed, from the one helper (src/suggest.ts): flags (`--fico`, `--state`),
 * commands, sort fields, strategy keys and filters, --until values. Each refusal is exit 2 with nothing sent.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NOWHERE, runMkt, tempHome } from './helpers/cli.js';

const refused = async (args: string[], opts: { home?: string } = {}) => {
  const r = await runMkt(args, { env: NOWHERE, ...opts });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  return r.stderr;
};

describe('did you mean', () => {
  it.each([
    [['--fico', '760-779'], "unknown option '--fico'", 'Did you mean --fico_score?'],
    [['--fico=760-779'], "unknown option '--fico'", 'Did you mean --fico_score?'],
    [['--state', 'CA'], "unknown option '--state'", 'Did you mean --borrower_state?'],
    [['--borrower-stat', 'CA'], "unknown option '--borrower-stat'", 'Did you mean --borrower_state?'],
    [['--rate', '0.1'], "unknown option '--rate'", 'Did you mean --borrower_rate_min or --borrower_rate_max?'],
  ])('listings search %j names the flag meant', async (args, unknown, hint) => {
    const stderr = await refused(['listings', 'search', ...args]);
    expect(stderr).toContain(unknown);
    expect(stderr).toContain(hint);
  });

  it('a sort field typed short of its name', async () => {
    const stderr = await refused(['listings', 'search', '--sort-by', 'borrower_rat desc']);
    expect(stderr).toContain("--sort-by: unknown field 'borrower_rat'");
    expect(stderr).toContain('did you mean borrower_rate?');
  });

  it('strategy keys: a filter by part of its name, a filter outside filters, a sort field, a top-level key', async () => {
    const home = tempHome();
    const f = join(home, 's.yaml');
    writeFileSync(
      f,
      [
        'rules:',
        '  - name: r',
        '    filters:',
        '      fico: 760-779',
        '      state: CA',
        '    sort_by: borrower_rat desc',
        '    amount: 25',
        '    fico: 700',
        'max_per_days: 100',
        '',
      ].join('\n'),
    );
    const stderr = await refused(['invest', 'check', f], { home });
    expect(stderr).toContain(`${f}:4: rules[0].filters.fico: not a listings filter; did you mean fico_score?`);
    expect(stderr).toContain(`${f}:5: rules[0].filters.state: not a listings filter; did you mean borrower_state?`);
    expect(stderr).toContain(`${f}:6: rules[0].sort_by: unknown field 'borrower_rat'; did you mean borrower_rate?`);
    expect(stderr).toContain(`${f}:8: rules[0].fico: unknown key; fico_score is a listings filter: put it under a rule's filters`);
    expect(stderr).toContain(`${f}:9: max_per_days: unknown key; did you mean max_per_day?`);
  });

  it('commands and flag values', async () => {
    expect(await refused(['order', 'sumbit', 'x.csv'])).toContain("unknown command 'sumbit'\n(Did you mean submit?)");
    expect(await refused(['order', 'get', '00000000-0000-0000-0000-000000000000', '--wait', '--until', 'complete'])).toContain(
      "did you mean 'completed'?",
    );
  });
});
