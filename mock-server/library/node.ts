/**
 * `mkt/mock` in Node: the marketplace (marketplace.ts) and what only Node offers: a long clock move's arrivals drawn on
 * another thread, and serving it over HTTP on a loopback port, as `mkt mock serve` does both (the same adapter: request
 * log on the wire, Host and admin checks).
 */
import { ArrivalsThread } from '../engine/arrivals-thread.js';
import { startHttpServer } from '../http-adapter.js';
import { marketplaceOn, type Marketplace, type MarketplaceOptions } from './marketplace.js';
import { appOf, noteArrivals } from './internal.js';

export * from './index.js';
export { MarketplaceDispatcher } from './undici-door.js';

/**
 * Builds the marketplace (index.ts's), with a long clock move's arrivals (150,000 or more: a month at 100,000 listings)
 * drawn on another thread while its ticks run on this one, as `mkt mock serve` draws them (engine/arrivals-thread.ts):
 * the same world, sooner (4 months at 100,000 listings: 6.3 → 5.6 s, medians of 3). The thread starts at the first long
 * move (a test's short moves start none), keeps no process alive, and goes with `close`.
 */
export function createMarketplace(options: MarketplaceOptions = {}): Marketplace {
  const arrivals = new ArrivalsThread();
  const market = marketplaceOn(options, { arrivalsAhead: arrivals.ahead, close: () => arrivals.close() });
  noteArrivals(market, arrivals);
  return market;
}

/** A marketplace served over HTTP. */
export interface ServedMarketplace {
  /** `http://127.0.0.1:PORT` (with the marketplace's base path, the root URL a client is given). */
  readonly url: string;
  readonly port: number;
  /** Stops the server (the marketplace stays; close it with its own `close`). */
  close(): Promise<void>;
}

/** What `serve` binds to. */
export interface ServeOptions {
  /** A loopback address (default 127.0.0.1); other addresses are for `mkt mock serve`, which guards its admin routes with a token. */
  host?: string;
  /** The port (default 0: a free one). */
  port?: number;
}

/** Serves `market` over HTTP on loopback, answering exactly as its msw handlers do. */
export async function serve(market: Marketplace, options: ServeOptions = {}): Promise<ServedMarketplace> {
  const app = appOf(market);
  const host = options.host ?? '127.0.0.1';
  if (!/^(127\.\d+\.\d+\.\d+|::1|localhost)$/.test(host))
    throw new TypeError(`serve: ${host} is not a loopback address; use \`mkt mock serve\` for others`);
  const running = await startHttpServer(app, host, options.port ?? 0);
  return { url: `${running.origin}${app.ctx.options.basePath ?? ''}`, port: running.port, close: () => running.close() };
}
