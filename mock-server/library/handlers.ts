/**
 * The msw handler of a marketplace (marketplace.ts `handlers`): every request under the base URL a test gives goes to the
 * app, as over HTTP; the admin routes are left out when the test asks.
 */
import { http, type RequestHandler } from 'msw';
import { MOCK_ADMIN_PREFIX } from '../../src/contract/mock-admin.js';
import type { MockApp } from '../app.js';

/** The handler of everything under `baseUrl` (its path must be the marketplace's base path): each request to `app.handle`. */
export function handlersUnder(app: MockApp, basePath: string, baseUrl: string, admin: boolean): RequestHandler[] {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw new TypeError(`handlers: not an absolute URL: ${baseUrl}`);
  }
  if (base.search !== '' || base.hash !== '' || base.username !== '' || base.password !== '')
    throw new TypeError(`handlers: a base URL is an origin and a path, without query, fragment or credentials: ${baseUrl}`);
  const path = base.pathname.replace(/\/+$/, '');
  if (path !== basePath)
    throw new TypeError(
      `handlers: ${baseUrl} has the path '${path}', the marketplace serves under '${basePath}'; create it with { basePath: '${path}' }`,
    );
  const prefix = `${base.origin}${basePath}`;
  // Everything under the base URL, the bare base too; non-capturing groups, so that msw decodes no parameter (a bad
  // percent-escape is answered by the app's 400, as over HTTP, not thrown while msw matches).
  const under = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/.*)?$`);
  const adminPrefix = `${basePath}${MOCK_ADMIN_PREFIX}`;
  return [
    http.all(under, async ({ request }) => {
      if (!admin) {
        const p = new URL(request.url).pathname;
        if (p === adminPrefix || p.startsWith(`${adminPrefix}/`))
          return Response.json({ code: 'NOT_FOUND', message: `No route for ${request.method} ${p}` }, { status: 404 });
      }
      return app.handle(request);
    }),
  ];
}
