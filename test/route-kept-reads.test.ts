/**
 * What a route keeps from one request to the next (route-helper/auth.ts CallerMemo: the token a header names and the
 * caller found last; routes/listings.ts: the query read last) must never change an answer: a route that kept them
 * answers every request as one that never saw the requests before, whatever the headers, the zones and the changes
 * to the world's tokens and accounts in between.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { authenticate, CallerMemo } from '../mock-server/route-helper/auth.js';
import { ApiError } from '../mock-server/kit/api-error.js';
import { call, makeApp, tokenFor } from './engine-fixture.js';

/** What authenticate answers: the caller, or the error's status and body. */
function outcome(run: () => unknown): unknown {
  try {
    return { caller: structuredClone(run()) };
  } catch (err) {
    if (err instanceof ApiError) return { status: err.status, body: err.body };
    throw err;
  }
}

describe('what routes keep between requests', () => {
  it('authenticates every request as a route that never saw one before would', () => {
    const app = makeApp({ listings: 5 });
    const alice = tokenFor(app, 'alice-1');
    const aliceReadOnly = tokenFor(app, 'alice-1', true);
    const world = app.ctx.world;
    const kept = new Map(world.tokens);
    const header = fc.constantFrom(
      `bearer ${alice}`,
      `Bearer  ${alice} `,
      `bearer ${aliceReadOnly}`,
      'bearer unknowntoken',
      'basic abc',
      '',
      `bearer ${alice} extra`,
    );
    const change = fc.constantFrom('none', 'revoke', 'restore', 'expire', 'new-scopes', 'other-account');
    const scope = fc.constantFrom('read_listing', 'write_invest_order', ['read_listing', 'write_invest_order']);
    fc.assert(
      fc.property(fc.array(fc.record({ header, change, scope }), { minLength: 1, maxLength: 25 }), (steps) => {
        for (const [k, v] of kept) world.tokens.set(k, { ...v });
        const memo = new CallerMemo();
        for (const s of steps) {
          const t = world.tokens.get(alice);
          if (s.change === 'revoke') world.tokens.delete(alice);
          if (s.change === 'restore') world.tokens.set(alice, { ...kept.get(alice)! });
          if (s.change === 'expire' && t) world.tokens.set(alice, { ...t, expiresAt: 0 });
          if (s.change === 'new-scopes' && t) world.tokens.set(alice, { ...t, scopes: t.scopes.filter((x) => x !== 'write_invest_order') });
          if (s.change === 'other-account' && t) world.tokens.set(alice, { ...t, accountId: 'bob-1' });
          const request = { headers: { get: (n: string) => (n === 'authorization' && s.header !== '' ? s.header : null) } };
          const remembered = outcome(() => authenticate(app.ctx, request, s.scope, memo));
          const fresh = outcome(() => authenticate(app.ctx, request, s.scope));
          expect(remembered).toEqual(fresh);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('answers a listings search as a fresh mock would, the same query asked in turn with other zones and tokens', async () => {
    const app = makeApp({ listings: 30 });
    const fresh = () => makeApp({ listings: 30 });
    const tokens = [tokenFor(app, 'alice-1'), tokenFor(app, 'alice-1', true)];
    const search = fc.constantFrom('?limit=3', '?limit=3&sort_by=listing_number', '?limit=2&offset=1', '?limit=99999');
    const zone = fc.constantFrom(undefined, 'America/New_York', 'Asia/Tokyo', 'Not/A_Zone');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ search, zone, token: fc.constantFrom(0, 1) }), { minLength: 1, maxLength: 6 }),
        async (steps) => {
          for (const s of steps) {
            const path = `/listingsvc/v2/listings/${s.search}`;
            const headers: Record<string, string> = s.zone ? { timezone: s.zone } : {};
            const kept = await call(app, 'GET', path, { token: tokens[s.token]!, headers });
            const other = fresh();
            const own = await call(other, 'GET', path, { token: tokenFor(other, 'alice-1', s.token === 1), headers });
            expect({ status: kept.status, body: kept.body }).toEqual({ status: own.status, body: own.body });
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
