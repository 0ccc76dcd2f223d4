/**
 * A small node:http adapter over the mock's handlers (no framework): turns each incoming request
 * into a Fetch Request, asks the app, and writes the Response back. Paths are matched with or
 * without a trailing slash; admin routes answer only to loopback callers. Injected faults (faults.ts)
 * are applied here; while the server listens the engine follows real time, and on close it stops and
 * writes the state file.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockApp } from './app.js';
import { engineOf } from './engine/engine.js';
import { decideFault } from './faults.js';

/** Largest request body the mock reads. */
const MAX_BODY = 1 << 20;

/** A listening mock. */
export interface RunningServer {
  server: Server;
  /** `http://HOST:PORT` */
  origin: string;
  port: number;
  close(): Promise<void>;
}

function isLoopback(address: string | undefined): boolean {
  return !!address && (address.startsWith('127.') || address === '::1' || address === '::ffff:127.0.0.1' || address.startsWith('::ffff:127.'));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Turns one node request into a Fetch Request for the app (path without its trailing slash). */
export function toFetchRequest(req: IncomingMessage, origin: string, body: Buffer): Request {
  const url = new URL(req.url ?? '/', origin);
  if (url.pathname.length > 1 && url.pathname.endsWith('/')) url.pathname = url.pathname.replace(/\/+$/, '');
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
    else headers.set(k, v);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD' && body.length > 0;
  return new Request(url, { method, headers, body: hasBody ? new Uint8Array(body) : undefined });
}

/** Writes a Fetch Response to a node response. */
export async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((v, k) => {
    if (k === 'set-cookie') return;
    headers[k] = v;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  const buf = Buffer.from(await response.arrayBuffer());
  headers['content-length'] = String(buf.length);
  res.writeHead(response.status, headers);
  res.end(buf);
}

/** Starts an HTTP server for `app` on host:port (port 0 picks a free one). */
export async function startHttpServer(app: MockApp, host = '127.0.0.1', port = 0): Promise<RunningServer> {
  let origin = '';
  const engine = engineOf(app.ctx);
  const server = createServer(async (req, res) => {
    try {
      const path = (req.url ?? '/').split('?')[0]!;
      const method = req.method ?? 'GET';
      if (path.startsWith('/__mock/') && !isLoopback(req.socket.remoteAddress)) {
        return send(res, 403, { code: 'FORBIDDEN', message: 'admin routes answer only to loopback callers' });
      }
      const fault = decideFault(app.ctx, method, path);
      if (fault.latencyMs > 0) await new Promise((r) => setTimeout(r, fault.latencyMs));
      if (fault.action === 'drop') return void req.socket.destroy();
      if (fault.action === 'error') return send(res, 500, { code: 'SYS0001', message: 'Application Error' });
      if (fault.action === 'rate_limit') {
        res.setHeader('retry-after', String(fault.retryAfter));
        return send(res, 429, { code: 'SYS0429', message: `Too many requests; retry after ${fault.retryAfter} s` });
      }
      const body = await readBody(req);
      if (body === null) return send(res, 413, { code: 'VAL0001', message: `request body larger than ${MAX_BODY} bytes` });
      const response = await app.handle(toFetchRequest(req, origin, body));
      // The handler ran (an order may now exist) but the client never hears back.
      if (fault.action === 'drop_response') return void req.socket.destroy();
      await writeResponse(res, response);
    } catch (err) {
      console.error('mock: adapter error', err);
      if (!res.headersSent) send(res, 500, { code: 'SYS0001', message: 'Application Error' });
      else res.destroy();
    }
  });
  server.keepAliveTimeout = 5000;
  server.on('close', () => void engine.close().catch((err: unknown) => console.error('mock: cannot write the state file', err)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  origin = `http://${h}:${addr.port}`;
  engine.start();
  return {
    server,
    origin,
    port: addr.port,
    close: () => new Promise<void>((resolve, reject) => {
      const saved = engine.close();
      server.close(() => void saved.then(resolve, reject));
      server.closeAllConnections();
    }),
  };
}
