/**
 * A fixed walk of requests for the browser door (issue 40 item 4: "the browser for a fixed walk"): run in a
 * page through msw's setupWorker and in Node through the marketplace's own `handle` (the door the HTTP and
 * msw ones answer as: test/mock-doors.test.ts), the same steps give the same status, headers and bytes.
 * No step answers a secret (no token endpoint), so the two worlds' random tokens never show.
 */

/** One step: a method, a path under the API's root, a JSON body; order ids taken from an earlier step's answer. */
export interface WalkStep {
  method: string;
  path: string;
  json?: unknown;
}

/** What a step answered, as compared. */
export interface WalkAnswer {
  status: number;
  type: string | null;
  date: string | null;
  body: string;
}

/** The options both worlds are built with. */
export const WALK_WORLD = { seed: 5, listings: 200 } as const;

/** The steps; `{order}` is the id the first accepted order answered. */
export const WALK: readonly WalkStep[] = [
  { method: 'GET', path: '/listingsvc/v2/listings/?limit=25&sort_by=lender_yield%20desc' },
  { method: 'GET', path: '/listingsvc/v2/listings/?limit=5&platform_rating=A,B&amount_remaining_min=25' },
  { method: 'GET', path: '/listingsvc/v2/listings/?limit=nope' },
  { method: 'HEAD', path: '/listingsvc/v2/listings/?limit=3' },
  { method: 'GET', path: '/v1/accounts/platform' },
  { method: 'POST', path: '/v1/orders/', json: { bid_requests: [] } },
  { method: 'POST', path: '/v1/orders/', json: { bid_requests: [{ listing_id: '{listing}', bid_amount: 25 }] } },
  { method: 'GET', path: '/v1/orders/{order}' },
  { method: 'POST', path: '/__mock/clock', json: { advance: '10m' } },
  { method: 'GET', path: '/v1/orders/{order}' },
  { method: 'GET', path: '/v1/orders/?limit=5' },
  { method: 'GET', path: '/v1/notes/?limit=5' },
  { method: 'GET', path: '/v1/loans/?limit=3' },
  { method: 'GET', path: '/v1/loans/payments/?limit=3' },
  { method: 'DELETE', path: '/v1/notes/' },
  { method: 'GET', path: '/v1/nothing/here' },
  { method: 'GET', path: '/__mock/state' },
];

/** Runs the walk with `send` (a fetch through the door), the bearer `token`; the answers in order. */
export async function runWalk(send: (request: Request) => Promise<Response>, api: string, token: string): Promise<WalkAnswer[]> {
  const answers: WalkAnswer[] = [];
  let order = '';
  let listing = 0;
  for (const step of WALK) {
    const path = step.path.replace('{order}', order);
    const json = step.json === undefined ? undefined : JSON.stringify(step.json).replace('"{listing}"', String(listing));
    const headers: Record<string, string> = { authorization: `bearer ${token}`, accept: 'application/json' };
    if (json !== undefined) headers['content-type'] = 'application/json';
    const response = await send(
      new Request(`${api}${path}`, { method: step.method, headers, ...(json === undefined ? {} : { body: json }) }),
    );
    const body = await response.text();
    answers.push({ status: response.status, type: response.headers.get('content-type'), date: response.headers.get('date'), body });
    if (step.path.startsWith('/listingsvc/v2/listings/?limit=5') && response.status === 200)
      listing = (JSON.parse(body) as { result: { listing_number: number }[] }).result[0]!.listing_number;
    if (step.method === 'POST' && step.path === '/v1/orders/' && response.status === 200)
      order = (JSON.parse(body) as { order_id: string }).order_id;
  }
  return answers;
}
