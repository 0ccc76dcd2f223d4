/**
 * A fixture server of real marketplace answers (test/fixtures/marketplace/, sources in SOURCES.md) on
 * the CLI's routes, on 127.0.0.1 port 0: each route answers one corpus file as it is, so the CLI reads
 * what the service sent rather than what our mock guessed. Requests are recorded for assertions.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';

/** Where the corpus lives. */
export const CORPUS_DIR = join(import.meta.dirname, '../fixtures/marketplace');

/** Every answer file of the corpus, by name. */
export function corpusFile(name: string): unknown {
  return JSON.parse(readFileSync(join(CORPUS_DIR, name), 'utf8'));
}

/** Which file answers which route; the defaults are the newest answers (the Python client's). */
export interface FixtureChoice {
  account: string;
  notes: string;
  loans: string;
  payments: string;
  orders: string;
  order: string;
  orderCreate: string;
  listings: string;
}

/** The newest answers: the Python client's (2023-2025), the Go client's order status (the only GET of one order). */
export const NEWEST: FixtureChoice = {
  account: 'python-account-2023.json',
  notes: 'python-notes.json',
  loans: 'python-loans.json',
  payments: 'python-payments.json',
  orders: 'python-orders-list.json',
  order: 'go-order-status.json',
  orderCreate: 'python-order-create.json',
  listings: 'python-listings-search.json',
};
/** The oldest answers: the Go client's (2015), with the Python answers where the Go client has none. */
export const OLDEST: FixtureChoice = {
  ...NEWEST,
  account: 'go-account-2015.json',
  notes: 'go-notes.json',
  listings: 'go-search.json',
  orderCreate: 'go-order-create.json',
};

/** One request the server saw. */
export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
}

/** A running fixture server. */
export interface FixtureServer {
  /** MKT_BASE_URL, MKT_ROOT_URL and MKT_ACCESS_TOKEN pointing at it. */
  env: Record<string, string>;
  requests: SeenRequest[];
  close(): Promise<void>;
}

type Envelope = { result: Record<string, unknown>[] };
const items = (file: string): Record<string, unknown>[] => (corpusFile(file) as Envelope).result;

/** The answer to one request: status and body, or null for a route the server does not have. */
function answer(choice: FixtureChoice, req: SeenRequest): { status: number; body: unknown } | null {
  const { method, path, query } = req;
  const one = (list: Record<string, unknown>[], key: string, id: string) => {
    const found = list.find((x) => String(x[key]) === id);
    return found ? { status: 200, body: found } : { status: 404, body: { code: 'NOT_FOUND', message: `no ${key} ${id} in the corpus` } };
  };
  if (method === 'POST' && path === '/v1/orders/') return { status: 200, body: corpusFile(choice.orderCreate) };
  if (method !== 'GET') return null;
  if (path === '/v1/accounts/platform') return { status: 200, body: corpusFile(choice.account) };
  if (path === '/v1/notes/') return { status: 200, body: corpusFile(choice.notes) };
  let m = /^\/v1\/notes\/([^/]+)$/.exec(path);
  if (m) return one([...items('python-notes.json'), ...items('go-notes.json')], 'loan_note_id', decodeURIComponent(m[1]!));
  if (path === '/v1/loans/') return { status: 200, body: corpusFile(choice.loans) };
  if (path === '/v1/loans/payments') {
    // The one real answer is of loan 2300367: other loans have no payments in the corpus.
    const loans = (query.get('loan_number') ?? '').split(',');
    const body = corpusFile(choice.payments) as Envelope;
    return { status: 200, body: loans.includes('2300367') ? body : { result: [], result_count: 0, total_count: 0 } };
  }
  m = /^\/v1\/loans\/(\d+)$/.exec(path);
  if (m) return one(items(choice.loans), 'loan_number', m[1]!);
  if (path === '/v1/orders/') return { status: 200, body: corpusFile(choice.orders) };
  m = /^\/v1\/orders\/([^/]+)$/.exec(path);
  if (m) return one([corpusFile(choice.order) as Record<string, unknown>], 'order_id', decodeURIComponent(m[1]!));
  if (path === '/listingsvc/v2/listings/') {
    const body = corpusFile(choice.listings) as Envelope & Record<string, unknown>;
    const wanted = query.get('listing_number');
    if (wanted === null) return { status: 200, body };
    const result = body.result.filter((l) => wanted.split(',').includes(String(l.listing_number)));
    return { status: 200, body: { ...body, result, result_count: result.length, total_count: result.length } };
  }
  return null;
}

/** Starts the server with `choice` (default: the newest answers). */
export async function startFixtureServer(choice: FixtureChoice = NEWEST): Promise<FixtureServer> {
  const requests: SeenRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const seen = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams };
    requests.push(seen);
    req.resume();
    req.on('end', () => {
      const a = answer(choice, seen) ?? {
        status: 404,
        body: { code: 'NOT_FOUND', message: `${seen.method} ${seen.path} is not a route of the fixture server` },
      };
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const root = `http://127.0.0.1:${port}`;
  return {
    env: { MKT_BASE_URL: `${root}/v1`, MKT_ROOT_URL: root, MKT_ACCESS_TOKEN: 'fixture-token' },
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
