/**
 * A small node:http adapter over the mock's handlers (no framework): normalises each request target
 * once (request-target.ts) and hands that one URL to the admin-access decision, to fault matching and
 * to the app as a Fetch Request, then writes the Response back. A Host the mock does not serve is 421
 * (http/host-check.ts), an admin request from a page of another origin 403 (http/admin-access.ts).
 * Client input never gets a 5xx: a bad
 * target is 400, a body over 1 MiB 413, a request node cannot parse a JSON 400. Injected faults
 * (faults.ts) are applied here, and every answer's `Date` is the virtual clock's; while the server
 * listens the engine follows real time, and on close it stops and writes the state file. Every request
 * on the wire is recorded in the request log here, once its answer is written or its connection dropped,
 * refused ones (400, 404, 405, 413, faults) included.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { networkInterfaces, hostname } from 'node:os';
import { adminAccessAllowed, adminRequestRefusal, isLoopbackAddress, randomAdminToken } from './http/admin-access.js';
import { isHostRefusal, ServedHosts } from './http/host-check.js';
import { notFound, type MockApp } from './app.js';
import { NodeRequest } from './http/node-request.js';
import { JsonAnswer, JsonText, type Answer } from './route-helper/route.js';
import { JsonPage } from './routes/listings.js';
import { keepsBody, type Seen } from './request-log/request-log.js';
import { BUSY_RETRY_AFTER_S, busyBody, LoadGauge, type LoadLimits } from './http/load-limits.js';
import { isAdminPath, TargetMemo } from './http/request-target.js';
import { DateStamp } from './http/date-stamp.js';
import { underBase } from './http/router.js';
import { faultAnswer } from './http/faults.js';

/** Largest request body the mock reads. */
const MAX_BODY = 1 << 20;
/** The decision for a request no fault applies to. */
const NO_FAULT = { action: 'none', latencyMs: 0, handlerDelayMs: 0, retryAfter: 0 } as const;
/** The body of a request framed without one. */
const NO_BODY = Buffer.alloc(0);
/** The 413's body (one object: it is only serialised). */
const TOO_LARGE = { code: 'VAL0001', message: `request body: larger than ${MAX_BODY} bytes (1 MiB)` };
/** Methods node parses but a Fetch Request refuses to carry; no route uses them. */
const FETCH_FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** A listening mock. */
export interface RunningServer {
  server: Server;
  /** `http://HOST:PORT` */
  origin: string;
  port: number;
  /** The token admin routes need off loopback (given, or random for a non-loopback bind); null: none. */
  adminToken: string | null;
  /** What the server holds now (connections, body bytes) against its bounds. */
  load: LoadGauge;
  close(): Promise<void>;
}

/** How the server guards its admin routes. */
export interface ServerOptions {
  /** `--admin-token`: admin callers present it; without one a non-loopback bind gets a random one. */
  adminToken?: string;
  /** Bounds on connections and body bytes held at once (default DEFAULT_LOAD_LIMITS). */
  limits?: LoadLimits;
  /** `--allow-host`: names (read by readAllowedHost) served besides loopback and the bound address. */
  allowHosts?: readonly string[];
}

/** Body bytes a request holds of the gauge, given back when its answer is done (or its connection dropped). */
interface Hold {
  bytes: number;
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

/** What a connection gets when node's parser refuses the request itself (before any handler runs). */
function answerClientError(err: Error & { code?: string; rawPacket?: Buffer }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const [status, reason] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : err.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
        ? [413, 'Payload Too Large']
        : [400, 'Bad Request'];
  const text = JSON.stringify({
    code: 'VAL0001',
    message: `request: cannot be parsed as HTTP/1.1 (${err.code ?? 'parse error'}: ${err.message})`,
  });
  // The answer to a HEAD carries no body, or the client reads the body as a stray next response.
  const head = err.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${head ? '' : text}`,
  );
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

/** Writes a route's answer: JSON text as it is, a Response as writeResponse does. */
async function writeAnswer(res: ServerResponse, answer: Answer): Promise<void> {
  if (answer instanceof JsonText) writeText(res, answer);
  else await writeResponse(res, answer);
}

/** Whether an address is a wildcard bind (every address of the machine). */
function isWildcard(address: string): boolean {
  return address === '0.0.0.0' || address === '::';
}

/** The addresses of this machine's interfaces and its host name: what a wildcard bind is reached by. */
function machineNames(): string[] {
  const out = [hostname()];
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.push(a.address);
  return out;
}

/**
 * Starts an HTTP server for `app` on host:port (port 0 picks a free one). Admin routes answer loopback
 * callers on a loopback bind, and only callers with the admin token on any other.
 */
export async function startHttpServer(app: MockApp, host = '127.0.0.1', port = 0, options: ServerOptions = {}): Promise<RunningServer> {
  let origin = '';
  let boundHost = host;
  let adminToken: string | null = options.adminToken ?? null;
  const engine = app.ctx.engine;
  const requestLog = app.requestLog;
  const gauge = new LoadGauge(options.limits);
  // Connections past the bound: each request on one is answered 503 and the connection closed.
  const overBound = new WeakSet<Socket>();
  const dates = new DateStamp();
  const targets = new TargetMemo();
  // Read once the server is bound (the bound address is known then); no request comes before.
  let hosts: ServedHosts;
  /** Answers one request; `expectation` is set when its Expect header asks for something other than 100-continue. */
  const handle = async (req: IncomingMessage, res: ServerResponse, expectation = false): Promise<void> => {
    const method = req.method ?? 'GET';
    const arrival = requestLog.arrive(req.headers.authorization);
    // Filled in as the request is read; recorded once the answer is out (status null: dropped unanswered).
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const seen: Seen = {
      method,
      path: (q < 0 ? raw : raw.slice(0, q)).slice(0, 200),
      search: '',
      headers: req.headers,
      bodyText: null,
      status: null,
    };
    const hold: Hold = { bytes: 0 };
    // One listener for both (a request's closures and listeners are a share of a small page's cost).
    res.once('close', () => {
      gauge.release(hold.bytes);
      if (!arrival) return;
      seen.status = res.headersSent ? res.statusCode : null;
      requestLog.record(arrival, seen);
    });
    // The normalised URL once read (an answer to a target that cannot be read is checked against '/').
    let url: URL | null = null;
    // The marketplace's Date is its own clock's, the clock of its data: a client reads "now" from it
    // (src/api/market-clock.ts). Set as the answer is written, so a clock move shows in its own answer.
    const stamp = (): void => void res.setHeader('date', dates.at(app.ctx.clock.now()));
    // An answer the adapter makes itself, checked like the app's own (with checkAnswers).
    const reply = async (response: Response): Promise<void> => {
      await app.check?.(method, url ?? new URL('/', origin), response);
      stamp();
      await writeResponse(res, response);
    };
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      reply(new JsonAnswer(JSON.stringify(body), { status, headers }));
    const busy = (what: 'connections' | 'bytes') => {
      gauge.refused++;
      return send(503, busyBody(what), { 'retry-after': String(BUSY_RETRY_AFTER_S), connection: 'close' });
    };
    try {
      const target = targets.read(raw, origin);
      if (!target.ok) return await send(400, { code: 'VAL0001', message: target.problem });
      url = target.url;
      // One normalised path for the access decision, the faults, the router and the request log alike.
      const path = url.pathname;
      seen.path = path;
      seen.search = url.search;
      const named = hosts.check(target.authority, req.rawHeaders);
      if (isHostRefusal(named)) return await send(named.status, named.body);
      if (overBound.has(req.socket)) return await busy('connections');
      if (expectation) {
        const expect = String(req.headers.expect).slice(0, 100);
        return await send(
          417,
          { code: 'VAL0001', message: `expect: '${expect}' is not an expectation this server meets; only 100-continue is` },
          { connection: 'close' },
        );
      }
      if (isAdminPath(path)) {
        if (!adminAccessAllowed({ path, peer: req.socket.remoteAddress, boundHost, headers: req.headers, adminToken })) {
          return await reply(notFound(method, path));
        }
        const refused = adminRequestRefusal({ path, method, headers: req.headers, host: named, served: hosts });
        if (refused) return await send(refused.status, refused.body);
      }
      // A fault's path is an API path (`/v1/orders`), matched below the base path; a path outside it is a 404, never faulted.
      const apiPath = underBase(path, app.ctx.options.basePath ?? '');
      const fault = apiPath === null ? NO_FAULT : app.ctx.faults.decide(method, apiPath);
      seen.fault =
        fault.action !== 'none' ? fault.action : fault.latencyMs > 0 ? 'latency' : fault.handlerDelayMs > 0 ? 'handler_delay' : null;
      if (fault.latencyMs > 0) await new Promise((r) => setTimeout(r, fault.latencyMs));
      if (fault.action === 'drop') return void req.socket.destroy();
      const faulted = faultAnswer(fault);
      if (faulted) return await send(faulted.status, faulted.body, faulted.headers);
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > MAX_BODY) return await send(413, TOO_LARGE, { connection: 'close' });
      if (FETCH_FORBIDDEN.has(method)) return await reply(app.unrouted(method, url));
      // A declared length is held before a byte is read, so bodies that together pass the bound are refused whole.
      if (declared > 0) {
        if (!gauge.reserve(declared)) return await busy('bytes');
        hold.bytes = declared;
      }
      // A request framed without a body (no length, no chunked coding: a GET as clients send it) has
      // none to read; node drains what is left of the request once the answer is done.
      const body = declared === 0 && req.headers['transfer-encoding'] === undefined ? NO_BODY : await readBody(req, gauge, hold);
      if (body === 'aborted') return;
      if (body === 'busy') return await busy('bytes');
      if (body === 'too-large') return await send(413, TOO_LARGE, { connection: 'close' });
      if (arrival && keepsBody(method, path, req.headers['content-type'])) seen.bodyText = body.toString('utf8');
      // A slow server: the request is read, and handled later even if the client has stopped waiting.
      if (fault.handlerDelayMs > 0) await new Promise((r) => setTimeout(r, fault.handlerDelayMs));
      // Every route is answered from node's request: no Fetch Request, msw or Response (app.ts `answer`).
      const bytes = method !== 'GET' && method !== 'HEAD' && body.length > 0 ? body : null;
      // An answer given at once (a listings page of an unchanged world) is written in this same turn.
      const given = app.answerNow(new NodeRequest(req, method, url, bytes, body));
      const answer = given instanceof Promise ? await given : given;
      // The handler ran (an order may now exist) but the client never hears back.
      if (fault.action === 'drop_response') return void req.socket.destroy();
      if (answer instanceof JsonPage) return writePage(res, answer, dates.at(app.ctx.clock.now()));
      stamp();
      await writeAnswer(res, answer);
    } catch (err) {
      // A client gone mid-answer is its own business, not the mock's fault: no one is left to tell.
      if (req.socket.destroyed) return void res.destroy();
      console.error('mock: adapter error', err);
      if (!res.headersSent) await send(500, { code: 'SYS0001', message: 'Application Error' }).catch(() => res.destroy());
      else res.destroy();
    }
  };
  const server = createServer((req, res) => void handle(req, res));
  // Node answers a failed expectation with a bare 417 of its own; this one is JSON like every other error.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => void handle(req, res, true));
  server.on('connection', (socket: Socket) => {
    if (!gauge.open()) overBound.add(socket);
    socket.once('close', () => gauge.closed());
  });
  server.on('clientError', answerClientError);
  server.keepAliveTimeout = 5000;
  server.on('close', () => void engine.close().catch((err: unknown) => console.error('mock: cannot write the state file', err)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  origin = `http://${h}:${addr.port}`;
  boundHost = addr.address;
  hosts = new ServedHosts({
    boundAddress: boundHost,
    bindName: host,
    allowed: options.allowHosts ?? [],
    ...(isWildcard(boundHost) ? { machineAddresses: machineNames() } : {}),
  });
  if (adminToken === null && app.ctx.options.admin && !isLoopbackAddress(boundHost)) adminToken = randomAdminToken();
  if (adminToken !== null) requestLog.addSecret(adminToken);
  engine.start();
  return {
    server,
    origin,
    port: addr.port,
    adminToken,
    load: gauge,
    close: () =>
      new Promise<void>((resolve, reject) => {
        const saved = engine.close();
        server.close(() => void saved.then(resolve, reject));
        server.closeAllConnections();
      }),
  };
}
