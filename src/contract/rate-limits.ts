/**
 * The marketplace's request rate limits, shared by the mock (which throttles as the service does) and `mkt`
 * (which paces itself under them). The spec says "request rate limits: not shown"; the evidence is the
 * public bot cwalsh525/liveLongAndProsperBot (README and its run log of Dec 2020): 20 requests a second on
 * listings, throttling seen near 4 a second, and the throttled answer's body below. The other groups'
 * limits are our choice, stated in docs/fidelity.md.
 */

/** The endpoint groups a limit applies to, each counted per client token. */
export type RateGroup = 'listings' | 'orders' | 'account' | 'oauth';

/** Requests a second each group takes per token (a sliding window of one second). */
export const RATE_LIMITS: Readonly<Record<RateGroup, number>> = {
  listings: 20, // the evidence
  orders: 10, // our choice: POST and GET /orders
  account: 20, // our choice: accounts, notes, loans, payments, offers
  oauth: 10, // our choice: the token endpoint (counted per client id, there being no token yet)
};

/** The group of a request path below the base path (`/listingsvc/v2/listings/`, `/v1/orders/…`), or null (not limited: admin, consent page, documents). */
export function rateGroupOf(path: string): RateGroup | null {
  if (path.startsWith('/__mock') || path === '/openapi.json' || path.startsWith('/oauth')) return null;
  if (path.startsWith('/listingsvc/')) return 'listings';
  if (path.startsWith('/v1/orders')) return 'orders';
  if (path.startsWith('/v1/security/oauth/token')) return 'oauth';
  if (path.startsWith('/v1/')) return 'account';
  return null;
}

/** The throttled answer's body as the service sends it (the bot's log): an `errors` array, not `{code, message}`. */
export function throttledBody(now: Date): { timestamp: string; errors: { code: string; message: string }[] } {
  return {
    timestamp: now.toISOString(),
    errors: [{ code: 'too_many_requests', message: 'The request limit has been exceeded - you are temporarily throttled' }],
  };
}
