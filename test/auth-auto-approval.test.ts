/** Following an auto-approved authorization without a browser: only a loopback server's redirect to this login's catcher, state checked. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HttpRequest, HttpResponse } from '../src/api/http.js';
import { followAutoApproval, isLoopbackHost } from '../src/auth/auto-approval.js';

const REDIRECT = 'http://127.0.0.1:8765/callback';
const AUTH = 'http://127.0.0.1:4010/oauth?client_id=mkt-demo&response_type=auth_key&state=s1';

/** An authorization server that answers every request with `status` and `location`, and counts them. */
function server(status: number, location?: string) {
  const seen: HttpRequest[] = [];
  return {
    seen,
    async send(req: HttpRequest): Promise<HttpResponse> {
      seen.push(req);
      return { status, headers: location ? { location } : {}, data: '' } as HttpResponse;
    },
  };
}

describe('followAutoApproval', () => {
  it("takes the key from a redirect to the catcher carrying this login's state", async () => {
    const http = server(302, `${REDIRECT}?auth_key=k1&state=s1&scope=read_listing+read_loan`);
    expect(await followAutoApproval(http, AUTH, REDIRECT, 's1')).toMatchObject({
      kind: 'ok',
      result: { authKey: 'k1', scope: 'read_listing read_loan' },
    });
    expect(http.seen).toHaveLength(1);
  });

  it('passes a cancellation on as the catcher would', async () => {
    const http = server(302, `${REDIRECT}?error_code=userCancellation&state=s1`);
    const outcome = await followAutoApproval(http, AUTH, REDIRECT, 's1');
    expect(outcome?.kind).toBe('failed');
  });

  it.each([
    ['a consent page for a person', 200, undefined],
    ['a redirect with another state', 302, `${REDIRECT}?auth_key=k1&state=other`],
    ['a redirect with no state', 302, `${REDIRECT}?auth_key=k1`],
    ['a redirect to a sign-in page', 302, 'http://127.0.0.1:4010/login?next=%2Foauth'],
    ['a redirect to another port', 302, 'http://127.0.0.1:8766/callback?auth_key=k1&state=s1'],
    ['a redirect to another path', 302, 'http://127.0.0.1:8765/elsewhere?auth_key=k1&state=s1'],
  ])('leaves %s alone', async (_what, status, location) => {
    expect(await followAutoApproval(server(status, location), AUTH, REDIRECT, 's1')).toBeNull();
  });

  it('never asks an authorization server that is not on this machine', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.domain().filter((d) => d !== 'localhost'),
        async (host) => {
          const http = server(302, `${REDIRECT}?auth_key=k1&state=s1`);
          expect(await followAutoApproval(http, `https://${host}/oauth?state=s1`, REDIRECT, 's1')).toBeNull();
          expect(http.seen).toEqual([]);
        },
      ),
    );
  });

  it('knows the loopback addresses', () => {
    for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', 'LOCALHOST']) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['api.example.com', '10.0.0.1', '128.0.0.1', '[::2]', 'localhost.example.com', '127.0.0.1.example.com'])
      expect(isLoopbackHost(h)).toBe(false);
  });
});
