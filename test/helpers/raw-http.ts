/**
 * Raw HTTP/1.1 to a mock on 127.0.0.1: node:http with the request target written as given (fetch and
 * undici would normalise or refuse `//x/…`, `http://…` absolute forms and `..` segments), and a bare
 * socket for bytes even node:http will not send.
 */
import type { Agent } from 'node:http';
import { request } from 'node:http';
import { connect } from 'node:net';

/** One answer: status, headers and the body as text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** What to send. */
export interface RawRequest {
  method?: string;
  /** The request target exactly as it goes on the request line. */
  target: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/** Sends one request through node:http (keep-alive when `agent` is one); rejects after 10 s. */
export function rawRequest(port: number, req: RawRequest, agent?: Agent): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const r = request(
      { host: '127.0.0.1', port, method: req.method ?? 'GET', path: req.target, headers: req.headers, agent, timeout: 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer to ${req.method ?? 'GET'} ${req.target} in 10 s`)));
    r.on('error', reject);
    r.end(req.body);
  });
}

/** Writes `bytes` on a fresh socket (the caller includes `Connection: close`) and returns the status and body. */
export function rawSocket(port: number, bytes: Buffer | string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks).toString('latin1');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(all)?.[1] ?? 0);
      resolve({ status, text: all.slice(all.indexOf('\r\n\r\n') + 4) });
    });
    socket.end(bytes);
  });
}
