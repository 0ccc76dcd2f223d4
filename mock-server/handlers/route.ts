/**
 * The one way a request goes through the mock. `route` wraps a handler's own rule with everything
 * routes share, in this order: the body's content type (JSON routes), the `timezone` header,
 * authentication and scope (`authedRoute`), bringing the world up to the clock, the list envelope with paging, and
 * the answer to an error (ApiError as the API's JSON, a bug as 500 SYS0001, never an unhandled
 * rejection). It is also the one place a change of state is marked: a route that writes (any method
 * but GET, unless told) has its change made durable before its answer goes out, and every answer
 * waits for changes already promised, so none shows a change a crash could take back.
 */
import type { JsonBodyType } from 'msw';
import { isValidTimeZone } from '../../src/contract/dates.js';
import { ApiError, validationError } from '../api-error.js';
import { authenticate, type Caller } from '../auth.js';
import type { MockContext } from '../context.js';
import { parsePage, type Page } from '../query-params.js';

/** Route parameters as msw gives them. */
export type RouteParams = Record<string, string | readonly string[] | undefined>;

/** What a route body receives. */
export interface RouteInput {
  request: Request;
  url: URL;
  params: RouteParams;
  /** The request's IANA zone, or undefined for UTC (browser pages: always undefined). */
  zone: string | undefined;
  /**
   * The page asked for on a list route (a 400 when offset or limit is bad). Read once; a body calls
   * it where the API checks paging among its own checks, else the route reads it after the body.
   */
  page(): Page;
}

/** What the body of an authenticated route receives. */
export interface AuthedInput extends RouteInput {
  caller: Caller;
}

/** How a route answers a failure: an ApiError, or a bug when `err` is undefined. */
export type ErrorAnswer = (err: ApiError | undefined) => Response;

/** What a route does besides its own rule. */
export interface RouteSpec {
  /** Bring the world up to the clock before the body (default: on authenticated routes only). */
  sync?: boolean;
  /** A JSON route: a body declared as another content type gets 415. */
  json?: boolean;
  /** The body may change the world (default: any method but GET). */
  writes?: boolean;
  /** A list route with these page limits: a body returning an array has one page of it answered in the list envelope. */
  list?: { default: number; max: number };
  /** A page for people (no timezone header): failures answered this way instead of as JSON. */
  browser?: ErrorAnswer;
}

type Resolver = (info: { request: Request; params: RouteParams }) => Promise<Response>;

/** Reads and checks the `timezone` header. */
export function zoneOf(request: Request): string | undefined {
  const zone = request.headers.get('timezone')?.trim();
  if (!zone) return undefined;
  if (!isValidTimeZone(zone)) throw validationError('timezone', `unknown time zone '${zone}'`);
  return zone;
}

/**
 * Content types a JSON route takes: JSON, or text/plain, which fetch and undici declare for a string
 * body (scripts and tests send JSON that way); no declared type is read as JSON too.
 */
const JSON_TYPE = /^(application\/([\w.+-]+\+)?json|text\/plain)\s*(;|$)/i;

/** 415 when a request to a JSON route carries a body declared as something else (a form, XML, …). */
export function checkJsonContentType(request: Request): void {
  if (request.body === null) return;
  const type = request.headers.get('content-type')?.trim() ?? '';
  if (type === '' || JSON_TYPE.test(type)) return;
  throw new ApiError(415, {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: `content-type: '${type.slice(0, 100)}' is not accepted here; send the body as application/json`,
  });
}

/** The list envelope of every list endpoint: one page of results and the count of all. */
export function listEnvelope(result: readonly unknown[], total: number): { result: readonly unknown[]; result_count: number; total_count: number } {
  return { result, result_count: result.length, total_count: total };
}

/** `JSON.stringify(listEnvelope(rows, total))` for rows already serialised (each row's JSON text). */
export function listEnvelopeJson(rows: readonly string[], total: number): string {
  return `{"result":[${rows.join(',')}],"result_count":${rows.length},"total_count":${total}}`;
}

/** The items of one page. */
export function pageItems<T>(items: readonly T[], page: Page): T[] {
  return items.slice(page.offset, page.offset + page.limit);
}

/** One page of `items` in the list envelope; only the page's items are viewed with `view`. */
export function paged<T>(items: readonly T[], page: Page, view: (item: T) => unknown = (item) => item) {
  return listEnvelope(pageItems(items, page).map(view), items.length);
}

/**
 * A JSON answer serialised once: a real Response for in-process callers (app.handle), whose `serialised` text
 * the HTTP adapter writes straight to the socket instead of reading the body back (no Blob round trip).
 */
export class JsonAnswer extends Response {
  constructor(readonly serialised: string, init: { status?: number; headers?: Record<string, string> } = {}) {
    super(serialised, { status: init.status ?? 200, headers: { ...init.headers, 'content-type': 'application/json' } });
  }
}

/** The API's JSON answer to a failure. */
function jsonError(err: ApiError | undefined): Response {
  if (err) return new JsonAnswer(JSON.stringify(err.body), { status: err.status, headers: err.headers });
  return new JsonAnswer(JSON.stringify({ code: 'SYS0001', message: 'Application Error' }), { status: 500 });
}

/** A JSON value to answer with status 200, or a Response of the body's own. */
export type RouteResult = JsonBodyType | Response;

/** Wraps the body of a route anyone may call into an msw resolver over `ctx`. */
export function route(ctx: MockContext, body: (input: RouteInput) => RouteResult | Promise<RouteResult>, spec: RouteSpec = {}): Resolver {
  return resolver(ctx, spec, (input) => {
    if (spec.sync) ctx.engine.sync();
    return body(input);
  });
}

/** Wraps the body of a route for a caller whose token holds one of `scope` ([]: any live token); the world is synced first unless told. */
export function authedRoute(
  ctx: MockContext, scope: string | readonly string[], body: (input: AuthedInput) => RouteResult | Promise<RouteResult>, spec: RouteSpec = {},
): Resolver {
  return resolver(ctx, spec, (input) => {
    const caller = authenticate(ctx, input.request, scope);
    if (spec.sync ?? true) ctx.engine.sync();
    return body({ ...input, caller });
  });
}

function resolver(ctx: MockContext, spec: RouteSpec, run: (input: RouteInput) => RouteResult | Promise<RouteResult>): Resolver {
  const answerError = spec.browser ?? jsonError;
  return async ({ request, params }) => {
    const writes = spec.writes ?? request.method !== 'GET';
    let response: Response;
    try {
      response = await answer(spec, run, request, params);
    } catch (err) {
      if (!(err instanceof ApiError)) console.error('mock: unexpected error', err);
      response = answerError(err instanceof ApiError ? err : undefined);
    } finally {
      // Marked whether or not the body failed: a write may have changed something before it did.
      if (writes) ctx.engine.markPromised();
    }
    await ctx.engine.durable();
    return response;
  };
}

/** Runs the shared checks and the body; the result as a Response. */
async function answer(
  spec: RouteSpec, run: (input: RouteInput) => RouteResult | Promise<RouteResult>, request: Request, params: RouteParams,
): Promise<Response> {
  if (spec.json) checkJsonContentType(request);
  const url = new URL(request.url);
  const zone = spec.browser ? undefined : zoneOf(request);
  const limits = spec.list;
  let page: Page | undefined;
  const pageOf = (): Page => {
    if (!limits) throw new Error('page() called on a route that is not a list');
    return (page ??= parsePage(url.searchParams, limits));
  };
  const result = await run({ request, url, params, zone, page: pageOf });
  if (result instanceof Response) return result;
  return new JsonAnswer(JSON.stringify(limits && Array.isArray(result) ? paged(result, pageOf()) : result));
}
