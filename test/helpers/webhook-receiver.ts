/** A webhook receiver for tests: node:http on 127.0.0.1 port 0, keeping every request and answering as told. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got: its headers and the raw body text. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A running receiver. */
export interface Receiver {
  url: string;
  got: Received[];
  /** Resolves once `n` requests have come (rejects after `timeoutMs`: a test never hangs). */
  waitFor(n: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

/** How the receiver answers one request: a status at once, a status after a delay, or 'hang' (no answer until closed). */
export type Answer = number | 'hang' | { status: number; afterMs: number };

/** Starts a receiver answering each request with the next of `statuses` (the last one repeated). */
export async function startReceiver(statuses: Answer[] = [204]): Promise<Receiver> {
  const got: Received[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req
      .setEncoding('utf8')
      .on('data', (d: string) => (body += d))
      .on('end', () => {
        const answer = statuses[Math.min(got.length, statuses.length - 1)]!;
        got.push({ headers: req.headers, body });
        for (const w of waiters.filter((x) => got.length >= x.n)) w.resolve();
        if (typeof answer === 'number') res.writeHead(answer).end();
        else if (answer !== 'hang') setTimeout(() => res.writeHead(answer.status).end(), answer.afterMs);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    got,
    waitFor(n, timeoutMs = 10_000) {
      if (got.length >= n) return Promise.resolve(got);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the receiver got ${got.length} of ${n} requests`)), timeoutMs);
        waiters.push({
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve(got);
          },
        });
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback URL where nothing listens (a port taken and let go). */
export async function unreachableUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks`;
}
