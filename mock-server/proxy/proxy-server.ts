/**
 * The validating proxy (`mkt mock proxy`): a loopback HTTP server that forwards every request to an
 * upstream marketplace (the real service, or another mock) with undici and returns its answer
 * unchanged — method, target, headers and body bytes both ways, less the hop-by-hop headers of each
 * connection (and Host, which names the upstream). The answer is streamed to the client as it comes,
 * and only its first 8 MiB, raw and decoded, are kept for the check (answer-body.ts): an answer the
 * proxy cannot read whole is a violation saying why. Each exchange is checked against the OpenAPI
 * document (exchange-check.ts) and recorded in the proxy's own request log (request-log/request-log.ts,
 * secrets redacted with what the proxy learnt of them: seen-secrets.ts) with its `violations`, and
 * counted for the summary printed on stop (summary.ts). The proxy answers one route itself, GET
 * /__mock/requests (the mock's query, plus `violations=true`); an upstream it cannot reach is a 502
 * naming it, recorded too. Like the mock it refuses a Host it does not serve (421) and, at admin
 * paths, a page of another origin (403) or a write not declared JSON (415): http/host-check.ts,
 * http/admin-access.ts.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { DEFAULT_REQUEST_LOG_SIZE, INSPECT_PAGE } from '../../src/contract/mock-inspect.js';
import { ApiError } from '../kit/api-error.js';
import { sharedDocumentChecker } from '../http/document-check.js';
import { adminRequestRefusal } from '../http/admin-access.js';
import { isHostRefusal, ServedHosts } from '../http/host-check.js';
import { normaliseTarget, PathMemo } from '../http/request-target.js';
import { parsePage } from '../search/query-params.js';
import { readSince, readViolationsFilter } from '../routes/inspect.js';
import { keepsBody, RequestLog, type Seen } from '../request-log/request-log.js';
import { listEnvelope } from '../route-helper/route.js';
import { AnswerBody, MAX_CHECKED_BODY } from './answer-body.js';
import { checkExchange, type Exchange } from './exchange-check.js';
import { SeenSecrets } from './seen-secrets.js';
import { ViolationTally } from './summary.js';

/** A request body larger than this is refused (413) rather than held: the marketplace's limit is 1 MiB. */
const MAX_REQUEST_BODY = 16 * 1024 * 1024;
/** How long the upstream may take to connect and to send its headers. */
const CONNECT_TIMEOUT_MS = 10_000;
const HEADERS_TIMEOUT_MS = 120_000;
/** Headers of one connection, never forwarded (RFC 9110 §7.6.1), with Host (undici names the upstream) and Expect (node answers it). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const REQUEST_ONLY = new Set(['host', 'expect', 'content-length']);
/** The proxy's own route. */
const JOURNAL_PATH = '/__mock/requests';

/** How a proxy is started. */
export interface ProxyOptions {
  /** The marketplace forwarded to: http(s)://host[:port][/base]. */
  upstream: string;
  /** Requests its request log keeps (default DEFAULT_REQUEST_LOG_SIZE). */
  requestLogSize?: number;
  /** The wall clock (tests). */
  realNow?: () => number;
  /** The most of an answer body checked, raw and decoded (default MAX_CHECKED_BODY, 8 MiB; tests make it small). */
  maxCheckedBody?: number;
  /** `--allow-host`: names (read by readAllowedHost) the proxy serves besides loopback ones. */
  allowHosts?: readonly string[];
}

/** A listening proxy. */
export interface RunningProxy {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  port: number;
  upstream: URL;
  requestLog: RequestLog;
  tally: ViolationTally;
  close(): Promise<void>;
}

/** The upstream URL as given: http or https, no query, no fragment; its path (no trailing slash) prefixes every forwarded target. */
export function parseUpstream(raw: string): URL | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: `'${raw}' is not a URL` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `must be an http or https URL, got '${raw}'` };
  if (url.search !== '' || url.hash !== '') return { problem: `takes no query or fragment, got '${raw}'` };
  if (url.username !== '' || url.password !== '') return { problem: 'takes no user or password in the URL' };
  return url;
}

/** The header names a Connection header lists: hop-by-hop too. */
function connectionNames(connection: string | string[] | undefined): Set<string> {
  return new Set(
    [connection ?? '']
      .flat()
      .join(',')
      .toLowerCase()
      .split(',')
      .map((s) => s.trim()),
  );
}

/** An answer's headers to pass on: all but the hop-by-hop ones (and those its Connection names). */
function forwardable(headers: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const named = connectionNames(headers.connection);
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    out[name] = value;
  }
  return out;
}

/** A request's headers to send on, as node read them off the wire (names as spelt, repeats apart, in order), less hop-by-hop ones and REQUEST_ONLY. */
function forwardableRaw(req: IncomingMessage): string[] {
  const named = connectionNames(req.headers.connection);
  const raw = req.rawHeaders;
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !REQUEST_ONLY.has(name) && !named.has(name)) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** The whole request body, or 'too-large' / 'aborted'. */
function readBody(req: IncomingMessage): Promise<Buffer | 'too-large' | 'aborted'> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BODY) {
        req.removeAllListeners('data');
        req.pause();
        resolve('too-large');
      } else chunks.push(chunk);
    });
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', () => resolve('aborted'));
    req.once('close', () => resolve('aborted')); // a no-op once resolved
  });
}

/** Resolves once `res` can take more (or is gone): the answer is passed on at the client's pace, never piled up in the proxy. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Whether an undici failure is the request's own (a target or header undici will not send), not the upstream's. */
function isRequestRefused(err: unknown): boolean {
  return (err as { code?: string }).code === 'UND_ERR_INVALID_ARG' || err instanceof TypeError;
}

/** Starts a proxy on 127.0.0.1:`port` (0 picks a free one). */
export async function startProxy(options: ProxyOptions, port = 0): Promise<RunningProxy> {
  const upstream = parseUpstream(options.upstream);
  if ('problem' in upstream) throw new Error(`upstream ${upstream.problem}`);
  const prefix = upstream.pathname.replace(/\/+$/, '');
  const realNow = options.realNow ?? Date.now;
  const maxCheckedBody = options.maxCheckedBody ?? MAX_CHECKED_BODY;
  const secrets = new SeenSecrets(realNow);
  const requestLog = new RequestLog(secrets, options.requestLogSize ?? DEFAULT_REQUEST_LOG_SIZE, realNow);
  const tally = new ViolationTally();
  const doc = sharedDocumentChecker();
  const dispatcher = new Agent({
    connect: { timeout: CONNECT_TIMEOUT_MS },
    headersTimeout: HEADERS_TIMEOUT_MS,
    bodyTimeout: HEADERS_TIMEOUT_MS,
  });
  const paths = new PathMemo();
  // Bound to 127.0.0.1 only: a page of another site that points its own name there (DNS rebinding)
  // would otherwise read the request log and drive the upstream through the proxy, whose Host it names.
  const hosts = new ServedHosts({ boundAddress: '127.0.0.1', allowed: options.allowHosts ?? [] });
  let origin = '';

  const json = (res: ServerResponse, status: number, body: unknown): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
  };

  const answerJournal = (res: ServerResponse, params: URLSearchParams): void => {
    try {
      const since = readSince(params);
      const only = readViolationsFilter(params);
      const { offset, limit } = parsePage(params, INSPECT_PAGE);
      const { result, total } = only ? requestLog.listViolations(limit, since, offset) : requestLog.list(limit, since, offset);
      json(res, 200, listEnvelope(result, total));
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      json(res, err.status, err.body);
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const raw = req.url ?? '/';
    const target = normaliseTarget(raw, origin, paths);
    const q = raw.indexOf('?');
    const path = target.ok ? target.url.pathname : (q < 0 ? raw : raw.slice(0, q)).slice(0, 200);
    // A foreign Host, and a page of another origin at an admin path (its request log, or the mock's behind it), as the mock refuses them.
    const named = hosts.check(target.ok ? target.authority : null, req.rawHeaders);
    const refused = isHostRefusal(named) ? named : adminRequestRefusal({ path, method, headers: req.headers, host: named, served: hosts });
    if (!refused && target.ok && method === 'GET' && path === JOURNAL_PATH) return answerJournal(res, target.url.searchParams);
    const arrival = requestLog.arrive(req.headers.authorization);
    const seen: Seen = {
      method,
      path,
      search: target.ok ? target.url.search : '',
      headers: req.headers,
      bodyText: null,
      status: null,
      violations: [],
    };
    /** Set while a forwarded exchange's answer is not yet read to its end and checked: says so if the client leaves first. */
    let unfinished: (() => void) | null = null;
    res.once('close', () => {
      unfinished?.();
      seen.status = res.headersSent ? res.statusCode : null;
      // What a difference quotes of the request may hold a token: the tally printed on stop gets them redacted, as the request log shows them.
      seen.violations = requestLog.scrubViolations(seen.violations!);
      tally.add(seen.violations);
      requestLog.record(arrival, seen);
    });
    if (refused) return json(res, refused.status, refused.body);
    const body = await readBody(req);
    if (body === 'aborted') return;
    if (body === 'too-large')
      return json(res, 413, { code: 'VAL0001', message: `request body: larger than the proxy holds (${MAX_REQUEST_BODY} bytes)` });
    const bodyText = body.toString('utf8');
    secrets.learnRequest(path, req.headers.authorization, req.headers['content-type'], bodyText);
    if (keepsBody(method, path, req.headers['content-type'])) seen.bodyText = bodyText;
    const requestParts = target.ok
      ? {
          method,
          apiPath: path,
          query: target.url.searchParams,
          headers: { get: (n: string) => headerValue(req.headers, n) },
          body: bodyText,
        }
      : null;
    // The target as sent when it is origin-form; an absolute-form one is sent as the path and query it names.
    const sentTarget = raw.startsWith('/') ? raw : target.ok ? `${target.url.pathname}${target.url.search}` : null;
    if (sentTarget === null) {
      seen.violations = [
        {
          direction: 'request',
          operation: `${method} ${path}`,
          field: '/path',
          problem: target.ok ? 'cannot be forwarded' : target.problem,
        },
      ];
      return json(res, 400, { code: 'VAL0001', message: `request target: ${target.ok ? 'cannot be forwarded' : target.problem}` });
    }
    const check = (answer: Exchange['answer'], unread?: string): void => {
      if (requestParts) seen.violations = checkExchange(doc, { ...requestParts, answer, ...(unread === undefined ? {} : { unread }) });
    };
    // Never [] for an answer the proxy did not see: a client gone before its end leaves the exchange marked unchecked.
    unfinished = () => check(null, 'the client closed the connection before the answer ended; the answer was not checked');
    // A client gone stops the upstream's answer too: nothing is read for nobody.
    const cut = new AbortController();
    res.once('close', () => cut.abort());
    let sent: Dispatcher.ResponseData;
    try {
      sent = await request(`${upstream.origin}${prefix}${sentTarget}`, {
        method: method as 'GET',
        headers: forwardableRaw(req),
        body: method === 'GET' || method === 'HEAD' || body.length === 0 ? undefined : body,
        dispatcher,
        signal: cut.signal,
      });
    } catch (err) {
      if (cut.signal.aborted) return;
      unfinished = null;
      const reason = (err as { code?: string }).code ?? (err as Error).name;
      check(null);
      if (isRequestRefused(err)) {
        return json(res, 400, { code: 'VAL0001', message: `request: cannot be forwarded as sent (${(err as Error).message})` });
      }
      seen.fault = `upstream unreachable: ${reason}`;
      return json(res, 502, {
        code: 'PROXY_UPSTREAM',
        message: `upstream ${upstream.origin}${prefix} cannot be reached: ${reason} (${(err as Error).message})`,
      });
    }
    const status = sent.statusCode;
    const contentType = headerValue(sent.headers, 'content-type');
    // The upstream's Date, not one of the proxy's own: nothing in the answer is the proxy's.
    res.sendDate = false;
    res.writeHead(status, forwardable(sent.headers));
    if (method === 'HEAD') {
      await sent.body.dump();
      unfinished = null;
      check({ status, contentType, body: undefined });
      return void res.end();
    }
    // Passed on chunk by chunk at the client's pace; the check keeps its bounded share (answer-body.ts).
    const kept = new AnswerBody(maxCheckedBody);
    try {
      for await (const chunk of sent.body as AsyncIterable<Buffer>) {
        if (res.destroyed) break;
        kept.add(chunk);
        if (!res.write(chunk)) await drained(res);
      }
    } catch (err) {
      if (cut.signal.aborted) return;
      const reason = (err as { code?: string }).code ?? (err as Error).name;
      unfinished = null;
      seen.fault = `upstream answer cut short: ${reason}`;
      check({ status, contentType, body: undefined }, `the upstream's answer ended early (${reason}); the body was not checked`);
      return void res.destroy();
    }
    if (res.destroyed) return;
    const read = kept.read(headerValue(sent.headers, 'content-encoding'));
    const text = 'text' in read ? read.text : undefined;
    secrets.learnAnswer(path, text);
    unfinished = null;
    check({ status, contentType, body: text }, 'unread' in read ? read.unread : undefined);
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // A client gone mid-answer is its own business; anything else is the proxy's bug, said once and answered 500.
      if (req.socket.destroyed) return void res.destroy();
      console.error('mkt mock proxy: internal error', err);
      if (!res.headersSent) json(res, 500, { code: 'SYS0001', message: 'proxy error' });
      else res.destroy();
    });
  });
  // Node answers a request its parser refuses (a target with bytes past ASCII) with a bare 400; the proxy's is JSON like its others.
  server.on('clientError', (err: Error & { code?: string; rawPacket?: Buffer }, socket: Socket) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const text = JSON.stringify({ code: 'VAL0001', message: `request: cannot be parsed as HTTP/1.1 (${err.code ?? 'parse error'})` });
    // The answer to a HEAD carries no body, or the client reads it as a stray next answer.
    const head = err.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${head ? '' : text}`,
    );
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${addr.port}`;
  return {
    origin,
    port: addr.port,
    upstream,
    requestLog,
    tally,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(
          () =>
            void dispatcher.close().then(
              () => resolve(),
              () => resolve(),
            ),
        );
        server.closeAllConnections();
      }),
  };
}

/** One header's value, repeated ones joined with `, `; null when absent. */
function headerValue(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const v = headers[name.toLowerCase()];
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
}
