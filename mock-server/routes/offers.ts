/**
 * POST {base_url}/marketplace/application/offers/ (bearer header plus a partner code in the body)
 * and the browser pages behind offers_url and offer_url (no credentials: they are links for people).
 */
import type { MockContext } from '../context.js';
import { offersBadRequest } from '../offers/assess.js';
import { OFFER_PAGES_PATH } from '../offers/book.js';
import { notFoundPage, offerPage, offersPage } from '../offers/pages.js';
import { authedRoute, http, route, type RequestHead } from '../route-helper/route.js';

/** Reads the body as JSON, or a 400 that says where it broke. */
async function readJson(request: RequestHead): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') throw offersBadRequest('request body: empty; send the offer request as JSON');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw offersBadRequest(`request body: not valid JSON (${(err as Error).message})`);
  }
}

/** The offers handlers. */
export function offersHandlers(ctx: MockContext) {
  return [
    // Any live token will do (the partner code in the body is what is checked); offers never read the market, so no sync.
    http.post(
      '*/v1/marketplace/application/offers',
      authedRoute(ctx, [], async ({ request, root }) => ctx.perform({ kind: 'offers', body: await readJson(request), origin: root }), {
        json: true,
        sync: false,
      }),
    ),
    http.get(
      `*${OFFER_PAGES_PATH}/:code`,
      route(ctx, ({ params }) => {
        const record = ctx.world.offerRecords.get(String(params.code));
        return record ? offersPage(record) : notFoundPage(`Referral code ${String(params.code)}`);
      }),
    ),
    http.get(
      `*${OFFER_PAGES_PATH}/:code/:offerId`,
      route(ctx, ({ params }) => {
        const record = ctx.world.offerRecords.get(String(params.code));
        const offer = record?.offers.find((o) => String(o.id) === params.offerId);
        return record && offer ? offerPage(record, offer) : notFoundPage(`Offer ${String(params.offerId)} of ${String(params.code)}`);
      }),
    ),
  ];
}
