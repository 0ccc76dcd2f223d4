/**
 * Issue 13, items 3 and 10: checks that need no server are made before sending (exit 2 naming what
 * was wrong), and flags take either spelling and listed values any case.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '../src/contract/dates.js';
import { NOWHERE, runMkt } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 400 });
});
afterAll(async () => {
  await mock.close();
});

const UUID = '3f2a1b2c-1234-4abc-8def-0123456789ab';

/** Runs `mkt listings search … -o json --limit 500` against the mock and returns the listings. */
async function search(...args: string[]): Promise<Array<Record<string, unknown>>> {
  const r = await runMkt(['listings', 'search', ...args, '-o', 'json', '--limit', '500'], { env: mock.env });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout).result;
}

/** The listing numbers of a search, for comparing two spellings of one query. */
const numbers = (rows: Array<Record<string, unknown>>) => rows.map((l) => l.listing_number);

/** GETs the mock's listings endpoint directly, to see that its reader agrees with the CLI's. */
async function mockSearch(query: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${mock.origin}/listingsvc/v2/listings/?${query}`, {
    headers: { authorization: `Bearer ${mock.env.MKT_ACCESS_TOKEN}` },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: await res.json() };
}

describe('checks made before anything is sent (exit 2)', () => {
  it.each([
    [
      ['listings', 'search', '--borrower_rate_min', '0.3', '--borrower_rate_max', '0.1'],
      /--borrower_rate_min: is greater than borrower_rate_max/,
    ],
    [['order', 'get', 'not-an-order'], /order id must be a UUID .*got 'not-an-order'/],
    [['order', 'get', `${UUID}x`, '--wait'], /order id must be a UUID/],
    [['order', 'listings', '12345'], /order id must be a UUID .*got '12345'/],
    [['listings', 'search', '--limit', '501'], /--limit must be at most 500.*got '501'/],
    [['listings', 'search', '--all', '--limit=1000'], /--limit must be at most 500/],
    [['loans', 'list', '--limit', '26'], /--limit must be at most 25.*got '26'/],
    [['order', 'list', '--limit', '101'], /--limit must be at most 100.*got '101'/],
    [['order', 'listings', UUID, '--limit', '101'], /--limit must be at most 100.*got '101'/],
    [['listings', 'search', '--borrower_rate_min', '-0.01'], /--borrower_rate_min: must be 0 or more, got '-0.01'/],
    [['listings', 'search', '--listing_amount_max=-5'], /--listing_amount_max: must be 0 or more, got '-5'/],
    [['listings', 'search', '--percent_funded_min=-1'], /--percent_funded_min: must be 0 or more/],
    [['listings', 'search', '--prior_platform_loans_max=-1'], /--prior_platform_loans_max: must be 0 or more/],
    [['listings', 'search', '--at01s_min=-1'], /--at01s_min: must be 0 or more/],
    [['listings', 'search', '--at02s_min=-5'], /--at02s_min: must be -4 or more/],
    [
      ['listings', 'search', '--listing_creation_date_min=2026-05-01T10:00'],
      /is not a date \(yyyy-MM-dd, yyyy-MM-dd HH:mm:ss or yyyy-MM-ddTHH:mm:ss\)/,
    ],
  ])('%j is refused with exit 2, naming what was wrong', async (args, message) => {
    const r = await runMkt(args as string[], { env: NOWHERE });
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('still sends a limit at the maximum, a bureau2 special value and a well-formed order id', async () => {
    expect(await search('--limit', '500')).toHaveLength(400 - (await search('--whole_loan')).length);
    const loans = await runMkt(['loans', 'list', '--limit', '25'], { env: mock.env });
    expect(loans.code).toBe(0);
    const special = await search('--at02s_min=-4', '--at02s_max=-4');
    expect(special.length).toBeGreaterThan(0);
    const byNumber = new Map(mock.app.ctx.world.listings.map((l) => [l.listing_number, l]));
    for (const l of special) expect(byNumber.get(l.listing_number as number)!.bureau2.at02s).toBe(-4);
    // A UUID the marketplace does not know is its answer to give (exit 4), not a usage error.
    const unknown = await runMkt(['order', 'get', UUID], { env: mock.env });
    expect(unknown.code).toBe(4);
  });

  it('the mock refuses a negative bound too, as it reads with the same reader', async () => {
    const r = await mockSearch('borrower_rate_min=-1');
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toMatch(/borrower_rate_min/);
  });
});

describe('date bounds: the T form is accepted, listed, and means what the space form means', () => {
  it('gives the same listings for yyyy-MM-ddTHH:mm:ss as for yyyy-MM-dd HH:mm:ss, in the CLI and the mock', async () => {
    const created = mock.app.ctx.world.listings.map((l) => l.listing_creation_date).sort((x, y) => x - y);
    const mid = formatDateTime(created[Math.floor(created.length / 2)]!).slice(0, 19);
    const spaced = await search(`--listing_creation_date_min=${mid}`);
    const withT = await search(`--listing_creation_date_min=${mid.replace(' ', 'T')}`);
    expect(spaced.length).toBeGreaterThan(0);
    expect(spaced.length).toBeLessThan((await search()).length);
    expect(numbers(withT)).toEqual(numbers(spaced));
    const viaMock = await mockSearch(`listing_creation_date_min=${mid.replace(' ', 'T')}&limit=500`);
    expect(viaMock.status).toBe(200);
    expect(viaMock.body.total_count).toBe(spaced.length);
  });

  it('lists the T form in search help', async () => {
    const r = await runMkt(['listings', 'search', '--help']);
    expect(r.stdout).toContain('yyyy-MM-ddTHH:mm:ss');
  });
});

describe('either spelling of a flag, any case of a listed value', () => {
  it('takes --fico-score as --fico_score, with = or a space, and ranges and control flags likewise', async () => {
    const snake = await search('--fico_score=760-779');
    expect(snake.length).toBeGreaterThan(0);
    expect(numbers(await search('--fico-score=760-779'))).toEqual(numbers(snake));
    expect(numbers(await search('--fico-score', '760-779'))).toEqual(numbers(snake));
    const range = await search('--borrower_rate_min', '0.2', '--sort-by', 'borrower_rate desc');
    expect(numbers(await search('--borrower-rate-min', '0.2', '--sort_by', 'borrower_rate desc'))).toEqual(numbers(range));
    expect(numbers(await search('--whole_loan', '--exclude_co_borrower'))).toEqual(
      numbers(await search('--whole-loan', '--exclude-co-borrower')),
    );
    const loans = await runMkt(['loans', 'list', '--sort_by', 'principal_balance asc'], { env: mock.env });
    expect(loans.code).toBe(0);
  });

  it('lists one spelling per flag in help', async () => {
    const help = (await runMkt(['listings', 'search', '--help'])).stdout;
    const optionLines = help.split('\n').filter((l) => /^\s+--/.test(l));
    expect(optionLines.filter((l) => /--fico[_-]score\b/.test(l))).toHaveLength(1);
    expect(optionLines.some((l) => l.includes('--fico-score'))).toBe(false);
    expect(optionLines.some((l) => l.includes('--sort_by'))).toBe(false);
  });

  it('reads listed values in any case and sends them as the API writes them', async () => {
    const upper = await search('--platform_rating', 'A,HR', '--borrower_state', 'CA,NY');
    expect(upper.length).toBeGreaterThan(0);
    expect(numbers(await search('--platform_rating', 'a,hr', '--borrower_state', 'ca,Ny'))).toEqual(numbers(upper));
    const traced = await runMkt(['listings', 'search', '--platform-rating=aa,hr', '--borrower_state=ca', '--limit', '1', '--verbose'], {
      env: mock.env,
    });
    expect(traced.code).toBe(0);
    expect(traced.stderr).toMatch(/> GET \S*platform_rating=AA%2CHR/);
    expect(traced.stderr).toMatch(/> GET \S*borrower_state=CA\b/);
  });

  it('suggests the flag for a typo in either spelling, with = or a space', async () => {
    for (const args of [['--fico-scor=760-779'], ['--fico_scor=760-779'], ['--fico-scor', '760-779'], ['--borrower-rate-mn=0.1']]) {
      const r = await runMkt(['listings', 'search', ...args], { env: NOWHERE });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`unknown option '${args[0]!.split('=')[0]}'`);
      expect(r.stderr).toMatch(
        args[0]!.startsWith('--fico') ? /Did you mean --fico[_-]score\?/ : /Did you mean --borrower[_-]rate[_-]min\?/,
      );
      expect(r.stdout).toBe('');
    }
  });
});
