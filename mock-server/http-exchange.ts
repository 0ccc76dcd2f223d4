/**
 * One request on the wire and its answer, as the HTTP adapter (http-adapter.ts) takes it: the checks every request
 * goes through on its one normalised target (Host, a connection past the bound, Expect, admin access, faults, body
 * bounds), then the app, then the answer written. A step returns a promise only when it must wait (a fault's delay,
 * a body to read, a route that answers later, an answer the adapter makes itself); a listings page of an unchanged
 * world is answered in the same turn without one. The request's state is this object's fields and its steps are
 * methods: no closure, listener or promise is made for a request that waits for nothing (they were a share of a small
 * page's cost, and of the garbage each request left). It is the request log's `Seen`, recorded once the answer is out
 * or the connection dropped (status null then).
 */
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { adminAccessAllowed, adminRequestRefusal } from './http/admin-access.js';
import { isHostRefusal, type ServedHosts } from './http/host-check.js';
import { notFound, type MockApp } from './app.js';
import { NodeRequest } from './http/node-request.js';
import { JsonAnswer, JsonText, type Answer } from './route-helper/route.js';
import { JsonPage } from './routes/listings.js';
import { keepsBody, type Arrival, type RequestLog, type Seen } from './request-log/request-log.js';
import { BUSY_RETRY_AFTER_S, busyBody, type LoadGauge } from './http/load-limits.js';
import { isAdminPath, type TargetMemo } from './http/request-target.js';
import type { DateStamp } from './http/date-stamp.js';
import { underBase } from './http/router.js';
import { faultAnswer, type FaultDecision } from './http/faults.js';

/** Largest request body the mock reads. */
const MAX_BODY = 1 << 20;
/** The decision for a request no fault applies to. */
const NO_FAULT: FaultDecision = { action: 'none', latencyMs: 0, handlerDelayMs: 0, retryAfter: 0 };
/** The body of a request framed without one. */
const NO_BODY = Buffer.alloc(0);
/** The 413's body (one object: it is only serialised). */
const TOO_LARGE = { code: 'VAL0001', message: `request body: larger than ${MAX_BODY} bytes (1 MiB)` };
/** Methods node parses but a Fetch Request refuses to carry; no route uses them. */
const FETCH_FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** What every request to one server shares: the app, its request log and bounds, and what is known once it is bound. */
export interface Door {
  readonly app: MockApp;
  readonly requestLog: RequestLog;
  readonly gauge: LoadGauge;
  /** Connections past the bound: each request on one is answered 503 and the connection closed. */
  readonly overBound: WeakSet<Socket>;
  readonly dates: DateStamp;
  readonly targets: TargetMemo;
  /** `http://HOST:PORT`, the bound address and what it serves (set once bound: no request comes before). */
  origin: string;
  boundHost: string;
  hosts: ServedHosts;
  adminToken: string | null;
}

/** Body bytes a request holds of the gauge, given back when its answer is done (or its connection dropped). */
export interface Hold {
  bytes: number;
}

/** A node response that knows its exchange, so that one listener function serves every response (no closure per request). */
export class ExchangeResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  exchange: Exchange | null = null;
}

/** The 'close' listener of every response: the exchange records its request. */
function closed(this: ExchangeResponse): void {
  this.exchange?.closed();
}

/** Resolves after `ms`. */
function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Reads the body, holding its bytes in `gauge` (past what `hold` took already for a declared length).
 * Stops, leaving the rest unread, as soon as the body passes MAX_BODY ('too-large') or the gauge's bound
 * ('busy'); 'aborted' when the client gave up mid-body (its business: there is no one to answer).
 */
function readBody(req: IncomingMessage, gauge: LoadGauge, hold: Hold): Promise<Buffer | 'too-large' | 'busy' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (why: 'too-large' | 'busy') => {
      req.off('data', onData);
      req.pause();
      resolve(why);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) return stop('too-large');
      if (size > hold.bytes) {
        if (!gauge.reserve(size - hold.bytes)) return stop('busy');
        hold.bytes = size;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', () => resolve('aborted'));
  });
}

/** Writes a Fetch Response to a node response: a JsonAnswer's text as it is, any other body read once. */
export async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((v, k) => {
    if (k === 'set-cookie') return;
    headers[k] = v;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  if (response instanceof JsonAnswer && !response.bodyUsed) {
    headers['content-length'] = String(Buffer.byteLength(response.serialised));
    res.writeHead(response.status, headers);
    res.end(response.serialised);
    return;
  }
  const buf = Buffer.from(await response.arrayBuffer());
  headers['content-length'] = String(buf.length);
  res.writeHead(response.status, headers);
  res.end(buf);
}

/** Writes JSON text exactly as writeResponse writes the same JsonAnswer: headers in Fetch's order (by name), then content-length. */
function writeText(res: ServerResponse, answer: JsonText): void {
  const named: Record<string, string> = {};
  for (const [k, v] of Object.entries(answer.headers)) named[k.toLowerCase()] = v;
  named['content-type'] = 'application/json';
  const headers: Record<string, string> = {};
  for (const k of Object.keys(named).sort()) headers[k] = named[k]!;
  const body = answer.body();
  headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  res.writeHead(answer.status, headers);
  res.end(body);
}

/**
 * Writes a page of listings as writeText would after `stamp` (it has no headers of its own), its chunks
 * as they are. `date` goes in the one header object, in the place stamp's setHeader gives it: a header
 * set before writeHead makes node merge the two one header at a time.
 */
function writePage(res: ServerResponse, page: JsonPage, date: string): void {
  res.writeHead(page.status, { date, 'content-type': 'application/json', 'content-length': String(page.size) });
  // A kept page is one buffer: `end` writes the head and it in one writev as well, with less on the way.
  if (page.chunks.length === 1) return void res.end(page.chunks[0]);
  // Corked, the head and every chunk leave in one writev when `end` uncorks: the kept bytes are
  // written as they are, never copied into a page buffer first.
  res.cork();
  for (const chunk of page.chunks) res.write(chunk);
  res.end();
}

/** Writes a route's answer: JSON text as it is (in this turn), a Response as writeResponse does. */
function writeAnswer(res: ServerResponse, answer: Answer): void | Promise<void> {
  if (answer instanceof JsonText) return writeText(res, answer);
  return writeResponse(res, answer);
}

/** One request and its answer (see the file's comment); `run` answers it. */
export class Exchange implements Seen, Arrival {
  readonly method: string;
  /** The target as sent, and its path (until the target is read: what a target that cannot be read is recorded as). */
  private readonly raw: string;
  path: string;
  search = '';
  readonly headers: IncomingMessage['headers'];
  bodyText: string | null = null;
  status: number | null = null;
  fault: string | null = null;
  readonly violations = undefined;
  /** Body bytes held of the gauge (a Hold). */
  bytes = 0;
  /** When and from whom it arrived, as the request log notes it (an Arrival: no object of its own a request). */
  realAt = 0;
  virtualAt = 0;
  started = 0;
  account: string | null = null;
  /** The normalised URL once read (an answer to a target that cannot be read is checked against '/'). */
  private url: URL | null = null;
  private readonly arrival: Arrival | null;

  constructor(
    private readonly door: Door,
    private readonly req: IncomingMessage,
    private readonly res: ExchangeResponse,
  ) {
    this.method = req.method ?? 'GET';
    this.arrival = door.requestLog.arrive(req.headers.authorization, this);
    const raw = (this.raw = req.url ?? '/');
    const q = raw.indexOf('?');
    this.path = (q < 0 ? raw : raw.slice(0, q)).slice(0, 200);
    this.headers = req.headers;
    res.exchange = this;
    res.on('close', closed);
  }

  /** The answer is out or the connection dropped: the held bytes go back and the request is recorded. */
  closed(): void {
    this.door.gauge.release(this.bytes);
    if (!this.arrival) return;
    this.status = this.res.headersSent ? this.res.statusCode : null;
    this.door.requestLog.record(this.arrival, this);
  }

  /** Answers the request: in this turn when nothing must be waited for, else the promise of it. */
  run(expectation: boolean): void | Promise<void> {
    const { door, req, method } = this;
    const target = door.targets.read(this.raw, door.origin);
    if (!target.ok) return this.send(400, { code: 'VAL0001', message: target.problem });
    this.url = target.url;
    // One normalised path for the access decision, the faults, the router and the request log alike.
    const path = target.path;
    this.path = path;
    this.search = target.search;
    const named = door.hosts.check(target.authority, req.rawHeaders);
    if (isHostRefusal(named)) return this.send(named.status, named.body);
    if (door.overBound.has(req.socket)) return this.busy('connections');
    if (expectation) {
      const expect = String(req.headers.expect).slice(0, 100);
      return this.send(
        417,
        { code: 'VAL0001', message: `expect: '${expect}' is not an expectation this server meets; only 100-continue is` },
        { connection: 'close' },
      );
    }
    if (isAdminPath(path)) {
      const { boundHost, adminToken, hosts } = door;
      if (!adminAccessAllowed({ path, peer: req.socket.remoteAddress, boundHost, headers: req.headers, adminToken })) {
        return this.reply(notFound(method, path));
      }
      const refused = adminRequestRefusal({ path, method, headers: req.headers, host: named, served: hosts });
      if (refused) return this.send(refused.status, refused.body);
    }
    // A fault's path is an API path (`/v1/orders`), matched below the base path; a path outside it is a 404, never faulted.
    const ctx = door.app.ctx;
    const apiPath = underBase(path, ctx.options.basePath ?? '');
    const fault = apiPath === null ? NO_FAULT : ctx.faults.decide(method, apiPath);
    this.fault =
      fault.action !== 'none' ? fault.action : fault.latencyMs > 0 ? 'latency' : fault.handlerDelayMs > 0 ? 'handler_delay' : null;
    if (fault.latencyMs > 0 || fault.action !== 'none') return this.faulted(fault);
    return this.bounded(fault);
  }

  /** A fault's delay, a dropped connection or the fault's own answer; else on as without one. */
  private async faulted(fault: FaultDecision): Promise<void> {
    if (fault.latencyMs > 0) await sleep(fault.latencyMs);
    if (fault.action === 'drop') return void this.req.socket.destroy();
    const faulted = faultAnswer(fault);
    if (faulted) return await this.send(faulted.status, faulted.body, faulted.headers);
    await this.bounded(fault);
  }

  /** The body's bounds, then the body (none to read for a request framed without one: a GET as clients send it). */
  private bounded(fault: FaultDecision): void | Promise<void> {
    const { req, door } = this;
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY) return this.send(413, TOO_LARGE, { connection: 'close' });
    if (FETCH_FORBIDDEN.has(this.method)) return this.reply(door.app.unrouted(this.method, this.url!));
    // A declared length is held before a byte is read, so bodies that together pass the bound are refused whole.
    if (declared > 0) {
      if (!door.gauge.reserve(declared)) return this.busy('bytes');
      this.bytes = declared;
    }
    // Node drains what is left of a request framed without a body once the answer is done.
    if (declared === 0 && req.headers['transfer-encoding'] === undefined) return this.withBody(NO_BODY, fault);
    return this.readThenAnswer(fault);
  }

  private async readThenAnswer(fault: FaultDecision): Promise<void> {
    const body = await readBody(this.req, this.door.gauge, this);
    if (body === 'aborted') return;
    if (body === 'busy') return await this.busy('bytes');
    if (body === 'too-large') return await this.send(413, TOO_LARGE, { connection: 'close' });
    await this.withBody(body, fault);
  }

  /** The body read: kept for the request log when it keeps it, then to the app (after a slow server's delay). */
  private withBody(body: Buffer, fault: FaultDecision): void | Promise<void> {
    if (this.arrival && keepsBody(this.method, this.path, this.req.headers['content-type'])) this.bodyText = body.toString('utf8');
    // A slow server: the request is read, and handled later even if the client has stopped waiting.
    if (fault.handlerDelayMs > 0) return sleep(fault.handlerDelayMs).then(() => this.answer(body, fault));
    return this.answer(body, fault);
  }

  /** The app's answer, written in this same turn when it is given at once (a listings page of an unchanged world). */
  private answer(body: Buffer, fault: FaultDecision): void | Promise<void> {
    const method = this.method;
    // Every route is answered from node's request: no Fetch Request, msw or Response (app.ts `answer`).
    const bytes = method !== 'GET' && method !== 'HEAD' && body.length > 0 ? body : null;
    const given = this.door.app.answerNow(new NodeRequest(this.req, method, this.url!, bytes, body, this.path, this.search));
    if (given instanceof Promise) return given.then((answer) => this.write(answer, fault));
    return this.write(given, fault);
  }

  private write(answer: Answer, fault: FaultDecision): void | Promise<void> {
    // The handler ran (an order may now exist) but the client never hears back.
    if (fault.action === 'drop_response') return void this.req.socket.destroy();
    const door = this.door;
    if (answer instanceof JsonPage) return writePage(this.res, answer, door.dates.at(door.app.ctx.clock.now()));
    this.stamp();
    return writeAnswer(this.res, answer);
  }

  /** What to do when a step threw: nothing for a client gone mid-answer (its own business), else a 500 if the head is not out. */
  async failed(err: unknown): Promise<void> {
    if (this.req.socket.destroyed) return void this.res.destroy();
    console.error('mock: adapter error', err);
    if (!this.res.headersSent) await this.send(500, { code: 'SYS0001', message: 'Application Error' }).catch(() => this.res.destroy());
    else this.res.destroy();
  }

  /**
   * The marketplace's Date is its own clock's, the clock of its data: a client reads "now" from it
   * (src/api/market-clock.ts). Set as the answer is written, so a clock move shows in its own answer.
   */
  private stamp(): void {
    this.res.setHeader('date', this.door.dates.at(this.door.app.ctx.clock.now()));
  }

  /** An answer the adapter makes itself, checked like the app's own (with checkAnswers). */
  private async reply(response: Response): Promise<void> {
    const door = this.door;
    await door.app.check?.(this.method, this.url ?? new URL('/', door.origin), response);
    this.stamp();
    await writeResponse(this.res, response);
  }

  private send(status: number, body: unknown, headers: Record<string, string> = {}): Promise<void> {
    return this.reply(new JsonAnswer(JSON.stringify(body), { status, headers }));
  }

  private busy(what: 'connections' | 'bytes'): Promise<void> {
    this.door.gauge.refused++;
    return this.send(503, busyBody(what), { 'retry-after': String(BUSY_RETRY_AFTER_S), connection: 'close' });
  }
}
