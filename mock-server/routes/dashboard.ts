/**
 * GET /__mock/ (and /__mock, the same normalised path): the admin dashboard, an HTML page that reads
 * the admin JSON routes (state, clock, faults, requests, outbox, snapshots) and moves the clock. Who
 * may load it is who may call the other admin routes (http/admin-access.ts decides before any route).
 */
import { MOCK_ADMIN_PREFIX } from '../../src/contract/mock-admin.js';
import type { MockContext } from '../context.js';
import { DASHBOARD_CSP, dashboardHtml } from '../dashboard/page.js';
import { http, route } from '../route-helper/route.js';

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

/** The dashboard handler; the page is built once per mock (it depends on the base path only). */
export function dashboardHandlers(ctx: MockContext) {
  const page = dashboardHtml(`${ctx.options.basePath ?? ''}${MOCK_ADMIN_PREFIX}`);
  return [
    http.get(
      `*${MOCK_ADMIN_PREFIX}`,
      route(ctx, () => new Response(page, { headers: HEADERS }), { browser: errorPage }),
    ),
  ];
}
