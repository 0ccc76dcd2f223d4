import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMkt } from './helpers/cli.js';
import { startMock, type TestMock } from './helpers/mock.js';

let mock: TestMock;
beforeAll(async () => {
  mock = await startMock({ listings: 120 });
});
afterAll(async () => {
  await mock.close();
});

describe('mkt api (spawned binary against the mock)', () => {
  it('makes an authenticated GET of a path as the API writes it and prints the JSON answer', async () => {
    const r = await runMkt(['api', 'GET', '/v1/accounts/platform'], { env: mock.env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const viaApi = JSON.parse(r.stdout);
    const viaAccount = JSON.parse((await runMkt(['account', '-o', 'json'], { env: mock.env })).stdout);
    expect(viaApi).toEqual(viaAccount);
    expect(viaApi.external_user_id).toEqual(expect.any(String));
  });

  it('sends fields of a GET as query parameters', async () => {
    const r = await runMkt(['api', 'get', '/listingsvc/v2/listings/', '-f', 'platform_rating=A,B', '-F', 'limit=3'], { env: mock.env });
    expect(r.code).toBe(0);
    const page = JSON.parse(r.stdout) as { result: { platform_rating: string }[] };
    expect(page.result).toHaveLength(3);
    for (const l of page.result) expect(['A', 'B']).toContain(l.platform_rating);
  });

  it('--paginate follows offset/limit and prints the same array as listings search --all', async () => {
    const all = await runMkt(['listings', 'search', '--all', '--platform_rating', 'A,B,C', '-o', 'json'], { env: mock.env });
    const paged = await runMkt(['api', 'GET', '/listingsvc/v2/listings/', '--paginate', '-f', 'platform_rating=A,B,C'], { env: mock.env });
    expect(paged.code).toBe(0);
    const items = JSON.parse(paged.stdout) as unknown[];
    // More than one default page (25), so the following really happened.
    expect(items.length).toBeGreaterThan(25);
    expect(items).toEqual(JSON.parse(all.stdout));
  });

  it('--paginate over loans equals loans list --all', async () => {
    const all = await runMkt(['loans', 'list', '--all', '-o', 'json'], { env: mock.env });
    const paged = await runMkt(['api', 'GET', '/v1/loans/', '--paginate'], { env: mock.env });
    expect(paged.code).toBe(0);
    expect(JSON.parse(paged.stdout)).toEqual(JSON.parse(all.stdout));
  });

  it('--query selects from the answer as with every command: the whole answer with -o json, each item with -o ndjson', async () => {
    const page = JSON.parse((await runMkt(['api', 'GET', '/listingsvc/v2/listings/', '-F', 'limit=3'], { env: mock.env })).stdout) as {
      result: { listing_number: number }[];
    };
    const numbers = page.result.map((l) => l.listing_number);
    const picked = await runMkt(['api', 'GET', '/listingsvc/v2/listings/', '-F', 'limit=3', '--query', 'result[].listing_number'], {
      env: mock.env,
    });
    expect(picked.code, picked.stderr).toBe(0);
    expect(JSON.parse(picked.stdout)).toEqual(numbers);

    const all = JSON.parse((await runMkt(['loans', 'list', '--all', '-o', 'json'], { env: mock.env })).stdout) as { loan_number: number }[];
    const lines = await runMkt(['api', 'GET', '/v1/loans/', '--paginate', '-o', 'ndjson', '--query', 'loan_number'], { env: mock.env });
    expect(lines.code, lines.stderr).toBe(0);
    expect(lines.stdout.trim().split('\n').map(Number)).toEqual(all.map((l) => l.loan_number));

    // The error's body is printed whole: a query written for the answer would make nothing of it.
    const refused = await runMkt(['api', 'GET', '/listingsvc/v2/listings/', '-f', 'fico_score=nonsense', '--query', 'result'], {
      env: mock.env,
    });
    expect(refused.code).toBe(4);
    expect(refused.stdout).toContain('fico_score');
  });

  it('keeps a query written in the path, the fields after it, and --paginate starts at its offset', async () => {
    const all = JSON.parse((await runMkt(['loans', 'list', '--all', '-o', 'json'], { env: mock.env })).stdout) as unknown[];
    expect(all.length).toBeGreaterThan(3);
    const paged = await runMkt(['api', 'GET', '/v1/loans/?offset=3', '--paginate', '-F', 'limit=2'], { env: mock.env });
    expect(paged.code, paged.stderr).toBe(0);
    expect(JSON.parse(paged.stdout)).toEqual(all.slice(3));
  });

  it('a 4xx answer prints its body on stdout and ends with exit 4', async () => {
    const r = await runMkt(['api', 'GET', '/listingsvc/v2/listings/', '-f', 'fico_score=nonsense'], { env: mock.env });
    expect(r.code).toBe(4);
    const body = JSON.parse(r.stdout);
    expect(JSON.stringify(body)).toContain('fico_score');
    expect(r.stderr).toMatch(/HTTP 400/);
  });

  it('a refused token is exit 3', async () => {
    const r = await runMkt(['api', 'GET', '/v1/accounts/platform'], { env: { ...mock.env, MKT_ACCESS_TOKEN: 'not-a-token' } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^mkt: /);
  });

  it('refuses, with exit 2 and nothing sent, a bad method, a path off the origin, a bad field and --paginate on POST', async () => {
    // A root URL where nothing listens: a call that were sent would be exit 5, not 2.
    const env = { MKT_ROOT_URL: 'http://127.0.0.1:9', MKT_ACCESS_TOKEN: 'x' };
    const cases: [string[], RegExp][] = [
      [['api', 'PATCH', '/v1/loans/'], /method must be one of GET, POST, PUT, DELETE/],
      [['api', 'GET', 'http://evil.example/steal'], /path must start with \//],
      [['api', 'GET', '/v1/loans/#x'], /path must start with \//],
      [['api', 'GET', '/v1/loans/', '-F', 'novalue'], /--field must be key=value/],
      [['api', 'POST', '/v1/orders/', '--paginate'], /--paginate follows pages of a GET/],
      [['api', 'POST', '/v1/orders/', '-F', 'a=1', '-F', 'a=2'], /field 'a' is given twice/],
      [['api', 'GET', '/v1/loans/', '-o', 'table'], /-o must be json or ndjson/],
      [
        ['api', 'GET', '/v1/loans/', '--query', 'status=x'],
        /--query is a JMESPath expression selecting from the answer, not a query parameter/,
      ],
      [['api', 'GET', '/v1/loans/', '--query', 'result[?'], /--query 'result\[\?'/],
    ];
    for (const [args, message] of cases) {
      const r = await runMkt(args, { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });

  it('warns on stderr that a POST of an order bypasses the order desk, under any spelling of the path; other calls get no warning', async () => {
    const listing = mock.app.ctx.world.listings.find(
      (l) =>
        l.listing_status === 2
        && l.investment_typeid === 1
        && l.amount_remaining >= 100
        && !l.mockRole
        && !l.authorizedUsers
        && !l.borrowerUserId,
    )!;
    const body = JSON.stringify({ bid_requests: [{ listing_id: listing.listing_number, bid_amount: 25 }] });
    const before = mock.app.ctx.world.orders.size;
    for (const path of ['/v1/orders/', '/v1//orders', '/v1/./orders']) {
      const r = await runMkt(['api', 'POST', path, '--input', '-'], { env: mock.env, input: body });
      expect(r.stderr).toMatch(
        new RegExp(
          `^mkt: warning: POST ${path.replace(/\./g, '\\.')} places an order past the order desk: nothing checks what the account already holds, no order journal records it`,
        ),
      );
      expect(r.stderr).toContain('`mkt order submit` places bids with those safeguards');
    }
    // Sent as given: the raw call is still the raw call (a listing may appear in one order each time).
    expect(mock.app.ctx.world.orders.size).toBe(before + 3);
    for (const [method, path] of [
      ['GET', '/v1/orders/'],
      ['POST', '/v1/marketplace/application/offers/'],
    ] as const) {
      const r = await runMkt(['api', method, path], { env: mock.env });
      expect(r.stderr).not.toContain('order desk');
    }
  });

  it('types -F values for a POST body and sends -f values as strings (seen in the --verbose trace)', async () => {
    const r = await runMkt(
      ['--verbose', 'api', 'POST', '/v1/marketplace/application/offers/', '-F', 'loan_amount=5000', '-F', 'flag=true', '-f', 'zip=01234'],
      { env: mock.env },
    );
    expect(r.stderr).toContain('> {"loan_amount":5000,"flag":true,"zip":"01234"}');
    expect(r.stderr).toMatch(/> authorization: bearer \*\*\*/i);
    expect(r.stderr).not.toContain(mock.env.MKT_ACCESS_TOKEN);
  });
});
