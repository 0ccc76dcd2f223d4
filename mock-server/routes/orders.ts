/**
 * Orders: POST {base_url}/orders/ (validated all-or-nothing, first ORD error wins), GET one order,
 * the caller's orders, and the listings within an order. Order errors answer {"code","message"}.
 */
import { BID_STATUSES, ORDER_LISTING_SORT_FIELDS, PAGINATION } from '../../src/contract/enums.js';
import { validationError } from '../kit/api-error.js';
import type { MockContext } from '../context.js';
import { orderError } from '../engine/validate-order.js';
import { createdOrderView, orderListingView, orderView } from '../views/views.js';
import { parseSortBy, sortBy } from '../search/query-params.js';
import { ordersOf } from '../world/world-index.js';
import type { Order } from '../world/world.js';
import { authedRoute, http, paged, type Route } from '../route-helper/route.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const READ_SCOPES = ['read_invest_order', 'write_invest_order'] as const;

/** The caller's order `id`: ORD0002 when it is not a UUID, ORD0001 when unknown or someone else's. */
function findOrder(ctx: MockContext, accountId: string, id: string): Order {
  if (!UUID_RE.test(id)) throw orderError('ORD0002', `'${id}' is not an order id.`);
  const order = ctx.world.orders.get(id.toLowerCase());
  if (!order || order.accountId !== accountId) throw orderError('ORD0001', `No order ${id}.`);
  return order;
}

/** The orders path, normalised (request-target.ts). */
export const ORDERS_PATH = '/v1/orders';

/**
 * Submitting an order (it reads only the head and the body's text). The operation syncs the world
 * itself (operations/perform.ts), so the route does not before it.
 */
export function orderSubmit(ctx: MockContext): Route {
  return authedRoute(
    ctx,
    'write_invest_order',
    async ({ caller, request, zone }) => {
      const order = ctx.perform({
        kind: 'order',
        account: caller.accountId,
        body: await request.text(),
        delayMs: ctx.engine.processDelayMs,
      });
      return createdOrderView(ctx.world, order, zone);
    },
    { json: true, sync: false },
  );
}

/** The orders handlers. */
export function ordersHandlers(ctx: MockContext) {
  return [
    http.post(`*${ORDERS_PATH}`, orderSubmit(ctx)),
    // Only the page asked for is viewed.
    http.get(
      '*/v1/orders',
      authedRoute(
        ctx,
        READ_SCOPES,
        ({ caller, zone, page }) => paged(ordersOf(ctx.world, caller.accountId), page(), (o) => orderView(ctx.world, o, zone)),
        { list: PAGINATION.orders },
      ),
    ),
    http.get(
      '*/v1/orders/:orderId',
      authedRoute(ctx, READ_SCOPES, ({ caller, params, zone }) =>
        orderView(ctx.world, findOrder(ctx, caller.accountId, String(params.orderId)), zone),
      ),
    ),
    http.get(
      '*/v1/orders/:orderId/listings',
      authedRoute(
        ctx,
        READ_SCOPES,
        ({ caller, url, params, zone, page }) => {
          const order = findOrder(ctx, caller.accountId, String(params.orderId));
          page(); // paging is checked after the order, before sorting and the status
          const sort = parseSortBy(url.searchParams.get('sort_by'), ORDER_LISTING_SORT_FIELDS, [{ field: 'listing_number', desc: true }]);
          const status = url.searchParams.get('status');
          if (status !== null && !(BID_STATUSES as readonly string[]).includes(status.trim().toUpperCase())) {
            throw validationError('status', `must be one of ${BID_STATUSES.join(', ')}, got '${status}'`);
          }
          let items = order.bids.map((b) => orderListingView(ctx.world, order, b, zone));
          if (status !== null) items = items.filter((i) => i.status === status.trim().toUpperCase());
          return sortBy(items, sort, (i, f) => (f === 'listing_number' ? Number(i[f]) : i[f]));
        },
        { list: PAGINATION.orderListings },
      ),
    ),
  ];
}
