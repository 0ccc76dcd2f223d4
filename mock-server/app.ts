/**
 * The mock marketplace as a request → response function: the msw handlers of every resource over
 * one context, routed strictly (http/router.ts: the exact path under the base path, letter case included)
 * and resolved with msw's `getResponse`; HEAD answered as GET; a JSON 405 with `Allow` for a known
 * path with another method, and a loud JSON 404 for anything unmatched. One request path: `answer`
 * finds the route (http/router.ts) and runs it over the request's head, no Fetch Request, msw or
 * Response on the way, whether the request came over HTTP (the adapter, which records it in the
 * request log on the wire) or in-process (`handle`, which normalises the target as the adapter does and
 * records it itself). msw resolves only a handler that is not one of the mock's routes (a test's own,
 * put in front). The same routes are msw handlers (`handlers`) for someone else's setupServer.
 */
import { getResponse, type RequestHandler } from 'msw';
import { DEFAULT_REQUEST_LOG_SIZE } from '../src/contract/mock-inspect.js';
import { MockContext, type MockOptions } from './context.js';
import { accountsHandlers } from './routes/accounts.js';
import { adminHandlers } from './routes/admin.js';
import { dashboardHandlers } from './routes/dashboard.js';
import { inspectHandlers } from './routes/inspect.js';
import { listingsHandlers } from './routes/listings.js';
import { loansHandlers } from './routes/loans.js';
import { notesHandlers } from './routes/notes.js';
import { oauthHandlers } from './routes/oauth.js';
import { offersHandlers } from './routes/offers.js';
import { openApiHandlers } from './routes/openapi.js';
import { ordersHandlers } from './routes/orders.js';
import { paymentsHandlers } from './routes/payments.js';
import { snapshotHandlers } from './routes/snapshots.js';
import { webhookHandlers } from './routes/webhooks.js';
import { Webhooks } from './webhooks/deliveries.js';
import type { AnswerChecker } from './http/answer-check.js';
import { asResponse, JsonText, RouteHandler, type Answer, type RequestHead } from './route-helper/route.js';
import { mockRequestLogHost } from './request-log/mock-host.js';
import { keepsBody, RequestLog, type Seen } from './request-log/request-log.js';
import { faultAnswer } from './http/faults.js';
import { normaliseTarget } from './http/request-target.js';
import { clientKeyOf } from './http/rate-limit.js';
import { rateGroupOf, throttledBody, type RateGroup } from '../src/contract/rate-limits.js';
import { checkRoutes, matchRoute, routedHandlers, routeMethods, underBase, type RouteMatch, type RoutePatterns } from './http/router.js';

/**
 * A request as the app reads it: its head, on the normalised URL (`parsedUrl`), the body as the
 * transport read it (null when it has none), and a Fetch Request made on demand, only for a handler
 * that is not one of the mock's routes (it may throw for what Fetch cannot carry: a 400 then).
 */
export interface IncomingRequest extends RequestHead {
  readonly parsedUrl: URL;
  toRequest(): Request;
}

/** Routes kept found by method and path (app.answer): a few hundred, as PathMemo keeps paths. */
const ROUTES_KEPT = 512;

/** A running mock, without a transport. */
export interface MockApp {
  ctx: MockContext;
  handlers: RequestHandler[];
  /** The last requests answered (GET /__mock/requests). */
  requestLog: RequestLog;
  /** The signed webhooks of the outbox's events (MockOptions.webhooks); null without receivers. */
  webhooks: Webhooks | null;
  /** Answers one request and records it in the request log. */
  handle(request: Request): Promise<Response>;
  /**
   * Answers one request, its target already normalised (request-target.ts), without recording it (the
   * HTTP adapter records what it sees on the wire): the one request path of every route. With
   * `checkAnswers` the answer is checked against the OpenAPI document.
   */
  answer(request: IncomingRequest): Promise<Answer>;
  /** `answer`, its answer handed back as it is when nothing had to be waited for (the adapter writes it in the same turn). */
  answerNow(request: IncomingRequest): Answer | Promise<Answer>;
  /** The 405 (with `Allow`) or 404 for a request no handler took; also for methods Fetch cannot carry. */
  unrouted(method: string, url: URL): Response;
  /** Stops timers and flushes state; called when the server stops. */
  close?(): Promise<void>;
  /** With `checkAnswers`: checks an answer the transport made itself (handle() checks its own). */
  check?(method: string, url: URL, response: Response): Promise<void>;
}

/** The JSON 404 for a path no route serves (and, word for word, for an admin path the caller may not reach). */
export function notFound(method: string, path: string): Response {
  return Response.json({ code: 'NOT_FOUND', message: `No route for ${method} ${path}` }, { status: 404 });
}

/** `MKT_MOCK_CHECK_ANSWERS=FILE` in `env`: check every answer against the OpenAPI document, mismatches to FILE (the test suite sets it). */
export function answerCheckOption(env: Readonly<Record<string, string | undefined>>): Pick<MockOptions, 'checkAnswers'> {
  const file = env.MKT_MOCK_CHECK_ANSWERS;
  return file ? { checkAnswers: file } : {};
}

/** `MKT_MOCK_SNAPSHOT_BYTES=N` in `env`: a --state log past N bytes is followed by a base snapshot (the crash tests make them often). */
export function snapshotOption(env: Readonly<Record<string, string | undefined>>): Pick<MockOptions, 'snapshotLogBytes'> {
  const n = Number(env.MKT_MOCK_SNAPSHOT_BYTES);
  return Number.isSafeInteger(n) && n > 0 ? { snapshotLogBytes: n } : {};
}

/** Defaults for the options a caller leaves out. */
export const DEFAULT_MOCK_OPTIONS: Omit<MockOptions, 'start'> = { seed: 1, listings: 2000, frozen: false, admin: true };

/** Builds the world and its handlers. `realNow` is the real-time source the virtual clock runs on. */
export function createMockApp(partial: Partial<MockOptions> = {}, realNow: () => number = Date.now): MockApp {
  const ctx = new MockContext({ ...DEFAULT_MOCK_OPTIONS, start: realNow(), ...partial }, realNow);
  try {
    return appOver(ctx, realNow);
  } catch (err) {
    // A start that fails after the --state folder was taken (a bad --from-snapshot, --client, log record) lets it go.
    ctx.engine.abandon();
    throw err;
  }
}

/** The handlers and the request path over a world just made (createMockApp). */
function appOver(ctx: MockContext, realNow: () => number): MockApp {
  const options = ctx.options;
  const requestLog = new RequestLog(mockRequestLogHost(ctx), options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE, realNow);
  const webhooks = options.webhooks && options.webhooks.urls.length > 0 ? new Webhooks(options.webhooks, ctx, realNow) : null;
  if (webhooks) requestLog.addSecret(webhooks.secret);
  const base = options.basePath ?? '';
  const handlers: RequestHandler[] = [
    ...listingsHandlers(ctx),
    ...ordersHandlers(ctx),
    // Before the loans: /loans/{loan_id} would take /loans/payments.
    ...paymentsHandlers(ctx),
    ...loansHandlers(ctx),
    ...notesHandlers(ctx),
    ...accountsHandlers(ctx),
    ...oauthHandlers(ctx),
    ...offersHandlers(ctx),
    ...openApiHandlers(ctx),
    ...(options.admin
      ? [
          ...adminHandlers(ctx),
          ...dashboardHandlers(ctx, requestLog, webhooks),
          ...snapshotHandlers(ctx),
          ...inspectHandlers(ctx, requestLog),
          ...webhookHandlers(ctx, webhooks),
        ]
      : []),
  ];
  // The handlers' paths compiled once, kept as long as this app (a handler added later is compiled on first sight).
  const patterns: RoutePatterns = new Map();
  checkRoutes(handlers, patterns);
  // A --state folder's operations after its base, once the handlers are made (the context registered the operations).
  ctx.durability.replay();
  // --from-snapshot: the named world, at its saved time, replaces the one the folder held (after its replay, which it supersedes).
  ctx.startFromSnapshot();
  // Webhooks carry only what happens from here on: what the replay and the start rebuilt was sent by the mock that made it.
  webhooks?.watchFromHere();
  if (webhooks) ctx.onWorldReplaced(() => webhooks.watchFromHere());
  if (webhooks) ctx.onOutboxClearing(() => webhooks.collect());
  const check = options.checkAnswers ? answerCheck(options.checkAnswers, base) : undefined;
  const unrouted = (method: string, url: URL): Response => {
    const allow = routeMethods(handlers, url.pathname, base, patterns);
    if (allow.length > 0) {
      return Response.json(
        { code: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed on ${url.pathname}; allowed: ${allow.join(', ')}` },
        { status: 405, headers: { allow: allow.join(', ') } },
      );
    }
    return notFound(method, url.pathname);
  };
  const malformed = (err: unknown): Response | null => {
    // A route parameter is decoded with decodeURIComponent, as msw decodes it: a bad escape is the client's, not a bug.
    if (!(err instanceof URIError)) return null;
    return Response.json(
      { code: 'VAL0001', message: `path: ${err.message} (a percent-escape is malformed or not UTF-8)` },
      { status: 400 },
    );
  };
  /** A handler not of the mock's routes, and those after it on the same path, resolved by msw as before. */
  const viaMsw = async (request: IncomingRequest, url: URL): Promise<Response> => {
    let fetchRequest: Request;
    try {
      fetchRequest = request.toRequest();
    } catch (err) {
      return Response.json({ code: 'VAL0001', message: `request: ${(err as Error).message}` }, { status: 400 });
    }
    // HEAD is GET without the body; the transport (node:http) leaves the body off the wire.
    const routed =
      fetchRequest.method === 'HEAD' ? new Request(fetchRequest.url, { method: 'GET', headers: fetchRequest.headers }) : fetchRequest;
    try {
      return (await getResponse(routedHandlers(handlers, url.pathname, base, patterns), routed)) ?? unrouted(request.method, url);
    } catch (err) {
      const refused = malformed(err);
      if (!refused) throw err;
      return refused;
    }
  };
  // The route of a method and normalised path asked before (a client asks the same few again and again),
  // kept as long as the handlers are the same (a test that puts its own in front starts it over), at most
  // ROUTES_KEPT of them.
  const routes = new Map<string, RouteMatch | null>();
  let routesOf = handlers.length;
  // The route found last (a client asks the same again and again): compared before a key text is made and looked up.
  const last: { method: string; path: string; match: RouteMatch | null } = { method: '', path: '', match: null };
  const routeOf = (method: string, path: string): RouteMatch | null => {
    if (handlers.length !== routesOf || routes.size >= ROUTES_KEPT) {
      routes.clear();
      routesOf = handlers.length;
      last.method = '';
    }
    if (method === last.method && path === last.path) return last.match;
    const key = `${method} ${path}`;
    let match = routes.get(key);
    if (match === undefined) {
      match = matchRoute(handlers, method, path, base, patterns);
      routes.set(key, match);
    }
    last.method = method;
    last.path = path;
    last.match = match;
    return match;
  };
  /**
   * The service's 429 when the request's client has used its group's limit (http/rate-limit.ts), else null.
   * Here, in the one place both doors pass, so the HTTP server and the msw handlers throttle alike; after
   * the injected faults (the network in front of the service) and only on the mock's own routes.
   */
  const throttled = (request: IncomingRequest, path: string): Answer | null | Promise<Answer | null> => {
    // Off (as a bench or a test runs it): no group to find.
    if (!ctx.rateLimit.enabled) return null;
    const apiPath = underBase(path, base);
    const group = apiPath === null ? null : rateGroupOf(apiPath);
    if (group === null) return null;
    // The token endpoint has no token yet: its caller is its form's client_id (read from the body, later).
    if (group === 'oauth')
      return request.text().then((text) => decide(request, group, new URLSearchParams(text.slice(0, 4096)).get('client_id')));
    return decide(request, group, null);
  };
  const decide = (request: IncomingRequest, group: RateGroup, clientId: string | null): Answer | null => {
    const decision = ctx.rateLimit.decide(group, clientKeyOf(request.headers.get('authorization'), clientId));
    if (decision.admitted) return null;
    const body = throttledBody(new Date(ctx.clock.now()));
    return new JsonText(JSON.stringify(body), 429, { 'retry-after': String(decision.retryAfterS) });
  };
  /** The route's answer once the request was let through (`refused` null) or its 429. */
  const routed = (
    request: IncomingRequest,
    match: RouteMatch & { handler: RouteHandler },
    refused: Answer | null,
  ): Answer | Promise<Answer> => {
    if (refused) return refused;
    let params: Record<string, string>;
    try {
      params = match.params();
    } catch (err) {
      const refused = malformed(err);
      if (!refused) throw err;
      return refused;
    }
    // HEAD is GET without the body (the route reads it as a GET: no write); the transport leaves the body off the wire.
    const head = request.method === 'HEAD' ? { ...request, method: 'GET' } : request;
    // Every routed answer waits in its route (route-helper/route.ts) for what it changed to be durable.
    return match.handler.route.now(head, params);
  };
  /** The answer without the check: synchronous as far as the route is (no promise made for a route that answered at once). */
  const answerUnchecked = (request: IncomingRequest): Answer | Promise<Answer> => {
    const url = request.parsedUrl;
    // Read once: each read of a URL's pathname makes a new text (the adapter's is read once per target it keeps).
    const path = request.path ?? url.pathname;
    const match = routeOf(request.method, path);
    if (!match) return unrouted(request.method, url);
    if (!(match.handler instanceof RouteHandler)) return viaMsw(request, url);
    const ours = match as RouteMatch & { handler: RouteHandler };
    const refused = throttled(request, path);
    return refused instanceof Promise ? refused.then((r) => routed(request, ours, r)) : routed(request, ours, refused);
  };
  // Every answer the routes give, in-process or over HTTP, is checked here (with checkAnswers).
  const answerNow = (request: IncomingRequest): Answer | Promise<Answer> => {
    // Looked for before too: what the engine's timer made is sent before a request could clear the outbox.
    webhooks?.collect();
    const result = answerUnchecked(request);
    if (result instanceof Promise || check) return checked(request, result);
    webhooks?.collect();
    return result;
  };
  const checked = async (request: IncomingRequest, pending: Answer | Promise<Answer>): Promise<Answer> => {
    const result = await pending;
    webhooks?.collect();
    await check?.(request.method, request.parsedUrl, asResponse(result));
    return result;
  };
  const answer = async (request: IncomingRequest): Promise<Answer> => answerNow(request);
  // Every answer carries the virtual clock's Date, as the adapter's do (a Response.error() has no headers to set);
  // an answer to a HEAD carries no body, as node:http leaves it off the wire (msw hands a Response on as it is).
  const stamped = (method: string, answered: Response): Response => {
    const response = method === 'HEAD' && answered.body !== null ? new Response(null, answered) : answered;
    const date = new Date(ctx.clock.now()).toUTCString();
    try {
      response.headers.set('date', date);
      return response;
    } catch {
      // Headers a Response keeps immutable (Response.redirect's): the same answer with its own copy.
      const copy = new Response(response.body, response);
      copy.headers.set('date', date);
      return copy;
    }
  };
  return {
    ctx,
    handlers,
    requestLog,
    webhooks,
    unrouted,
    answer,
    answerNow,
    async handle(given) {
      const arrival = requestLog.arrive(given.headers.get('authorization'));
      // In-process callers get the reading of the target the adapter gives a request on the wire.
      const sent = new URL(given.url);
      const target = normaliseTarget(sent.pathname + sent.search, sent.origin);
      // A target that cannot be read is recorded as the adapter records it: its raw path, cut at 200 characters, and no query.
      const seen: Seen = {
        method: given.method,
        path: sent.pathname.slice(0, 200),
        search: '',
        headers: given.headers,
        bodyText: null,
        status: null,
      };
      if (!target.ok) {
        const refused = Response.json({ code: 'VAL0001', message: target.problem }, { status: 400 });
        await check?.(given.method, sent, refused);
        requestLog.record(arrival, { ...seen, status: 400 });
        return stamped(given.method, refused);
      }
      const url = target.url;
      seen.path = url.pathname;
      seen.search = url.search;
      // The faults as the adapter applies them (http-adapter.ts): a dropped connection is Fetch's network error.
      const apiPath = underBase(url.pathname, base);
      const fault = apiPath === null ? null : ctx.faults.decide(given.method, apiPath);
      if (fault) {
        seen.fault =
          fault.action !== 'none' ? fault.action : fault.latencyMs > 0 ? 'latency' : fault.handlerDelayMs > 0 ? 'handler_delay' : null;
        if (fault.latencyMs > 0) await new Promise((r) => setTimeout(r, fault.latencyMs));
        if (fault.action === 'drop') {
          requestLog.record(arrival, seen);
          return Response.error();
        }
        const faulted = faultAnswer(fault);
        if (faulted) {
          requestLog.record(arrival, { ...seen, status: faulted.status });
          return stamped(given.method, Response.json(faulted.body, { status: faulted.status, headers: faulted.headers }));
        }
      }
      const body = given.body === null ? null : new Uint8Array(await given.arrayBuffer());
      // As the adapter reads a request on the wire: a body only when there are bytes and the method has one, decoded as Fetch's text() decodes it (UTF-8, BOM dropped).
      const bytes = given.method !== 'GET' && given.method !== 'HEAD' && body !== null && body.length > 0 ? body : null;
      const request: IncomingRequest = {
        method: given.method,
        url: url.href,
        parsedUrl: url,
        headers: given.headers,
        body: bytes,
        text: async () => (bytes ? new TextDecoder().decode(bytes) : ''),
        toRequest: () => new Request(url, { method: given.method, headers: given.headers, ...(bytes ? { body: bytes } : {}) }),
      };
      // Kept as the adapter keeps it (node's utf8, a BOM kept: such a body is no JSON to the request log, though the route reads it).
      if (arrival && bytes !== null && keepsBody(given.method, url.pathname, given.headers.get('content-type')))
        seen.bodyText = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
      if (fault && fault.handlerDelayMs > 0) await new Promise((r) => setTimeout(r, fault.handlerDelayMs));
      const response = asResponse(await answer(request));
      if (fault?.action === 'drop_response') {
        requestLog.record(arrival, seen);
        return Response.error();
      }
      requestLog.record(arrival, { ...seen, status: response.status });
      return stamped(given.method, response);
    },
    async close() {
      await webhooks?.close();
      await ctx.engine.close();
    },
    ...(check ? { check } : {}),
  };
}

/**
 * The answer check of `checkAnswers` (answer-check.ts, loaded only then, at the first answer: a mock made
 * and dropped without answering loads nothing after its caller is gone). A check that fails is
 * reported and the answer still goes out: the check watches the mock, it never changes what it says.
 */
function answerCheck(file: string, basePath: string): MockApp['check'] {
  let checker: Promise<AnswerChecker> | undefined;
  return async (method, url, response) => {
    try {
      checker ??= import('./http/answer-check.js').then((m) => new m.AnswerChecker(file, basePath));
      await (await checker).check(method, url, response);
    } catch (err) {
      console.error('mock: cannot check an answer against the OpenAPI document', err);
    }
  };
}
