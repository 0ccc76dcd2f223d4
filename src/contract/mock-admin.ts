/** Where the bundled mock's admin routes live (reset, state, clock, process, faults, listings/N/ACTION). */

/** The path prefix of every admin route. */
export const MOCK_ADMIN_PREFIX = '/__mock';

/** The header that carries the admin token of a mock bound off loopback, besides `Authorization: Bearer`. */
export const ADMIN_TOKEN_HEADER = 'x-mock-admin-token';

/** The header the dashboard (GET /__mock/) sends on its reads, which the request journal then leaves out (it would fill with the page's polling). */
export const DASHBOARD_HEADER = 'x-mock-dashboard';

/** The URL of admin route `route` (such as `clock` or `listings/12/withdraw`) of the mock at `rootUrl`. */
export function mockAdminUrl(rootUrl: string, route: string): string {
  return `${rootUrl.replace(/\/+$/, '')}${MOCK_ADMIN_PREFIX}/${route.replace(/^\/+/, '')}`;
}
