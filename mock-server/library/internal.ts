/**
 * The app behind each marketplace, for the Node entry (node.ts serves it over HTTP) and for this
 * repository's tests: not exported by the public entries, so a user's code reaches the world only
 * through the marketplace's methods and handlers. Kept on the marketplace itself under a symbol (no
 * module-level map: a module of the mock holds no state, test/module-state.test.ts).
 */
import type { MockApp } from '../app.js';
import type { ArrivalsThread } from '../engine/arrivals-thread.js';

const APP = Symbol('mkt/mock app');
const ARRIVALS = Symbol('mkt/mock arrivals thread');

/** Notes the app of `market` (createMarketplace): a hidden, read-only property. */
export function remember(market: object, app: MockApp): void {
  Object.defineProperty(market, APP, { value: app, enumerable: false, writable: false });
}

/** The app of a marketplace made by createMarketplace; throws for anything else. */
export function appOf(market: object): MockApp {
  const app = (market as { [APP]?: MockApp })[APP];
  if (!app) throw new TypeError('not a marketplace made by createMarketplace');
  return app;
}

/** Notes the thread that draws the long moves' arrivals of `market` (node.ts), for this repository's tests. */
export function noteArrivals(market: object, thread: ArrivalsThread): void {
  Object.defineProperty(market, ARRIVALS, { value: thread, enumerable: false, writable: false });
}

/** The thread of a marketplace made by Node's createMarketplace; undefined for one made by index.ts's. */
export function arrivalsOf(market: object): ArrivalsThread | undefined {
  return (market as { [ARRIVALS]?: ArrivalsThread })[ARRIVALS];
}
