import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FICO_BINS } from '../src/contract/enums.js';
import { NOWHERE, runMkt } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 400 });
});
afterAll(async () => {
  await mock.close();
});

describe('mkt listings search (spawned binary against the mock)', () => {
  it('returns only listings in the FICO bin, with correct counts', async () => {
    const r = await runMkt(['listings', 'search', '--fico_score=760-779', '-o', 'json', '--limit', '500'], { env: mock.env });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout);
    const expected = mock.app.ctx.world.listings.filter(
      (l) => l.listing_status === 2 && l.investment_typeid === 1 && l.fico_score === '760-779',
    ).length;
    expect(expected).toBeGreaterThan(0);
    expect(body.total_count).toBe(expected);
    expect(body.result_count).toBe(body.result.length);
    expect(body.result.length).toBe(Math.min(expected, 500));
    for (const l of body.result) expect(l.fico_score).toBe('760-779');
  });

  it('prints json when not on a terminal, and follows every page with --all as one array', async () => {
    const page = JSON.parse((await runMkt(['listings', 'search', '--limit', '7'], { env: mock.env })).stdout);
    expect(page.result).toHaveLength(7);
    const all = await runMkt(['listings', 'search', '--all', '--limit', '50', '--platform_rating', 'A,B'], { env: mock.env });
    expect(all.code).toBe(0);
    const items = JSON.parse(all.stdout) as Array<{ platform_rating: string; listing_number: number }>;
    const expected = mock.app.ctx.world.listings.filter(
      (l) => l.listing_status === 2 && l.investment_typeid === 1 && ['A', 'B'].includes(l.platform_rating),
    );
    expect(items.map((i) => i.listing_number)).toEqual(expected.map((l) => l.listing_number));
  });

  it('streams ndjson with --all, one listing a line', async () => {
    const r = await runMkt(['listings', 'search', '--all', '-o', 'ndjson', '--limit', '30'], { env: mock.env });
    const lines = r.stdout.trim().split('\n');
    const fractional = mock.app.ctx.world.listings.filter((l) => l.listing_status === 2 && l.investment_typeid === 1);
    expect(lines).toHaveLength(fractional.length);
    expect(new Set(lines.map((l) => JSON.parse(l).listing_number)).size).toBe(fractional.length);
  });

  it('prints csv with the chosen columns and a header', async () => {
    const r = await runMkt(['listings', 'search', '-o', 'csv', '--columns', 'listing_number,fico_score', '--limit', '3'], {
      env: mock.env,
    });
    const [header, ...rows] = r.stdout.trim().split('\n');
    expect(header).toBe('listing_number,fico_score');
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(FICO_BINS).toContain(row.split(',')[1]);
  });

  it('combines range, boolean and sort flags', async () => {
    const r = await runMkt(
      ['listings', 'search', '--borrower_rate_min', '0.1', '--has_mortgage=false', '--sort-by', 'borrower_rate desc', '--limit', '500'],
      { env: mock.env },
    );
    const rows = JSON.parse(r.stdout).result as Array<{ borrower_rate: number; has_mortgage: boolean }>;
    expect(rows.length).toBeGreaterThan(0);
    rows.forEach((row, i) => {
      expect(row.borrower_rate).toBeGreaterThanOrEqual(0.1);
      expect(row.has_mortgage).toBe(false);
      if (i > 0) expect(rows[i - 1]!.borrower_rate).toBeGreaterThanOrEqual(row.borrower_rate);
    });
  });

  it('takes --invested alone as true and --biddable false for originated listings you hold', async () => {
    const invested = await runMkt(['listings', 'search', '--invested'], { env: mock.env });
    expect(invested.code).toBe(0);
    expect(JSON.parse(invested.stdout).total_count).toBe(0);
    const originated = await runMkt(['listings', 'search', '--biddable', 'false', '--limit', '500'], { env: mock.env });
    const held = new Set(mock.app.ctx.world.notes.filter((n) => n.accountId === 'alice-1').map((n) => n.listingNumber));
    expect(JSON.parse(originated.stdout).total_count).toBe(held.size);
  });

  it('shows dates in the --timezone zone', async () => {
    const r = await runMkt(['listings', 'search', '--limit', '1', '--timezone', 'America/New_York'], { env: mock.env });
    expect(JSON.parse(r.stdout).result[0].listing_creation_date).toMatch(/ -0400$/);
  });

  it.each([
    [['listings', 'search', '--fico-scor=760-779'], /unknown option/],
    [['listings', 'search', '--fico_score', '999-1000'], /--fico_score: unknown value '999-1000'/],
    [['listings', 'search', '--borrower_rate_min', 'abc'], /--borrower_rate_min: 'abc' is not a number/],
    [['listings', 'search', '--listing_end_date_max', '2026-02-30'], /--listing_end_date_max: '2026-02-30' is not a date/],
    [['listings', 'search', '--limit', '0'], /--limit must be a whole number of at least 1/],
    [['listings', 'search', '--limit', '-1'], /--limit/],
    [['listings', 'search', '--limit', 'abc'], /--limit must be a whole number/],
    [['listings', 'search', '--sort-by', 'nonsense desc'], /--sort-by: unknown field 'nonsense'/],
    [['listings', 'search', '--columns', 'listing_numbr'], /did you mean 'listing_number'/],
    [['listings', 'search', '--timezone', 'Mars/Olympus'], /unknown time zone 'Mars\/Olympus'/],
    [['listings', 'search', '-o', 'xml'], /xml/],
  ])('refuses bad input %j with exit 2 before sending anything', async (args, message) => {
    const r = await runMkt(args as string[], { env: NOWHERE });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('suggests the right flag for a typo, written with a space or with =', async () => {
    for (const args of [['--fico_scor', '760-779'], ['--fico_scor=760-779'], ['--borrower_rate_mn=0.1']]) {
      const r = await runMkt(['listings', 'search', ...args], { env: NOWHERE });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`unknown option '${args[0]!.split('=')[0]}'`);
      expect(r.stderr).toContain(`Did you mean --${args[0]!.startsWith('--fico') ? 'fico_score' : 'borrower_rate_min'}?`);
      expect(r.stdout).toBe('');
    }
  });

  it('exits 3 when there is no token, and 5 when the marketplace is unreachable', async () => {
    const noToken = await runMkt(['listings', 'search'], { env: { MKT_ROOT_URL: mock.origin } });
    expect(noToken.code).toBe(3);
    expect(noToken.stderr).toMatch(/not logged in/);
    const down = await runMkt(['listings', 'search'], { env: NOWHERE });
    expect(down.code).toBe(5);
    expect(down.stderr).toMatch(/cannot reach http:\/\/127.0.0.1:9/);
  });
});

describe('mkt listings get and fields', () => {
  it('gets an active listing and an originated one by number', async () => {
    const world = mock.app.ctx.world;
    const active = world.listings.find((l) => l.listing_status === 2 && l.investment_typeid === 2)!;
    const originated = world.listings.find((l) => l.loan_number !== null)!;
    for (const l of [active, originated]) {
      const r = await runMkt(['listings', 'get', String(l.listing_number)], { env: mock.env });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).listing_number).toBe(l.listing_number);
    }
  });

  it('exits 4 for a listing that does not exist and 2 for a number that is not one', async () => {
    expect((await runMkt(['listings', 'get', '99'], { env: mock.env })).code).toBe(4);
    expect((await runMkt(['listings', 'get', 'x1'], { env: NOWHERE })).code).toBe(2);
  });

  it('lists the catalogue with every filter kind and the bureau2 short names', async () => {
    const r = await runMkt(['listings', 'fields', '-o', 'json']);
    const rows = JSON.parse(r.stdout) as Array<{ field: string; filter: string; flags: string }>;
    expect(rows.find((f) => f.field === 'fico_score')!.filter).toBe('multivalue');
    expect(rows.find((f) => f.field === 'has_mortgage')!.flags).toBe('--has_mortgage');
    expect(rows.find((f) => f.field === 'borrower_rate')!.flags).toBe('--borrower_rate_min --borrower_rate_max');
    expect(rows.some((f) => f.flags === '--at01s_min --at01s_max')).toBe(true);
  });

  it('takes the output format from the profile config, and -o over it', async () => {
    const home = (await import('./helpers/cli.js')).tempHome();
    expect((await runMkt(['config', 'set', 'output', 'csv'], { home })).code).toBe(0);
    const csv = await runMkt(['listings', 'fields'], { home });
    expect(csv.stdout.split('\n')[0]).toBe('field,type,filter,flags,description');
    const json = await runMkt(['listings', 'fields', '-o', 'json'], { home });
    expect(JSON.parse(json.stdout)[0].field).toBe('amount_funded');
  });

  it('prints the version and help quickly with exit 0', async () => {
    const v = await runMkt(['--version']);
    expect(v.code).toBe(0);
    expect(v.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const h = await runMkt(['listings', 'search', '--help']);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain('--fico_score <value>');
  });
});
