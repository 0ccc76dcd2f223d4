/**
 * What the browser build bundles in place of undici (scripts/bundle-browser.mjs): webhook deliveries are
 * POSTed by Node's HTTP client, which a page has none of. Each attempt fails with this message, shown in
 * GET /__mock/webhooks; the world and the outbox go on as under Node.
 */
import { nodeOnly } from '../kit/setup-error.js';

/** Refused: an attempt's request. */
export function request(): never {
  throw nodeOnly('webhook deliveries (--webhook)');
}

/** Refused: the connection pool of the receivers. */
export class Agent {
  constructor() {
    throw nodeOnly('webhook deliveries (--webhook)');
  }
}
