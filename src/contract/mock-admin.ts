/** Where the bundled mock's admin routes live (reset, state, clock, process, faults, listings/N/ACTION). */

/** The path prefix of every admin route. */
export const MOCK_ADMIN_PREFIX = '/__mock';

/** The URL of admin route `route` (such as `clock` or `listings/12/withdraw`) of the mock at `rootUrl`. */
export function mockAdminUrl(rootUrl: string, route: string): string {
  return `${rootUrl.replace(/\/+$/, '')}${MOCK_ADMIN_PREFIX}/${route.replace(/^\/+/, '')}`;
}
