/**
 * Generated requests of the OAuth routes (consent page and form, token endpoint) and the admin routes,
 * for test/mock-doors.test.ts (door-requests.ts puts them together with the API's).
 */
import fc from 'fast-check';
import { DEMO_CLIENT } from '../../src/contract/demo-client.js';
import { FORM_TYPE, JSON_TYPE, get, paging, param, query, readMethod, type RouteArb, type WorldFacts } from './door-request-parts.js';

/** The OAuth routes: the consent page and its form, the token endpoint. */
export function oauthRoutes(f: WorldFacts): RouteArb[] {
  const client = fc.oneof(
    { weight: 6, arbitrary: fc.constant<string | undefined>(DEMO_CLIENT.clientId) },
    fc.constantFrom('stranger', undefined),
  );
  const consent = fc.record(
    { client_id: client, response_type: fc.constantFrom('auth_key', 'auth_key', 'code'), state: fc.constantFrom('s1', 'a b&c') },
    { requiredKeys: ['client_id'] },
  );
  // A placeholder goes in as it is (each door's own secret is base64url: nothing to escape).
  const form = (pairs: Record<string, string | undefined>) =>
    query(pairs)
      .slice(1)
      .replace(/%7B%7B(\w+)%7D%7D/g, '{{$1}}');
  const tokenForm = fc.oneof(
    fc.record({
      grant_type: fc.constant('authorization_key'),
      client_id: client,
      client_secret: fc.constantFrom(DEMO_CLIENT.secret, DEMO_CLIENT.secret, 'wrong'),
      auth_key: fc.constantFrom('{{AUTH_KEY}}', '{{AUTH_KEY}}', 'forged'),
    }),
    fc.record({
      grant_type: fc.constant('refresh_token'),
      client_id: client,
      client_secret: fc.constantFrom(DEMO_CLIENT.secret, 'wrong'),
      refresh_token: fc.constantFrom('{{REFRESH}}', '{{REFRESH}}', 'forged'),
    }),
    fc.record({ grant_type: fc.constantFrom('password', 'client_credentials', ''), client_id: client }),
  );
  return [
    [
      'GET /oauth',
      fc
        .record({
          method: readMethod,
          q: consent,
          cookie: fc.constantFrom(undefined, `mkt_mock_account=${f.accounts[0]}`, 'mkt_mock_account=%zz'),
        })
        .map(({ method, q, cookie }) => ({
          route: 'GET /oauth',
          method,
          target: `/oauth${query(q)}`,
          auth: 'none' as const,
          headers: cookie ? { cookie } : ({} as Record<string, string>),
        })),
    ],
    [
      'POST /oauth',
      fc
        .record({
          q: consent,
          decision: fc.constantFrom('allow', 'allow', 'cancel', 'maybe', undefined),
          account: fc.constantFrom(...f.accounts, 'nobody'),
          access: fc.constantFrom('read_write', 'read_only', 'all', undefined),
        })
        .map(({ q, ...rest }) => ({
          route: 'POST /oauth',
          method: 'POST',
          target: '/oauth',
          auth: 'none' as const,
          headers: FORM_TYPE,
          body: form({ ...q, ...rest }),
        })),
    ],
    [
      'POST /v1/security/oauth/token',
      fc
        .record({ pairs: tokenForm, type: fc.constantFrom<Record<string, string>>(FORM_TYPE, FORM_TYPE, FORM_TYPE, JSON_TYPE, {}) })
        .map(({ pairs, type }) => ({
          route: 'POST /v1/security/oauth/token',
          method: 'POST',
          target: '/v1/security/oauth/token',
          auth: 'none' as const,
          headers: type,
          body: form(pairs),
        })),
    ],
  ];
}

/** The admin routes (no token: loopback over HTTP, in-process for msw). */
export function adminRoutes(f: WorldFacts): RouteArb[] {
  const write = (route: string, target: fc.Arbitrary<string>, body: fc.Arbitrary<unknown> | null): RouteArb => [
    route,
    fc
      .record({
        target,
        body:
          body === null
            ? fc.constant(undefined)
            : fc.option(
                body.map((b) => JSON.stringify(b)),
                { nil: undefined, freq: 8 },
              ),
        junk: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, fc.constant(true)),
      })
      .map(({ target, body, junk }) => ({
        route,
        method: route.split(' ')[0]!,
        target,
        auth: 'none' as const,
        // The admin routes' content type is the HTTP door's check (see the test): a body always goes as JSON.
        headers: body !== undefined || junk ? JSON_TYPE : {},
        ...(junk ? { body: '{"oops"' } : body !== undefined ? { body } : {}),
      })),
  ];
  const snapshot = fc.constantFrom('one', 'two', 'bad name!', '%zz');
  const clockBody = fc.oneof(
    { weight: 8, arbitrary: fc.record({ advance: fc.constantFrom('90m', '2h', '1d', '3d', 'PT1H', 'soon', '500d') }) },
    {
      weight: 2,
      arbitrary: fc.record({ to: fc.constantFrom('2020-01-01T00:00:00Z', 'tomorrow', '2026-01-06T00:00:00Z', '2026-12-01T00:00:00Z') }),
    },
    { weight: 1, arbitrary: fc.constant({}) },
  );
  const faults = fc.record(
    {
      error_rate: fc.constantFrom(0, 0.5, 1),
      rate_limit_rate: fc.constantFrom(0, 0.3),
      retry_after: fc.constantFrom(0, 7),
      drop_rate: fc.constantFrom(0, 0.2),
      drop_response_rate: fc.constantFrom(0, 0.2),
      latency_ms: fc.constantFrom(0, 2),
      handler_delay_ms: fc.constantFrom(0, 2),
      path: fc.constantFrom('/v1/orders', '/v1/loans', '/listingsvc', '/v1', 'v1/../x'),
      method: fc.constantFrom('GET', 'post'),
      count: fc.constantFrom(1, 2, 3, 3, 0),
    },
    { requiredKeys: ['count'] },
  );
  return [
    write('POST /__mock/reset', fc.constant('/__mock/reset'), null),
    get('GET /__mock/state', fc.constant('/__mock/state'), fc.constant('none')),
    write('POST /__mock/clock', fc.constant('/__mock/clock'), clockBody),
    get('GET /__mock/clock', fc.constant('/__mock/clock'), fc.constant('none')),
    write('POST /__mock/process', fc.constant('/__mock/process'), null),
    get('GET /__mock/faults', fc.constant('/__mock/faults'), fc.constant('none')),
    write(
      'POST /__mock/faults',
      fc.constant('/__mock/faults'),
      // Besides any mix: a dropped connection or answer, for certain, to the next request or write.
      fc.oneof(
        { weight: 6, arbitrary: faults },
        fc.constantFrom({ drop_rate: 1, count: 1 }, { drop_response_rate: 1, count: 1, method: 'POST' }, { bogus: 1 }),
      ),
    ),
    get('GET /__mock/rate-limit', fc.constant('/__mock/rate-limit'), fc.constant('none')),
    write(
      'POST /__mock/rate-limit',
      fc.constant('/__mock/rate-limit'),
      // Off, or a body refused: a throttle turned on answers by real time, which two doors cannot share
      // (both doors throttle alike over one injected clock: test/mock-rate-limit.test.ts).
      fc.constantFrom(
        { enabled: false },
        { enabled: false, limits: { listings: 5 } },
        { limits: { listings: 0 } },
        { enabled: 'yes' },
        { bogus: 1 },
      ),
    ),
    write(
      'POST /__mock/listings/:number/:action',
      fc
        .tuple(param(f.listings.map(String)), fc.constantFrom('withdraw', 'cancel', 'explode'))
        .map(([n, a]) => `/__mock/listings/${n}/${a}`),
      null,
    ),
    write(
      'POST /__mock/listings',
      fc.constant('/__mock/listings'),
      // Chosen fields, good and bad: a listing added, or the 400 naming the field, alike at both doors.
      fc.record(
        {
          platform_rating: fc.constantFrom('AA', 'A', 'B', 'C', 'D', 'E', 'HR', 'Z'),
          listing_amount: fc.constantFrom(2000, 10000, 35000, 1, 'ten'),
          listing_term: fc.constantFrom(36, 60, 7),
          amount_remaining: fc.constantFrom(0, 2500, -1),
          bogus: fc.constant(1),
        },
        { requiredKeys: [] },
      ),
    ),
    get('GET /__mock', fc.constantFrom('/__mock', '/__mock/'), fc.constant('none')),
    get(
      'GET /__mock/orders',
      fc
        .tuple(paging, fc.constantFrom(undefined, ...f.accounts, 'nobody'))
        .map(([p, account]) => `/__mock/orders${query({ ...p, account_id: account })}`),
      fc.constant('none'),
    ),
    get(
      'GET /__mock/snapshots',
      paging.map((p) => `/__mock/snapshots${query(p)}`),
      fc.constant('none'),
    ),
    write(
      'POST /__mock/snapshots',
      fc.constant('/__mock/snapshots'),
      fc.record({ name: snapshot, replace: fc.constantFrom(true, false, 'yes') }, { requiredKeys: [] }),
    ),
    get(
      'GET /__mock/snapshots/:name',
      snapshot.map((s) => `/__mock/snapshots/${s}`),
      fc.constant('none'),
    ),
    write(
      'DELETE /__mock/snapshots/:name',
      snapshot.map((s) => `/__mock/snapshots/${s}`),
      null,
    ),
    write(
      'POST /__mock/snapshots/:name/load',
      snapshot.map((s) => `/__mock/snapshots/${s}/load`),
      null,
    ),
    get(
      'GET /__mock/requests',
      fc
        .tuple(paging, fc.constantFrom(undefined, '0', '5', 'x'), fc.constantFrom(undefined, 'true', 'nah'))
        .map(([p, since, v]) => `/__mock/requests${query({ ...p, since, violations: v })}`),
      fc.constant('none'),
    ),
    write('DELETE /__mock/requests', fc.constant('/__mock/requests'), null),
    get(
      'GET /__mock/outbox',
      fc
        .tuple(paging, fc.constantFrom(undefined, 'alice@example.com', 'x'), fc.constantFrom(undefined, '{{ORDER}}'))
        .map(([p, to, o]) => `/__mock/outbox${query({ ...p, to, order_id: o })}`),
      fc.constant('none'),
    ),
    write('DELETE /__mock/outbox', fc.constant('/__mock/outbox'), null),
    get(
      'GET /__mock/webhooks',
      fc.constantFrom('/__mock/webhooks', '/__mock/webhooks?state=failed', '/__mock/webhooks?state=lost'),
      fc.constant('none'),
    ),
  ];
}
