/**
 * The one way a request goes through the mock. `route` wraps a handler's own rule with everything
 * routes share, in this order: the body's content type (JSON routes), the `timezone` header,
 * authentication and scope (`authedRoute`), bringing the world up to the clock, the list envelope with paging, and
 * the answer to an error (ApiError as the API's JSON, a bug as 500 SYS0001, never an unhandled
 * rejection). It is also the one place a change of state is marked: a route that writes (any method
 * but GET, unless told) has its change made durable before its answer goes out, and every answer
 * waits for changes already promised, so none shows a change a crash could take back.
 */
import { HttpHandler, type JsonBodyType } from 'msw';
import { isValidTimeZone } from '../../src/contract/dates.js';
import { ApiError, validationError } from '../kit/api-error.js';
import { authenticate, CallerMemo, type Caller, type HeaderSource } from './auth.js';
import type { MockContext } from '../context.js';
import { parsePage, type Page } from '../search/query-params.js';

export type { HeaderSource };

/** Route parameters as msw gives them. */
export type RouteParams = Record<string, string | readonly string[] | undefined>;

/**
 * What a route reads of a request: method, URL, headers and the body as text. A Fetch Request is one
 * (msw hands one to a route used in someone's setupServer); the app makes one straight from node's
 * request and the body the HTTP adapter read, or from an in-process Request (app.ts `answer`), so no
 * request builds a Fetch Request, goes through msw or becomes a Response on its way.
 */
export interface RequestHead {
  readonly method: string;
  /** The normalised URL, as text. */
  readonly url: string;
  /** The same URL already parsed, when the caller has it (the app), so it is not parsed twice. */
  readonly parsedUrl?: URL;
  /** Its pathname and search as the caller read them, when it has (the HTTP adapter's kept target: request-target.ts). */
  readonly path?: string;
  readonly search?: string;
  readonly headers: HeaderSource;
  /** Null when the request has no body. */
  readonly body: unknown;
  /** The body decoded as UTF-8 ('' when there is none). */
  text(): Promise<string>;
}

/** What a route body receives. */
export interface RouteInput {
  request: RequestHead;
  url: URL;
  /** root_url as the caller reached it: the origin and the base path (`--base-path`), for links in answers. */
  root: string;
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

/**
 * A JSON answer as text, with its status and headers besides the content type; the adapter writes it as
 * it is (a listings page, JsonPage, is written as its kept listing bytes instead).
 */
export class JsonText {
  constructor(
    private readonly text: string,
    readonly status = 200,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}

  /** The whole text. */
  get serialised(): string {
    return this.text;
  }

  /** What goes on the wire (a page of kept listing bytes overrides it: routes/listings.ts JsonPage). */
  body(): string | Buffer {
    return this.text;
  }
}

/** What a route answers: JSON text (as the adapter writes it), or a Response of the body's own. */
export type Answer = JsonText | Response;

/**
 * A route: `direct`, its steps over a request's head (the app's one request path: app.ts `answer`),
 * and the same as an msw resolver (a route in someone else's setupServer or setupWorker).
 */
export type Route = ((info: { request: Request; params: RouteParams }) => Promise<Response>) & {
  direct(request: RequestHead, params?: RouteParams): Promise<Answer>;
  /**
   * `direct`, its answer handed back as it is when nothing had to be waited for (a body that answered at
   * once, nothing owed to durability): the adapter writes it in the same turn, no promise or microtask per step.
   */
  now(request: RequestHead, params?: RouteParams): Answer | Promise<Answer>;
};

/**
 * An msw handler of a mock route: msw matches and resolves it as any other (in someone's setupServer),
 * and the app finds its `route` and runs `direct` without msw (app.ts).
 */
export class RouteHandler extends HttpHandler {
  constructor(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    readonly route: Route,
  ) {
    super(method, path, route);
  }
}

/** Registers a mock route as `http.get('*\/v1/x', route)` (msw's form; `*` is the origin and the base path: http/router.ts). */
export const http = {
  get: (path: string, route: Route) => new RouteHandler('GET', path, route),
  post: (path: string, route: Route) => new RouteHandler('POST', path, route),
  delete: (path: string, route: Route) => new RouteHandler('DELETE', path, route),
};

/** Reads and checks the `timezone` header. */
export function zoneOf(request: { headers: HeaderSource }): string | undefined {
  const zone = request.headers.get('timezone')?.trim();
  if (!zone) return undefined;
  if (!isValidTimeZone(zone)) throw validationError('timezone', `unknown time zone '${zone}'`);
  return zone;
}

/**
 * Content types a JSON route takes: application/json and its `+json` kin. A body declared as anything
 * else is 415, text/plain (fetch's default for a string body) included, as the README promises and as
 * the spec asks JSON bodies to be declared; a body with no declared type is read as JSON, the spec
 * saying nothing of that case and curl's `-d` without `-H` sending a form type, not none.
 */
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** 415 when a request to a JSON route carries a body declared as something else (text, a form, XML, …). */
export function checkJsonContentType(request: RequestHead): void {
  if (request.body === null) return;
  const type = request.headers.get('content-type')?.trim() ?? '';
  if (type === '' || JSON_TYPE.test(type)) return;
  throw new ApiError(415, {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: `content-type: '${type.slice(0, 100)}' is not accepted here; send the body as application/json`,
  });
}

/** The list envelope of every list endpoint: one page of results and the count of all. */
export function listEnvelope(
  result: readonly unknown[],
  total: number,
): { result: readonly unknown[]; result_count: number; total_count: number } {
  return { result, result_count: result.length, total_count: total };
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
  constructor(
    readonly serialised: string,
    init: { status?: number; headers?: Readonly<Record<string, string>> } = {},
  ) {
    super(serialised, { status: init.status ?? 200, headers: { ...init.headers, 'content-type': 'application/json' } });
  }
}

/** An answer as a Response (JSON text as a JsonAnswer). */
export function asResponse(answer: Answer): Response {
  return answer instanceof JsonText ? new JsonAnswer(answer.serialised, answer) : answer;
}

/** The API's JSON answer to a failure. */
function jsonError(err: ApiError | undefined): JsonText {
  if (err) return new JsonText(JSON.stringify(err.body), err.status, err.headers);
  return new JsonText(JSON.stringify({ code: 'SYS0001', message: 'Application Error' }), 500);
}

/** A JSON value to answer with status 200, JSON text, or a Response of the body's own. */
export type RouteResult = JsonBodyType | JsonText | Response;

type Body<I> = (input: I) => RouteResult | Promise<RouteResult>;

/** Wraps the body of a route anyone may call into an msw resolver over `ctx`. */
export function route(ctx: MockContext, body: Body<RouteInput>, spec: RouteSpec = {}): Route {
  return resolver(ctx, spec, (input) => {
    if (spec.sync) ctx.engine.sync();
    // Inside a stepped clock move the listings' columns may lag the last tick: what this route reads is settled.
    else ctx.engine.settle();
    return body(input);
  });
}

/** Wraps the body of a route for a caller whose token holds one of `scope` ([]: any live token); the world is synced first unless told. */
export function authedRoute(ctx: MockContext, scope: string | readonly string[], body: Body<AuthedInput>, spec: RouteSpec = {}): Route {
  const memo = new CallerMemo();
  return resolver(ctx, spec, (input) => {
    const caller = authenticate(ctx, input.request, scope, memo);
    if (spec.sync ?? true) ctx.engine.sync();
    // The same input, its caller set: no second object per request.
    input.caller = caller;
    return body(input);
  });
}

function resolver(ctx: MockContext, spec: RouteSpec, run: Body<Input>): Route {
  const answerError = spec.browser ?? jsonError;
  /** What follows the body: the wait for durability (only when something is owed), then the rollback check. */
  const settled = (result: Answer, since: number): Answer | Promise<Answer> => {
    const durability = ctx.durability;
    // Without --state nothing is ever unsaved: no promise and no turn of the microtask queue then.
    if (durability.owes) return durableThen(result, since);
    // The log could not be written meanwhile: the world was rolled back (durability/operation-log.ts), so
    // this answer, made before, may show a change that is gone; it is the 503 instead.
    const rolledBack = durability.rolledBackSince(since);
    return rolledBack ? answerError(rolledBack) : result;
  };
  const durableThen = async (answered: Answer, since: number): Promise<Answer> => {
    let result = answered;
    try {
      await ctx.durability.durable();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      result = answerError(err);
    }
    const rolledBack = ctx.durability.rolledBackSince(since);
    return rolledBack ? answerError(rolledBack) : result;
  };
  /** A body that answered with a promise: waited for, then marked, as a body that answers at once is. */
  const later = async (pending: Promise<Answer>, writes: boolean, since: number): Promise<Answer> => {
    let result: Answer;
    try {
      result = await pending;
    } catch (err) {
      if (!(err instanceof ApiError)) console.error('mock: unexpected error', err);
      result = answerError(err instanceof ApiError ? err : undefined);
    } finally {
      if (writes) ctx.engine.markPromised();
    }
    return settled(result, since);
  };
  const now = (request: RequestHead, params: RouteParams = {}): Answer | Promise<Answer> => {
    const writes = spec.writes ?? request.method !== 'GET';
    const durability = ctx.durability;
    // A log that could not be rolled back takes no change until a restart: refused before the body runs.
    const refusal = writes ? durability.refusal : null;
    if (refusal) return answerError(refusal);
    const since = durability.mark();
    let result: Answer | Promise<Answer>;
    try {
      result = answer(spec, run, request, params, ctx.options.basePath ?? '');
    } catch (err) {
      if (!(err instanceof ApiError)) console.error('mock: unexpected error', err);
      result = answerError(err instanceof ApiError ? err : undefined);
    }
    if (result instanceof Promise) return later(result, writes, since);
    // Marked whether or not the body failed: a write may have changed something before it did.
    if (writes) ctx.engine.markPromised();
    return settled(result, since);
  };
  // Every routed answer waits here for what it changed to be durable (only `now` is the work; `direct` its promise).
  const direct = async (request: RequestHead, params: RouteParams = {}): Promise<Answer> => now(request, params);
  // msw hands a Fetch Request, which is a RequestHead.
  const viaMsw = async ({ request, params }: { request: Request; params: RouteParams }) => asResponse(await direct(request, params));
  return Object.assign(viaMsw, { direct, now });
}

/**
 * What a route body receives (RouteInput, and AuthedInput once `caller` is set), one object per request whose `root` is
 * worked out only when read (few routes read it: it was a URL's origin made into text for every request).
 */
class Input implements AuthedInput {
  /** Set by authedRoute before its body runs; undefined for a route anyone may call. */
  caller!: Caller;

  constructor(
    readonly request: RequestHead,
    readonly url: URL,
    readonly params: RouteParams,
    readonly zone: string | undefined,
    readonly page: () => Page,
    private readonly basePath: string,
  ) {}

  get root(): string {
    return `${this.url.origin}${this.basePath}`;
  }
}

/** The `page` of a route that is not a list (one function for all: none is made per request). */
function notAList(): Page {
  throw new Error('page() called on a route that is not a list');
}

/** Runs the shared checks and the body; the result as JSON text or the body's own Response (a promise of it when the body gave one). */
function answer(spec: RouteSpec, run: Body<Input>, request: RequestHead, params: RouteParams, basePath: string): Answer | Promise<Answer> {
  if (spec.json) checkJsonContentType(request);
  const url = request.parsedUrl ?? new URL(request.url);
  const zone = spec.browser ? undefined : zoneOf(request);
  const limits = spec.list;
  let page: Page | undefined;
  const pageOf = limits ? (): Page => (page ??= parsePage(url.searchParams, limits)) : notAList;
  const result = run(new Input(request, url, params, zone, pageOf, basePath));
  return result instanceof Promise ? result.then((r) => done(r, limits, pageOf)) : done(result, limits, pageOf);
}

/** A body's result as an answer: JSON text or a Response as it is, any other value serialised (a list route's array paged). */
function done(r: RouteResult, limits: RouteSpec['list'], pageOf: () => Page): Answer {
  if (r instanceof Response || r instanceof JsonText) return r;
  return new JsonText(JSON.stringify(limits && Array.isArray(r) ? paged(r, pageOf()) : r));
}
