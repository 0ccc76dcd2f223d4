/**
 * The mock marketplace as a request → response function: the msw handlers of every resource over
 * one context, resolved with msw's `getResponse`, and a loud JSON 404 for anything unmatched.
 */
import { getResponse, type RequestHandler } from 'msw';
import { VirtualClock } from './clock.js';
import type { MockContext, MockOptions } from './context.js';
import { attachEngine, engineOf } from './engine/engine.js';
import { accountsHandlers } from './handlers/accounts.js';
import { adminHandlers } from './handlers/admin.js';
import { listingsHandlers } from './handlers/listings.js';
import { loansHandlers } from './handlers/loans.js';
import { oauthHandlers } from './handlers/oauth.js';
import { offersHandlers } from './handlers/offers.js';
import { ordersHandlers } from './handlers/orders.js';
import { seedStore } from './seed.js';

/** A running mock, without a transport. */
export interface MockApp {
  ctx: MockContext;
  handlers: RequestHandler[];
  /** Answers one request. */
  handle(request: Request): Promise<Response>;
  /** Stops timers and flushes state; called when the server stops. */
  close?(): Promise<void>;
}

/** Defaults for the options a caller leaves out. */
export const DEFAULT_MOCK_OPTIONS: Omit<MockOptions, 'start'> = { seed: 1, listings: 2000, frozen: false, admin: true };

/** Builds the world and its handlers. `realNow` is the real-time source the virtual clock runs on. */
export function createMockApp(partial: Partial<MockOptions> = {}, realNow: () => number = Date.now): MockApp {
  const options: MockOptions = { ...DEFAULT_MOCK_OPTIONS, start: realNow(), ...partial };
  const clock = new VirtualClock(options.start, options.frozen, realNow);
  const ctx: MockContext = {
    options,
    clock,
    store: seedStore({ seed: options.seed, listings: options.listings, now: options.start }),
    reset() {
      ctx.store = seedStore({ seed: options.seed, listings: options.listings, now: clock.now() });
    },
  };
  attachEngine(ctx);
  const handlers: RequestHandler[] = [
    ...listingsHandlers(ctx),
    ...ordersHandlers(ctx),
    ...loansHandlers(ctx),
    ...accountsHandlers(ctx),
    ...oauthHandlers(ctx),
    ...offersHandlers(ctx),
    ...(options.admin ? adminHandlers(ctx) : []),
  ];
  return {
    ctx,
    handlers,
    async handle(request) {
      const response = await getResponse(handlers, request);
      // Any write (an order, a grant, a token, an offer, an admin move) may change the world: with
      // --state no answer goes out before the change is durable, whichever handler made it.
      if (request.method !== 'GET' && request.method !== 'HEAD') engineOf(ctx).markPromised();
      await engineOf(ctx).durable();
      if (response) return response;
      const path = new URL(request.url).pathname;
      return Response.json(
        { code: 'NOT_FOUND', message: `No route for ${request.method} ${path}` },
        { status: 404 },
      );
    },
    async close() {
      await engineOf(ctx).close();
    },
  };
}
