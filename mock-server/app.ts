/**
 * The mock marketplace as a request → response function: the msw handlers of every resource over
 * one context, routed strictly (http/router.ts: the exact path under the base path, letter case included)
 * and resolved with msw's `getResponse`; HEAD answered as GET; a JSON 405 with `Allow` for a known
 * path with another method, and a loud JSON 404 for anything unmatched. `handle` normalises the
 * target as the HTTP adapter does and records each request in the journal; the adapter calls
 * `dispatch` and records on the wire instead.
 */
import { getResponse, type RequestHandler } from 'msw';
import { DEFAULT_JOURNAL_SIZE } from '../src/contract/mock-inspect.js';
import { MockContext, type MockOptions } from './context.js';
import { accountsHandlers } from './routes/accounts.js';
import { adminHandlers } from './routes/admin.js';
import { dashboardHandlers } from './routes/dashboard.js';
import { inspectHandlers } from './routes/inspect.js';
import { LISTINGS_PATH, listingsHandlers, listingsSearch } from './routes/listings.js';
import { loansHandlers } from './routes/loans.js';
import { notesHandlers } from './routes/notes.js';
import { oauthHandlers } from './routes/oauth.js';
import { offersHandlers } from './routes/offers.js';
import { openApiHandlers } from './routes/openapi.js';
import { ORDERS_PATH, orderSubmit, ordersHandlers } from './routes/orders.js';
import { paymentsHandlers } from './routes/payments.js';
import { snapshotHandlers } from './routes/snapshots.js';
import { webhookHandlers } from './routes/webhooks.js';
import { Webhooks } from './webhooks/deliveries.js';
import type { AnswerChecker } from './routes/answer-check.js';
import { asResponse, type Answer, type HeaderSource } from './routes/route.js';
import { keepsBody, mockJournalHost, RequestJournal } from './routes/journal.js';
import { normaliseTarget } from './http/request-target.js';
import { checkRoutes, routedHandlers, routeMethods, type RoutePatterns } from './http/router.js';

/** A running mock, without a transport. */
export interface MockApp {
  ctx: MockContext;
  handlers: RequestHandler[];
  /** The last requests answered (GET /__mock/requests). */
  journal: RequestJournal;
  /** The signed webhooks of the outbox's events (MockOptions.webhooks); null without receivers. */
  webhooks: Webhooks | null;
  /** Answers one request and records it in the journal. */
  handle(request: Request): Promise<Response>;
  /** Answers one request, its target already normalised (request-target.ts), without recording it (the HTTP adapter records what it sees on the wire). */
  dispatch(request: Request): Promise<Response>;
  /**
   * The answer of a hot route the HTTP adapter may take without a Fetch Request or msw (a listings
   * search, an order's submission, at their normalised paths), checked like dispatch's; null for any
   * other request. The route runs the very steps its msw resolver runs (routes/route.ts), over
   * node's headers and the body the adapter read.
   */
  direct(method: string, url: URL, headers: HeaderSource, body: Buffer): Promise<Answer> | null;
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
  const journal = new RequestJournal(mockJournalHost(ctx), options.journalSize ?? DEFAULT_JOURNAL_SIZE, realNow);
  const webhooks = options.webhooks && options.webhooks.urls.length > 0 ? new Webhooks(options.webhooks, ctx, realNow) : null;
  if (webhooks) journal.addSecret(webhooks.secret);
  const search = listingsSearch(ctx);
  const submit = orderSubmit(ctx);
  const base = options.basePath ?? '';
  // By method and normalised path, which is the only path these routes answer (http/router.ts).
  const directRoutes = new Map([[`GET ${base}${LISTINGS_PATH}`, search.direct], [`POST ${base}${ORDERS_PATH}`, submit.direct]]);
  const handlers: RequestHandler[] = [
    ...listingsHandlers(ctx, search),
    ...ordersHandlers(ctx, submit),
    // Before the loans: /loans/{loan_id} would take /loans/payments.
    ...paymentsHandlers(ctx),
    ...loansHandlers(ctx),
    ...notesHandlers(ctx),
    ...accountsHandlers(ctx),
    ...oauthHandlers(ctx),
    ...offersHandlers(ctx),
    ...openApiHandlers(ctx),
    ...(options.admin ? [...adminHandlers(ctx), ...dashboardHandlers(ctx), ...snapshotHandlers(ctx), ...inspectHandlers(ctx, journal), ...webhookHandlers(ctx, webhooks)] : []),
  ];
  // The handlers' paths compiled once, kept as long as this app (a handler added later is compiled on first sight).
  const patterns: RoutePatterns = new Map();
  checkRoutes(handlers, patterns);
  // A --state folder's operations after its base, once the handlers are made (the context registered the operations).
  ctx.durability.replay();
  // --from-snapshot: the named world replaces the one the folder held (after its replay, so the clock never goes back).
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
  const dispatchUnchecked = async (request: Request): Promise<Response> => {
    // HEAD is GET without the body; the transport (node:http) leaves the body off the wire.
    const routed = request.method === 'HEAD' ? new Request(request.url, { method: 'GET', headers: request.headers }) : request;
    // msw chooses only among the handlers whose path is the request's exactly; it would take any prefix or case.
    const url = new URL(request.url);
    const candidates = routedHandlers(handlers, url.pathname, base, patterns);
    if (candidates.length === 0) return unrouted(request.method, url);
    let response: Response | undefined;
    try {
      response = await getResponse(candidates, routed);
    } catch (err) {
      // msw decodes route parameters with decodeURIComponent; a bad escape is the client's, not a bug.
      if (!(err instanceof URIError)) throw err;
      return Response.json({ code: 'VAL0001', message: `path: ${err.message} (a percent-escape is malformed or not UTF-8)` }, { status: 400 });
    }
    // Every routed answer waited in its route (routes/route.ts) for what it changed to be durable.
    return response ?? unrouted(request.method, url);
  };
  // Every answer the handlers give, in-process or over HTTP, is checked here (with checkAnswers).
  const dispatch = async (request: Request): Promise<Response> => {
    // Looked for before too: what the engine's timer made is sent before a request could clear the outbox.
    webhooks?.collect();
    const response = await dispatchUnchecked(request);
    webhooks?.collect();
    await check?.(request.method, new URL(request.url), response);
    return response;
  };
  const direct = async (run: (typeof search)['direct'], method: string, url: URL, headers: HeaderSource, body: Buffer): Promise<Answer> => {
    // As toFetchRequest: a body only when there are bytes and the method has one, read as Fetch's text() reads it (UTF-8, BOM dropped).
    const bytes = method !== 'GET' && body.length > 0 ? body : null;
    const text = async () => (bytes ? new TextDecoder().decode(bytes) : '');
    webhooks?.collect();
    const answer = await run({ method, url: url.href, parsedUrl: url, headers, body: bytes, text });
    webhooks?.collect();
    await check?.(method, url, asResponse(answer));
    return answer;
  };
  return {
    ctx,
    handlers,
    journal,
    webhooks,
    unrouted,
    dispatch,
    direct(method, url, headers, body) {
      const run = directRoutes.get(`${method} ${url.pathname}`);
      return run ? direct(run, method, url, headers, body) : null;
    },
    async handle(given) {
      const arrival = journal.arrive(given.headers.get('authorization'));
      // In-process callers get the reading of the target the adapter gives a request on the wire.
      const sent = new URL(given.url);
      const target = normaliseTarget(sent.pathname + sent.search, sent.origin);
      if (!target.ok) {
        const refused = Response.json({ code: 'VAL0001', message: target.problem }, { status: 400 });
        await check?.(given.method, sent, refused);
        journal.record(arrival, { method: given.method, path: sent.pathname, search: sent.search, headers: given.headers, bodyText: null, status: 400 });
        return refused;
      }
      const url = target.url;
      const request = url.href === given.url ? given : await retarget(given, url);
      const bodyText = arrival && request.body !== null && keepsBody(request.method, url.pathname, request.headers.get('content-type'))
        ? await request.clone().text() : null;
      const response = await dispatch(request);
      journal.record(arrival, { method: request.method, path: url.pathname, search: url.search, headers: request.headers, bodyText, status: response.status });
      return response;
    },
    async close() {
      await webhooks?.close();
      await ctx.engine.close();
    },
    ...(check ? { check } : {}),
  };
}

/** `request` at `url` (a Request's URL cannot change), its body read once. */
async function retarget(request: Request, url: URL): Promise<Request> {
  const body = request.body === null ? undefined : await request.arrayBuffer();
  return new Request(url, { method: request.method, headers: request.headers, body });
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
      checker ??= import('./routes/answer-check.js').then((m) => new m.AnswerChecker(file, basePath));
      await (await checker).check(method, url, response);
    } catch (err) {
      console.error('mock: cannot check an answer against the OpenAPI document', err);
    }
  };
}
