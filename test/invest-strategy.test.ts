import { describe, expect, it } from 'vitest';
import { formatProblem, parseStrategy, type Problem, type Strategy } from '../src/invest/strategy.js';
import { ruleQuery, type Candidate } from '../src/invest/market.js';
import { plan } from '../src/invest/planner.js';
import type { SourceNode } from '../src/invest/source-tree.js';

const GOOD_YAML = `# buy good paper, a little high-risk
reserve: 100          # never invest the last 100.00
max_per_run: 500
max_per_day: 1000.50
max_bids_per_run: 20
rating_share: { HR: 0.05, E: 0.1 }
rules:
  - name: prime
    filters:
      fico_score: [760-779, 780-799]
      listing_term: [36, 60]
      lender_yield_min: 0.08
      listing_creation_date_min: 2026-01-01
      has_mortgage: true
      exclude_co_borrower_application: true
    sort_by: lender_yield desc
    amount: 50
    max_listings: 5
  - name: by-rating
    filters: { platform_rating: [A, HR] }
    amount_by_rating: { A: 40.5, HR: 25 }
`;

function ok(text: string, file: string): Strategy {
  const r = parseStrategy(text, file);
  if ('problems' in r) throw new Error(r.problems.map((p) => formatProblem(file, p)).join('\n'));
  return r.strategy;
}

function problems(text: string, file: string): Problem[] {
  const r = parseStrategy(text, file);
  if ('strategy' in r) throw new Error('expected problems, the strategy was accepted');
  return r.problems;
}

describe('a good strategy', () => {
  it('reads YAML with comments into rules in query text form and caps', () => {
    const s = ok(GOOD_YAML, 'plan.yaml');
    expect(s).toEqual({
      reserve: 100,
      max_per_run: 500,
      max_per_day: 1000.5,
      max_bids_per_run: 20,
      rating_share: { HR: 0.05, E: 0.1 },
      rules: [
        {
          name: 'prime',
          filters: {
            fico_score: '760-779,780-799',
            listing_term: '36,60',
            lender_yield_min: '0.08',
            listing_creation_date_min: '2026-01-01',
            has_mortgage: 'true',
            exclude_co_borrower_application: 'true',
          },
          sort_by: 'lender_yield desc',
          amount: 50,
          max_listings: 5,
        },
        { name: 'by-rating', filters: { platform_rating: 'A,HR' }, amount_by_rating: { A: 40.5, HR: 25 } },
      ],
    });
  });

  it("reads the old loans' rating as N/A, spelt N/A or NA (as the account's maps spell it)", () => {
    const s = ok('rating_share: { NA: 0.05 }\nrules:\n  - name: r\n    amount_by_rating: { "N/A": 25, HR: 30 }\n', 'na.yaml');
    expect(s.rating_share).toEqual({ 'N/A': 0.05 });
    expect(s.rules[0]!.amount_by_rating).toEqual({ 'N/A': 25, HR: 30 });
  });

  it('reads a rating_share of 0 as "no new principal in that rating": the planner then bids on none of its listings', () => {
    const s = ok('rating_share: { HR: 0 }\nrules:\n  - name: any\n    amount: 25\n', 'no-hr.yaml');
    expect(s.rating_share).toEqual({ HR: 0 });
    const at = Date.parse('2026-06-01T12:00:00Z');
    const listing = (n: number, rating: string): Candidate => ({
      listing_number: n,
      platform_rating: rating,
      listing_amount: 5000,
      amount_remaining: 4000,
      partial_funding_indicator: false,
      created_at: at - 86_400_000 * 2,
      whole_loan: false,
    });
    // Whatever the account holds already, HR included, and even after bids in other ratings.
    const ds = plan(s, {
      now: at,
      cash: 10_000,
      requested_today: 0,
      taken: new Map(),
      principal_by_rating: { HR: 500, A: 10_000 },
      candidates: [[listing(1, 'HR'), listing(2, 'A'), listing(3, 'HR'), listing(4, 'B')]],
    });
    expect(ds.map((d) => `${d.listing_id}:${d.action}:${d.reason}`)).toEqual([
      '1:skip:rating_share',
      '2:bid:ok',
      '3:skip:rating_share',
      '4:bid:ok',
    ]);
  });

  it('reads the same strategy from JSON', () => {
    const json = JSON.stringify(
      {
        reserve: 100,
        rules: [{ name: 'prime', filters: { fico_score: ['760-779'], listing_term: 36, has_mortgage: false }, amount: 25 }],
      },
      null,
      2,
    );
    expect(ok(json, 'plan.json')).toEqual({
      reserve: 100,
      rules: [{ name: 'prime', filters: { fico_score: '760-779', listing_term: '36', has_mortgage: 'false' }, amount: 25 }],
    });
  });

  it("builds each rule's search with biddable=true, invested=false and its sort", () => {
    const rule = ok(GOOD_YAML, 'plan.yml').rules[0]!;
    const q = ruleQuery(rule);
    expect(q.get('fico_score')).toBe('760-779,780-799');
    expect(q.get('biddable')).toBe('true');
    expect(q.get('invested')).toBe('false');
    expect(q.get('sort_by')).toBe('lender_yield desc');
  });
});

/** One file with every kind of problem, each on a line of its own. */
const BAD_YAML = [
  'reserve: -5', // 1
  'max_per_run: 10.001', // 2
  'colour: blue', // 3
  'rating_share: { HR: -0.01, ZZ: 0.1, E: 1.5 }', // 4
  'max_bids_per_run: 2.5', // 5
  'rules:', // 6
  '  - name: one', // 7
  '    filters:', // 8
  '      fico_scor: [760-779]', // 9
  '      listing_term: [37]', // 10
  '      lender_yield_min: lots', // 11
  '      biddable: false', // 12
  '    amount: 24.99', // 13
  '  - name: one', // 14
  '    amount: 25.001', // 15
  '    amount_by_rating: { A: 30 }', // 16
  '  - name: three', // 17
  '    amount_by_rating: { A: 30, Q: 30 }', // 18
  '  - name: four', // 19
  '    sort_by: sideways desc', // 20
  '    max_listing: 3', // 21
].join('\n');

describe('a bad strategy gets every problem with its line', () => {
  it('in YAML', () => {
    const found = problems(BAD_YAML, 'bad.yaml').map((p) => formatProblem('bad.yaml', p));
    const expected: [number, string, RegExp][] = [
      [1, 'reserve', /-5 is negative/],
      [2, 'max_per_run', /more than 2 decimals/],
      [3, 'colour', /unknown key/],
      [4, 'rating_share.HR', /from 0 to 1/],
      [4, 'rating_share.ZZ', /unknown rating; expected one of AA, A, B, C, D, E, HR, N\/A \(or NA\)/],
      [4, 'rating_share.E', /from 0 to 1/],
      [5, 'max_bids_per_run', /whole number/],
      [9, 'rules[0].filters.fico_scor', /did you mean fico_score\?/],
      [10, 'rules[0].filters.listing_term', /unknown value '37'/],
      [11, 'rules[0].filters.lender_yield_min', /'lots' is not a number/],
      [12, 'rules[0].filters.biddable', /set by mkt invest/],
      [13, 'rules[0].amount', /below the 25.00 minimum/],
      [14, 'rules[1].name', /'one' is already the name of rules\[0\]/],
      [15, 'rules[1].amount', /more than 2 decimals/],
      [16, 'rules[1].amount_by_rating', /not both/],
      [18, 'rules[2].amount_by_rating.Q', /unknown rating/],
      [19, 'rules[3].amount', /missing: give amount/],
      [20, 'rules[3].sort_by', /unknown field 'sideways'/],
      [21, 'rules[3].max_listing', /did you mean max_listings\?/],
    ];
    for (const [line, key, message] of expected) {
      expect(
        found.some((f) => f.startsWith(`bad.yaml:${line}: ${key}: `) && message.test(f)),
        `bad.yaml:${line}: ${key}: ${message}\n${found.join('\n')}`,
      ).toBe(true);
    }
    expect(found).toHaveLength(expected.length);
  });

  it('in JSON, with the lines of the JSON text', () => {
    const text = [
      '{', // 1
      '  "max_per_day": -1,', // 2
      '  "rules": [', // 3
      '    {', // 4
      '      "name": "a",', // 5
      '      "filters": { "platform_ratng": ["A"], "fico_score": "999" },', // 6
      '      "amount": 10', // 7
      '    },', // 8
      '    { "name": "b", "amount": 30, "amount_by_rating": { "A": 30 } },', // 9
      '    { "name": "c", "filters": { "listing_term": [] } }', // 10
      '  ],', // 11
      '  "rating_share": { "HR": -0.1 }', // 12
      '}', // 13
    ].join('\n');
    const found = problems(text, 's.json').map((p) => formatProblem('s.json', p));
    expect(found).toEqual([
      expect.stringMatching(/^s\.json:2: max_per_day: -1 is negative$/),
      expect.stringMatching(/^s\.json:6: rules\[0\]\.filters\.platform_ratng: not a listings filter; did you mean platform_rating\?/),
      expect.stringMatching(/^s\.json:6: rules\[0\]\.filters\.fico_score: unknown value '999'/),
      expect.stringMatching(/^s\.json:7: rules\[0\]\.amount: 10 is below the 25\.00 minimum bid$/),
      expect.stringMatching(/^s\.json:9: rules\[1\]\.amount_by_rating: give amount or amount_by_rating, not both$/),
      expect.stringMatching(/^s\.json:10: rules\[2\]\.filters\.listing_term: needs at least one value$/),
      expect.stringMatching(/^s\.json:10: rules\[2\]\.amount: missing/),
      expect.stringMatching(/^s\.json:12: rating_share\.HR: must be a share from 0 to 1/),
    ]);
  });

  it('empty rules, a missing rules key and an empty file', () => {
    expect(problems('rules: []\n', 's.yaml')).toEqual([{ line: 1, key: 'rules', message: expect.stringMatching(/is empty/) }]);
    expect(problems('{"reserve": 5}', 's.json')).toEqual([{ line: 1, key: 'rules', message: expect.stringMatching(/missing/) }]);
    expect(problems('# nothing yet\n', 's.yaml')).toEqual([{ line: 1, key: '', message: expect.stringMatching(/empty/) }]);
    expect(problems('- 1\n- 2\n', 's.yaml')).toEqual([{ line: 1, key: '', message: expect.stringMatching(/map of keys/) }]);
  });

  it('JSON must be strict JSON: a trailing comma or a comment is refused with its line', () => {
    const trailing = problems('{\n  "rules": [],\n}\n', 's.json');
    expect(problems('{\n"rules": [1,\n', 's.json')).toEqual([
      { line: 3, key: '', message: 'not valid JSON: Unexpected end of JSON input' },
    ]);
    expect(trailing).toEqual([{ line: 3, key: '', message: expect.stringMatching(/^not valid JSON/) }]);
    expect(problems('{\n  # a comment\n  "rules": []\n}', 's.json')[0]!.line).toBe(2);
  });

  it('a key given twice is a problem, not a silent last-one-wins', () => {
    const found = problems('{"reserve": 1,\n "reserve": 2, "rules": []}', 's.json');
    expect(found[0]).toMatchObject({ line: 2, message: expect.stringMatching(/unique/) });
  });

  it('a YAML syntax error names its line', () => {
    const found = problems('rules:\n  - name: a\n    amount: [25\nreserve: 1\n', 's.yaml');
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]!.line).toBeGreaterThanOrEqual(3);
  });

  it('aliases, values of the wrong type and whole-loan rules are refused by name', () => {
    const text = [
      'rules:', // 1
      '  - name: a', // 2
      '    filters: &f { has_mortgage: true }', // 3
      '    amount: 25', // 4
      '  - name: b', // 5
      '    filters: *f', // 6
      '    amount: "25"', // 7
    ].join('\n');
    const found = problems(text, 's.yaml').map((p) => formatProblem('s.yaml', p));
    expect(found).toEqual([expect.stringMatching(/^s\.yaml:6: aliases \(\*f\) are not supported/)]);
    const typed = problems(
      'rules:\n  - name: 5\n    amount: "25"\n    filters: { whole_loan: true, borrower_rate_min: [0.1] }\n',
      's.yaml',
    );
    expect(typed.map((p) => `${p.line} ${p.key}`)).toEqual([
      '2 rules[0].name',
      '3 rules[0].amount',
      '4 rules[0].filters.whole_loan',
      '4 rules[0].filters.borrower_rate_min',
    ]);
    expect(typed[1]!.message).toMatch(/must be a number \(dollars\), got "25"/);
  });

  it('date filters are checked as mkt listings search checks them', () => {
    const found = problems('rules:\n  - name: a\n    amount: 25\n    filters: { listing_end_date_max: "2026-13-45" }\n', 's.yaml');
    expect(found).toEqual([{ line: 4, key: 'rules[0].filters.listing_end_date_max', message: expect.stringMatching(/not a date/) }]);
  });
});

describe('any JSON text JSON.parse accepts is read, with the same values', () => {
  it('holds for random JSON, compact or indented', async () => {
    const fc = (await import('fast-check')).default;
    const { readSourceTree } = await import('../src/invest/source-tree.js');
    const plain = (n: SourceNode): unknown =>
      n.kind === 'scalar'
        ? n.value
        : n.kind === 'list'
          ? n.items.map(plain)
          : Object.fromEntries(n.entries.map((e) => [e.key, plain(e.value)]));
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const read = readSourceTree(text, 'x.json');
        expect(read).not.toHaveProperty('problems');
        expect(plain((read as { root: SourceNode }).root)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });
});
