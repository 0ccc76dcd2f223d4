/**
 * The parts of the generated requests of test/mock-doors.test.ts (door-requests.ts, door-requests-admin.ts):
 * what a request is, and the valid and hostile pieces every route's generator draws from.
 */
import fc from 'fast-check';

/** Who a request is sent as: a door's own token of that kind, a bad one, or none. */
export type Auth = 'alice' | 'bob' | 'reader' | 'hour' | 'junk' | 'basic' | 'none';

/** One request, as both doors are sent it. */
export interface DoorRequest {
  /** The route it is for ('GET /v1/orders/:orderId', as the app's handler has it without the leading `*`), or 'unrouted'. */
  route: string;
  method: string;
  /** Path and query under the base URL; may hold placeholders. */
  target: string;
  auth: Auth;
  headers: Record<string, string>;
  body?: string;
}

/** What the generators draw ids from (read from the world once: both doors have the same one). */
export interface WorldFacts {
  listings: number[];
  accounts: string[];
  loans: number[];
  notes: string[];
}

export const JSON_TYPE = { 'content-type': 'application/json' };
export const FORM_TYPE = { 'content-type': 'application/x-www-form-urlencoded' };

export const auth = fc.oneof(
  { weight: 10, arbitrary: fc.constant<Auth>('alice') },
  fc.constantFrom<Auth>('bob', 'bob', 'reader', 'hour', 'junk', 'basic', 'none'),
);
/** Paging, good and bad. */
export const paging = fc.oneof(
  { weight: 4, arbitrary: fc.record({ limit: fc.constantFrom('1', '5', '25'), offset: fc.constantFrom('0', '3') }, { requiredKeys: [] }) },
  fc.record({ limit: fc.constantFrom('0', '-1', '1001', 'x', ''), offset: fc.constantFrom('-2', 'abc', '99999') }, { requiredKeys: [] }),
);
/** A path parameter: a good one, an unknown one, or a bad percent-escape. */
export const param = (good: readonly string[]) =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...good) },
    fc.constantFrom('0', 'nope', '%zz', '%E0%A4%A', '%C3%28', 'a%20b', '%2e%2e'),
  );
/** A query string of these pairs. */
export const query = (pairs: Record<string, string | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(pairs)) if (v !== undefined) q.set(k, v);
  const s = q.toString();
  return s === '' ? '' : `?${s}`;
};
/** A GET route's method: mostly GET, sometimes HEAD, sometimes one it does not allow (405). */
export const readMethod = fc.oneof(
  { weight: 12, arbitrary: fc.constant('GET') },
  fc.constantFrom('HEAD', 'HEAD', 'PUT', 'PATCH', 'OPTIONS'),
);
/** A write route's method: mostly POST, sometimes one it does not allow. */
export const writeMethod = fc.oneof({ weight: 12, arbitrary: fc.constant('POST') }, fc.constantFrom('PUT', 'GET'));
/** A trailing slash or not (the router takes both), or a path in capitals (which no route serves). */
export const spelling = fc.oneof(
  { weight: 8, arbitrary: fc.constant('plain' as const) },
  fc.constantFrom('slash' as const, 'upper' as const),
);
export const spelled = (path: string, s: 'plain' | 'slash' | 'upper') =>
  s === 'slash' ? `${path}/` : s === 'upper' ? path.toUpperCase() : path;

/** A JSON body, or junk: truncated JSON, not an object, nothing, and a wrong content type sometimes. */
export function jsonBody(valid: fc.Arbitrary<unknown>) {
  return fc
    .tuple(
      fc.oneof(
        { weight: 4, arbitrary: valid.map((v) => JSON.stringify(v)) },
        fc.constantFrom('', '{', '[]', 'null', '"text"', '{"a":', '\uFEFF{}', '{"bid_requests":"x"}'),
      ),
      fc.oneof(
        { weight: 8, arbitrary: fc.constant(JSON_TYPE) },
        fc.constantFrom<Record<string, string>>(
          { 'content-type': 'application/json; charset=utf-8' },
          { 'content-type': 'text/plain' },
          {},
        ),
      ),
    )
    .map(([body, headers]) => ({ body, headers }));
}

/** A route with its generator. */
export type RouteArb = [route: string, arb: fc.Arbitrary<DoorRequest>];

/** A GET route's generator: mostly GET, as `who`. */
export function get(route: string, target: fc.Arbitrary<string>, who: fc.Arbitrary<Auth> = auth): RouteArb {
  return [route, fc.record({ method: readMethod, target, auth: who }).map((r) => ({ route, headers: {}, ...r }))];
}
