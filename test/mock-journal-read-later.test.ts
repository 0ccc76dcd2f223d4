/**
 * The journal redacts an entry when it is first read (journal.ts), so the mock may have forgotten a
 * secret by then: a token pruned once expired, an auth key replaced by a renewed grant. Whatever the
 * mock knew when the request was recorded must still be hidden, in every position and spelling.
 * The secrets here are lower case only, so the shape rule for random credentials cannot hide them:
 * only what the journal remembered can.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { call, makeApp, tokenFor } from './engine-fixture.js';

type Forget = 'prune-token' | 'renew-auth-key';
type Where = 'header' | 'query' | 'query-escaped' | 'body' | 'body-escaped' | 'path';

const lowerSecret = fc.stringMatching(/^[a-z0-9]{28,36}$/);

describe('journal entries read after the mock forgot a secret', () => {
  it('still hide it: the secrets known when a request was recorded are kept with it', async () => {
    await fc.assert(
      fc.asyncProperty(
        lowerSecret,
        fc.constantFrom<Forget>('prune-token', 'renew-auth-key'),
        fc.constantFrom<Where>('header', 'query', 'query-escaped', 'body', 'body-escaped', 'path'),
        async (secret, forget, where) => {
          const app = makeApp({ listings: 20 });
          const caller = tokenFor(app, 'alice-1');
          const world = app.ctx.world;
          if (forget === 'prune-token') world.tokens.set(secret, { ...world.tokens.get(caller)!, value: secret });
          else world.grants.push({ clientId: 'mkt-demo', accountId: 'alice-1', authKey: secret, scopes: [], createdAt: 0 });
          // Escaped spellings: a JSON \u escape and a percent-escape of the first character.
          const escapedJson = `\\u00${secret.charCodeAt(0).toString(16)}${secret.slice(1)}`;
          const escapedQuery = `%${secret.charCodeAt(0).toString(16).toUpperCase()}${secret.slice(1)}`;
          const path =
            where === 'path'
              ? `/v1/orders/${secret}`
              : where === 'query'
                ? `/v1/orders?note=${secret}`
                : where === 'query-escaped'
                  ? `/v1/orders?note=${escapedQuery}`
                  : '/v1/orders';
          const body = where === 'body' ? `{"note":"${secret}"}` : where === 'body-escaped' ? `{"note":"${escapedJson}"}` : undefined;
          await call(app, body === undefined ? 'GET' : 'POST', path, {
            token: caller,
            headers: where === 'header' ? { 'x-note': secret } : {},
            ...(body ? { body } : {}),
          });
          // The mock forgets it before anyone reads the journal.
          if (forget === 'prune-token') world.tokens.delete(secret);
          else world.grants.at(-1)!.authKey = 'renewed';
          const read = await call(app, 'GET', '/__mock/requests');
          expect(read.status).toBe(200);
          const text = JSON.stringify(read.body.result);
          expect(text).toContain('/v1/orders');
          expect(text).not.toContain(secret);
          expect(text).not.toContain(secret.slice(1));
        },
      ),
      { numRuns: 60, seed: 20261123 },
    );
  });

  it('shows an entry the same on every read', async () => {
    const app = makeApp({ listings: 20 });
    const caller = tokenFor(app, 'alice-1');
    await call(app, 'GET', '/v1/orders?sort_by=order_date', { token: caller, headers: { 'user-agent': 'prosper-api/1.0' } });
    const first = (await call(app, 'GET', '/__mock/requests')).body.result;
    app.ctx.world.tokens.delete(caller);
    expect((await call(app, 'GET', '/__mock/requests')).body.result).toEqual(first);
    expect(first[0]).toMatchObject({
      path: '/v1/orders',
      query: 'sort_by=order_date',
      headers: { authorization: 'bearer ***', 'user-agent': 'prosper-api/1.0' },
    });
  });
});
