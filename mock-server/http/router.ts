/**
 * Strict routes: which handlers a normalised path (request-target.ts) reaches. msw alone would match
 * a handler's `*\/v1/loans` after any origin and prefix and without regard to case, so a client with
 * a wrong base URL would pass against the mock and fail against the service. Here a handler's path,
 * with its leading `*` read as "the origin and the base path", must equal the request's path segment
 * by segment, letter case included; a `:name` segment takes any one segment. msw then resolves among
 * the handlers that matched, and only those, the more literal first (`/v1/loans/payments` before
 * `/v1/loans/:loanId`, whichever registered first), else in their order. Handlers register as before (`http.get('*\/v1/x', …)` in
 * routes/); each is compiled once, on first sight, so handlers added later route as well.
 */
import { HttpHandler, type RequestHandler } from 'msw';
import { normalisePath } from './request-target.js';

/** One segment of a route: a literal to equal exactly, or a parameter (null) that takes any one segment. */
type Pattern = readonly (string | null)[];

/** Each handler's path as segments, compiled once: an app keeps its own for its lifetime (app.ts). */
export type RoutePatterns = Map<RequestHandler, Pattern>;

/** A handler's path as segments; throws for a path the router cannot hold to the strict rule. */
function compile(handler: RequestHandler, compiled: RoutePatterns): Pattern {
  let pattern = compiled.get(handler);
  if (pattern) return pattern;
  const path = handler instanceof HttpHandler ? handler.info.path : undefined;
  if (typeof path !== 'string' || !/^\*?\//.test(path)) {
    throw new Error(`mock route ${String(path)}: write a route as '*/path' or '/path' (the router matches it exactly under the base path)`);
  }
  pattern = path.replace(/^\*/, '').split('/').filter((s) => s !== '').map((seg) => {
    if (/^:\w+$/.test(seg)) return null;
    // A literal as the request's path would read after normalisation, or it could never match.
    const norm = normalisePath(`/${seg}`);
    if (/[*?+()]|^:/.test(seg) || !('path' in norm) || norm.path !== `/${seg}`) throw new Error(`mock route ${path}: segment '${seg}' is neither a literal nor ':name'`);
    return seg;
  });
  compiled.set(handler, pattern);
  return pattern;
}

/** Compiles every handler's route now, so a route the router cannot hold fails the mock's start, not its first request. */
export function checkRoutes(handlers: readonly RequestHandler[], patterns: RoutePatterns = new Map()): void {
  for (const h of handlers) compile(h, patterns);
}

/** `path` below `basePath` (`/` for the base itself), or null when it is not under it. */
export function underBase(path: string, basePath: string): string | null {
  if (basePath === '') return path;
  if (path === basePath) return '/';
  return path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : null;
}

/** Which of two matching routes goes first: the one with a literal where the other has its first parameter (0: neither). */
function moreLiteral(a: Pattern, b: Pattern): number {
  for (let i = 0; i < a.length; i++) {
    if ((a[i] === null) !== (b[i] === null)) return a[i] === null ? 1 : -1;
  }
  return 0;
}

/** The handlers whose path equals the normalised `path` under `basePath`, the more literal first, else in their order (see above). */
export function routedHandlers(handlers: readonly RequestHandler[], path: string, basePath: string, patterns: RoutePatterns = new Map()): RequestHandler[] {
  const inner = underBase(path, basePath);
  if (inner === null) return [];
  const segments = inner.split('/').filter((s) => s !== '');
  const matched = handlers.filter((h) => {
    const pattern = compile(h, patterns);
    return pattern.length === segments.length && pattern.every((p, i) => p === null || p === segments[i]);
  });
  // Array sort is stable: routes alike keep their order (a test's handler put in front still answers first).
  return matched.length > 1 ? matched.sort((a, b) => moreLiteral(compile(a, patterns), compile(b, patterns))) : matched;
}

/** The methods the handlers answer on the normalised `path` (HEAD wherever GET is), sorted. */
export function routeMethods(handlers: readonly RequestHandler[], path: string, basePath: string, patterns: RoutePatterns = new Map()): string[] {
  const methods = new Set<string>();
  for (const h of routedHandlers(handlers, path, basePath, patterns)) {
    const method = (h as HttpHandler).info.method;
    if (typeof method === 'string') methods.add(method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}
