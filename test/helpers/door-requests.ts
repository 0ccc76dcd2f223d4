/**
 * Generated requests for every route the mock serves (test/mock-doors.test.ts): valid and hostile
 * parts, each request tagged with the route it is for, so the test can check that every route of the
 * app has a generator here. Secrets are placeholders (`{{...}}`, `auth`) each door fills with its own.
 */
import fc from 'fast-check';
import {
  auth,
  get,
  jsonBody,
  paging,
  param,
  query,
  spelled,
  spelling,
  writeMethod,
  type DoorRequest,
  type RouteArb,
  type WorldFacts,
} from './door-request-parts.js';
import { adminRoutes, oauthRoutes } from './door-requests-admin.js';

export type { Auth, DoorRequest, WorldFacts } from './door-request-parts.js';

/** The API's own routes (tokens in a bearer header). */
function apiRoutes(f: WorldFacts): RouteArb[] {
  const listing = fc.constantFrom(...f.listings);
  const order = param(['{{ORDER}}', '{{ORDER}}', '00000000-0000-4000-8000-000000000000']);
  const bid = fc.record({
    listing_id: fc.oneof({ weight: 8, arbitrary: listing }, fc.constantFrom(1, -5)),
    bid_amount: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(25, 50, 75) }, fc.constantFrom(25.5, 0, 10, 1e9)),
  });
  const orderBody = fc.oneof(
    { weight: 4, arbitrary: fc.record({ bid_requests: fc.array(bid, { minLength: 1, maxLength: 3 }) }) },
    fc.constant({ bid_requests: [] }),
    fc.constant({}),
  );
  const goodListings = fc
    .record(
      {
        limit: fc.constantFrom('3', '25'),
        sort_by: fc.constantFrom('lender_yield desc', 'listing_number'),
        prosper_rating: fc.constantFrom('A,B', 'AA'),
        biddable: fc.constantFrom('true', 'false'),
      },
      { requiredKeys: [] },
    )
    .map(query);
  const hostileListings = fc
    .record(
      {
        limit: fc.constantFrom('3', '25', '0', 'x'),
        offset: fc.constantFrom('0', '2', '-1'),
        sort_by: fc.constantFrom('lender_yield desc', 'listing_number', 'nope'),
        prosper_rating: fc.constantFrom('A,B', 'AA', 'Z'),
        lender_yield_min: fc.constantFrom('0.1', 'abc'),
        biddable: fc.constantFrom('true', 'false', 'maybe'),
        invested: fc.constantFrom('true', 'false'),
        listing_number: listing.map(String),
        unknown_filter: fc.constant('1'),
      },
      { requiredKeys: [] },
    )
    .map(query);
  return [
    get(
      'GET /listingsvc/v2/listings',
      fc
        .tuple(spelling, fc.oneof({ weight: 3, arbitrary: goodListings }, hostileListings))
        .map(([s, q]) => spelled('/listingsvc/v2/listings', s) + q),
    ),
    [
      'POST /v1/orders',
      fc
        .record({ method: writeMethod, s: spelling, auth, body: jsonBody(orderBody) })
        .map(({ method, s, auth: a, body }) => ({ route: 'POST /v1/orders', method, target: spelled('/v1/orders', s), auth: a, ...body })),
    ],
    get(
      'GET /v1/orders',
      paging.map((p) => `/v1/orders${query(p)}`),
    ),
    get(
      'GET /v1/orders/:orderId',
      order.map((o) => `/v1/orders/${o}`),
    ),
    get(
      'GET /v1/orders/:orderId/listings',
      fc
        .tuple(order, paging, fc.constantFrom(undefined, 'PENDING', 'nope'), fc.constantFrom(undefined, 'listing_number', 'x desc'))
        .map(([o, p, status, sort]) => `/v1/orders/${o}/listings${query({ ...p, status, sort_by: sort })}`),
    ),
    get(
      'GET /v1/loans/payments',
      fc
        .tuple(fc.subarray(f.loans, { maxLength: 2 }), fc.constantFrom(undefined, '2025-12-01', '2025-13-40'), paging)
        .map(([loans, date, p]) => {
          const q = new URLSearchParams(query({ ...p, transaction_effective_date: date }));
          for (const l of loans) q.append('loan_number', String(l));
          if (loans.length === 0) q.append('loan_number', 'abc');
          return `/v1/loans/payments?${q}`;
        }),
    ),
    get(
      'GET /v1/loans',
      fc
        .tuple(paging, fc.constantFrom(undefined, 'origination_date', 'loan_number desc', 'bad'))
        .map(([p, sort]) => `/v1/loans${query({ ...p, sort_by: sort })}`),
    ),
    get(
      'GET /v1/loans/:loanId',
      param(f.loans.map(String)).map((l) => `/v1/loans/${l}`),
    ),
    get(
      'GET /v1/notes',
      fc
        .tuple(paging, fc.constantFrom(undefined, 'origination_date', 'bad'))
        .map(([p, sort]) => `/v1/notes${query({ ...p, sort_by: sort })}`),
    ),
    get(
      'GET /v1/notes/:noteId',
      param(f.notes).map((n) => `/v1/notes/${n}`),
    ),
    get('GET /v1/accounts/platform', fc.constantFrom('/v1/accounts/platform', '/v1/accounts/platform?x=1', '/v1/accounts/PLATFORM')),
    get('GET /openapi.json', fc.constantFrom('/openapi.json', '/openapi.json?v=2')),
    [
      'POST /v1/marketplace/application/offers',
      fc
        .record({
          auth,
          body: jsonBody(
            fc.record({
              identification: fc.record({ partner_source_code: fc.constantFrom('PARTNER-DEMO', 'PARTNER-EXPIRED', 'NOPE') }),
              loan_info: fc.record({ loan_purpose_id: fc.constantFrom(1, 99), loan_amount: fc.constantFrom(10000, 5, 'x') }),
              personal_info: fc.constant({ first_name: 'Pat', last_name: 'Quinn', date_of_birth: '02/03/1990', ssn: '123456789' }),
              address_info: fc.constant({ street: '12 Elm Street', city: 'Austin', state: 'TX', zip_code: '73301' }),
              employment_info: fc.constant({ employment_status_id: 7, annual_income: 85000 }),
            }),
          ),
        })
        .map(({ auth: a, body }) => ({
          route: 'POST /v1/marketplace/application/offers',
          method: 'POST',
          target: '/v1/marketplace/application/offers',
          auth: a,
          ...body,
        })),
    ],
    get(
      'GET /apply/offers/:code',
      param(['{{REFERRAL}}']).map((c) => `/apply/offers/${c}`),
      fc.constant('none'),
    ),
    get(
      'GET /apply/offers/:code/:offerId',
      fc.tuple(param(['{{REFERRAL}}']), fc.constantFrom('1', '2', '999', '%zz')).map(([c, o]) => `/apply/offers/${c}/${o}`),
      fc.constant('none'),
    ),
  ];
}

/** Paths no route serves, and methods no route takes (known to node's HTTP parser: see the test). */
const unrouted: fc.Arbitrary<DoorRequest> = fc
  .record({
    method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'),
    target: fc.constantFrom(
      '/',
      '/v2/nothing',
      '/v1/orders/a/b/c',
      '/%zz',
      '/v1/%E0%A4%A',
      '/__mock/nothing',
      '/v1//orders',
      '/v1/./loans',
      '/v1/loans/..%2f..%2f__mock',
      '/?q=%zz',
      '/v1/notes/%00',
    ),
    auth,
  })
  .map((r) => ({ route: 'unrouted', headers: {}, ...r }));

/** How often a route is drawn besides its one request a run: what changes the world and what reads it most, more often. */
export const ROUTE_WEIGHTS: Readonly<Record<string, number>> = {
  'POST /v1/orders': 8,
  'GET /listingsvc/v2/listings': 4,
  'GET /v1/orders/:orderId': 3,
  'GET /v1/orders/:orderId/listings': 2,
  'GET /v1/accounts/platform': 2,
  'GET /v1/notes': 2,
  'POST /__mock/clock': 4,
  'POST /__mock/faults': 3,
  'POST /oauth': 3,
  'POST /v1/security/oauth/token': 4,
  'GET /__mock/requests': 2,
  'GET /__mock/outbox': 2,
  unrouted: 2,
};

/** Every route's generator, by route ('METHOD /path' as the app's handlers name it). */
export function routeArbitraries(facts: WorldFacts): Map<string, fc.Arbitrary<DoorRequest>> {
  return new Map([...apiRoutes(facts), ...oauthRoutes(facts), ...adminRoutes(facts), ['unrouted', unrouted]]);
}
