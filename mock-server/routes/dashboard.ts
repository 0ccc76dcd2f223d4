/**
 * GET /__mock/ (and /__mock, the same normalised path): the admin dashboard, an HTML page sent with every
 * panel filled in from what the admin routes it reads (state, clock, orders, faults, requests, outbox,
 * webhooks, snapshots) answer at that moment, whose script then keeps them up to date from those routes
 * and moves the clock. And GET /__mock/orders: every account's orders, newest first, as the orders panel
 * shows them (the API answers an order to its owner only). Who may call either is who may call the other
 * admin routes (http/admin-access.ts decides before any route).
 */
import { MOCK_ORDERS_PAGE, type MockOrder } from '../../src/contract/openapi/admin-orders.js';
import { MOCK_ADMIN_PREFIX } from '../../src/contract/mock-admin.js';
import { SNAPSHOT_PAGE } from '../../src/contract/mock-snapshots.js';
import type { MockContext } from '../context.js';
import { DASHBOARD_ARGS, DASHBOARD_CSP, dashboardHtml } from '../dashboard/page.js';
import type { DashboardReads } from '../dashboard/panels.js';
import type { RequestLog } from '../request-log/request-log.js';
import { orderView } from '../views/views.js';
import type { Webhooks } from '../webhooks/deliveries.js';
import type { Order, World } from '../world/world.js';
import { clockState, stateSummary } from './admin.js';
import { messageView } from './inspect.js';
import { snapshotView } from './snapshots.js';
import { http, listEnvelope, paged, route } from '../route-helper/route.js';

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': DASHBOARD_CSP,
  'cache-control': 'no-store',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** A failure of the page's own route (a bug: nothing a caller sends can fail it) as a page, not JSON. */
function errorPage(): Response {
  return new Response('<!doctype html><title>mkt mock</title><h1>Application Error</h1>\n', { status: 500, headers: HEADERS });
}

/** Every order of `world` (of `accountId` only, when given), newest first; orders of the same time, the last placed first. */
export function ordersNewestFirst(world: World, accountId?: string): Order[] {
  const all = [...world.orders.values()].filter((o) => accountId === undefined || o.accountId === accountId).reverse();
  return all.sort((a, b) => b.order_date - a.order_date);
}

/** An order as GET /__mock/orders answers it: as its owner reads it, with the owner's account. */
function mockOrderView(world: World, o: Order, zone: string | undefined): MockOrder {
  return { account_id: o.accountId, ...orderView(world, o, zone) } as MockOrder;
}

/** What `read` gives, or undefined when it throws: one panel's failure leaves that panel to the script, whose read names it. */
function orNothing<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/**
 * What each admin route the page reads would answer the page's own reads now (their limits: DASHBOARD_ARGS):
 * the same views, so the page as sent and the page after its first reads show the same. A read that fails
 * (a snapshot folder that cannot be listed) leaves its panel empty, the others filled: the page is still
 * sent, and the script's read of that route says what is wrong. The request log's entries are kept with
 * their secrets already removed (http/redact.ts); the state's users and passwords are read here but no
 * panel shows them.
 */
async function readsNow(ctx: MockContext, requestLog: RequestLog, webhooks: Webhooks | null): Promise<Partial<DashboardReads>> {
  // The one wait first: everything after it is read from one world, at one time.
  const snapshots = await ctx.snapshots.list().then(
    (list) => list.map(snapshotView),
    () => undefined,
  );
  const rows = DASHBOARD_ARGS.rows;
  const world = ctx.world;
  return {
    clock: orNothing(() => clockState(ctx) as DashboardReads['clock']),
    state: orNothing(() => stateSummary(ctx) as DashboardReads['state']),
    orders: orNothing(
      () =>
        paged(ordersNewestFirst(world), { offset: 0, limit: rows.orders }, (o) =>
          mockOrderView(world, o, undefined),
        ) as DashboardReads['orders'],
    ),
    faults: orNothing(() => ctx.faults.get() as DashboardReads['faults']),
    requests: orNothing(() => {
      const logged = requestLog.list(rows.requests);
      return listEnvelope(logged.result, logged.total) as DashboardReads['requests'];
    }),
    outbox: orNothing(() => {
      const newest = world.outbox.messages.slice(-rows.outbox).reverse().map(messageView);
      return listEnvelope(newest, world.outbox.messages.length) as DashboardReads['outbox'];
    }),
    webhooks: orNothing(
      () =>
        ({
          ...paged(webhooks?.list() ?? [], { offset: 0, limit: rows.webhooks }),
          counts: webhooks?.counts() ?? { pending: 0, delivered: 0, failed: 0, dropped: 0 },
        }) as DashboardReads['webhooks'],
    ),
    snapshots: snapshots && (listEnvelope(snapshots.slice(0, SNAPSHOT_PAGE.default), snapshots.length) as DashboardReads['snapshots']),
  };
}

/** The dashboard's handlers over `ctx`, the app's request log and its webhook deliveries (null without --webhook). */
export function dashboardHandlers(ctx: MockContext, requestLog: RequestLog, webhooks: Webhooks | null) {
  const adminPrefix = `${ctx.options.basePath ?? ''}${MOCK_ADMIN_PREFIX}`;
  return [
    http.get(
      `*${MOCK_ADMIN_PREFIX}`,
      route(ctx, async () => new Response(dashboardHtml(adminPrefix, await readsNow(ctx, requestLog, webhooks)), { headers: HEADERS }), {
        browser: errorPage,
        // The page shows the world at the clock, as GET /__mock/state does.
        sync: true,
      }),
    ),
    http.get(
      '*/__mock/orders',
      route(
        ctx,
        ({ url, page, zone }) => {
          const account = url.searchParams.get('account_id')?.trim();
          return paged(ordersNewestFirst(ctx.world, account || undefined), page(), (o) => mockOrderView(ctx.world, o, zone));
        },
        { list: MOCK_ORDERS_PAGE, sync: true },
      ),
    ),
  ];
}
