/**
 * Strict routes: which handlers a normalised path (request-target.ts) reaches. msw alone would match
 * a handler's `*\/v1/loans` after any origin and prefix and without regard to case, so a client with
 * a wrong base URL would pass against the mock and fail against the service. Here a handler's path,
 * with its leading `*` read as "the origin and the base path", must equal the request's path segment
 * by segment, letter case included; a `:name` segment takes any one segment. Among the handlers that
 * matched, the more literal goes first (`/v1/loans/payments` before `/v1/loans/:loanId`, whichever
 * registered first), else their order; the first for the request's method answers (`matchRoute`, its
 * parameters decoded as msw decodes them), and msw resolves only among these. Handlers register as
 * msw's do (`http.get('*\/v1/x', …)` in routes/); each is compiled once, on first sight, so handlers
 * added later route as well.
 */
import { HttpHandler, type RequestHandler } from 'msw';
import { normalisePath } from './request-target.js';

/** One segment of a route: a literal to equal exactly, or a parameter (`{ name }`) that takes any one segment. */
type Segment = string | { readonly name: string };
type Pattern = readonly Segment[];

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
  pattern = path
    .replace(/^\*/, '')
    .split('/')
    .filter((s) => s !== '')
    .map((seg) => {
      if (/^:\w+$/.test(seg)) return { name: seg.slice(1) };
      // A literal as the request's path would read after normalisation, or it could never match.
      const norm = normalisePath(`/${seg}`);
      if (/[*?+()]|^:/.test(seg) || !('path' in norm) || norm.path !== `/${seg}`)
        throw new Error(`mock route ${path}: segment '${seg}' is neither a literal nor ':name'`);
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
    const [pa, pb] = [typeof a[i] !== 'string', typeof b[i] !== 'string'];
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}

/** The handlers whose path equals the normalised `path` under `basePath`, the more literal first, else in their order (see above). */
export function routedHandlers(
  handlers: readonly RequestHandler[],
  path: string,
  basePath: string,
  patterns: RoutePatterns = new Map(),
): RequestHandler[] {
  const inner = underBase(path, basePath);
  if (inner === null) return [];
  const segments = inner.split('/').filter((s) => s !== '');
  const matched = handlers.filter((h) => {
    const pattern = compile(h, patterns);
    return pattern.length === segments.length && pattern.every((p, i) => typeof p !== 'string' || p === segments[i]);
  });
  // Array sort is stable: routes alike keep their order (a test's handler put in front still answers first).
  return matched.length > 1 ? matched.sort((a, b) => moreLiteral(compile(a, patterns), compile(b, patterns))) : matched;
}

/** The methods the handlers answer on the normalised `path` (HEAD wherever GET is), sorted. */
export function routeMethods(
  handlers: readonly RequestHandler[],
  path: string,
  basePath: string,
  patterns: RoutePatterns = new Map(),
): string[] {
  const methods = new Set<string>();
  for (const h of routedHandlers(handlers, path, basePath, patterns)) {
    const method = (h as HttpHandler).info.method;
    if (typeof method === 'string') methods.add(method.toUpperCase());
  }
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/** The handler that answers `method` (HEAD as GET) on the normalised `path`, with its parameters; null when none does. */
export interface RouteMatch {
  readonly handler: RequestHandler;
  /** Each `:name` segment's value, percent-decoded as msw decodes it (a URIError for a malformed escape). */
  params(): Record<string, string>;
}

/**
 * The first handler for `method` (HEAD as GET) among those whose path equals the normalised `path`
 * (routedHandlers' order), with its parameters read from the path; null when none answers that method.
 */
export function matchRoute(
  handlers: readonly RequestHandler[],
  method: string,
  path: string,
  basePath: string,
  patterns: RoutePatterns = new Map(),
): RouteMatch | null {
  const wanted = method === 'HEAD' ? 'GET' : method;
  const handler = routedHandlers(handlers, path, basePath, patterns).find((h) => {
    const m = (h as HttpHandler).info.method;
    return typeof m === 'string' && m.toUpperCase() === wanted;
  });
  if (!handler) return null;
  const pattern = compile(handler, patterns);
  // Most routes have no parameter: their path is not split again for each request (a new object still, the route's own).
  if (pattern.every((p) => typeof p === 'string')) return { handler, params: () => ({}) };
  return {
    handler,
    params() {
      const segments = (underBase(path, basePath) ?? '').split('/').filter((s) => s !== '');
      const params: Record<string, string> = {};
      pattern.forEach((p, i) => {
        if (typeof p !== 'string') params[p.name] = decodeURIComponent(segments[i]!);
      });
      return params;
    },
  };
}
