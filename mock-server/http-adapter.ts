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
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { networkInterfaces, hostname } from 'node:os';
import { isLoopbackAddress, randomAdminToken } from './http/admin-access.js';
import { ServedHosts } from './http/host-check.js';
import type { MockApp } from './app.js';
import { LoadGauge, type LoadLimits } from './http/load-limits.js';
import { TargetMemo } from './http/request-target.js';
import { DateStamp } from './http/date-stamp.js';
import { Exchange, ExchangeResponse, type Door } from './http-exchange.js';

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
  const gauge = new LoadGauge(options.limits);
  const door: Door = {
    app,
    requestLog: app.requestLog,
    gauge,
    overBound: new WeakSet<Socket>(),
    dates: new DateStamp(),
    targets: new TargetMemo(),
    origin: '',
    boundHost: host,
    // Read once the server is bound (the bound address is known then); no request comes before.
    hosts: null as unknown as ServedHosts,
    adminToken: options.adminToken ?? null,
  };
  const engine = app.ctx.engine;
  /** Answers one request; `expectation` is set when its Expect header asks for something other than 100-continue. */
  const handle = (req: IncomingMessage, res: ExchangeResponse, expectation = false): void => {
    const exchange = new Exchange(door, req, res);
    try {
      const answered = exchange.run(expectation);
      if (answered !== undefined) answered.then(undefined, (err: unknown) => exchange.failed(err));
    } catch (err) {
      void exchange.failed(err);
    }
  };
  const server = createServer({ ServerResponse: ExchangeResponse }, (req, res) => handle(req, res));
  // Node answers a failed expectation with a bare 417 of its own; this one is JSON like every other error.
  server.on('checkExpectation', (req: IncomingMessage, res: ExchangeResponse) => handle(req, res, true));
  server.on('connection', (socket: Socket) => {
    if (!gauge.open()) door.overBound.add(socket);
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
  const origin = (door.origin = `http://${h}:${addr.port}`);
  const boundHost = (door.boundHost = addr.address);
  door.hosts = new ServedHosts({
    boundAddress: boundHost,
    bindName: host,
    allowed: options.allowHosts ?? [],
    ...(isWildcard(boundHost) ? { machineAddresses: machineNames() } : {}),
  });
  if (door.adminToken === null && app.ctx.options.admin && !isLoopbackAddress(boundHost)) door.adminToken = randomAdminToken();
  const adminToken = door.adminToken;
  if (adminToken !== null) app.requestLog.addSecret(adminToken);
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
