/**
 * The app behind each marketplace, for the Node entry (node.ts serves it over HTTP) and for this
 * repository's tests: not exported by the public entries, so a user's code reaches the world only
 * through the marketplace's methods and handlers.
 */
import type { MockApp } from '../app.js';

const apps = new WeakMap<object, MockApp>();

/** Notes the app of `market` (createMarketplace). */
export function remember(market: object, app: MockApp): void {
  apps.set(market, app);
}

/** The app of a marketplace made by createMarketplace; throws for anything else. */
export function appOf(market: object): MockApp {
  const app = apps.get(market);
  if (!app) throw new TypeError('not a marketplace made by createMarketplace');
  return app;
}
