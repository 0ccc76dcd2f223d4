/** Starts the real mock server on 127.0.0.1 port 0 for a test, and stops it after. */
import { answerCheckOption, createMockApp, type MockApp } from '../../mock-server/app.js';
import type { MockOptions } from '../../mock-server/context.js';
import { startHttpServer } from '../../mock-server/http-adapter.js';
import { READ_WRITE_SCOPES } from '../../src/contract/enums.js';

/** A fixed start so that seeded worlds are the same on every run. */
export const TEST_START = Date.parse('2026-06-01T12:00:00Z');

/** A running mock for a test. */
export interface TestMock {
  app: MockApp;
  origin: string;
  /** Environment that points the CLI at this mock, with a live token for alice's first account. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A mock app for a test, checking its answers against the OpenAPI document when the suite asks
 * (test/helpers/answer-check-setup.ts): tests create mocks only through this.
 */
export function testMockApp(options: Partial<MockOptions> = {}, realNow?: () => number): MockApp {
  return createMockApp({ ...answerCheckOption(process.env), ...options }, realNow);
}

/** Starts a mock (frozen clock at TEST_START, 300 listings unless told otherwise). */
export async function startMock(options: Partial<MockOptions> = {}): Promise<TestMock> {
  const app = testMockApp({ seed: 7, listings: 300, frozen: true, start: TEST_START, ...options });
  const server = await startHttpServer(app, '127.0.0.1', 0);
  return {
    app,
    origin: server.origin,
    env: { MKT_ROOT_URL: server.origin, MKT_ACCESS_TOKEN: issueTestToken(app) },
    async close() {
      await server.close();
      await app.close?.();
    },
  };
}

/** Puts a live access token for `accountId` straight into the mock's world (no OAuth round trip) and returns it. */
export function issueTestToken(
  app: MockApp,
  accountId = 'alice-1',
  scopes: readonly string[] = READ_WRITE_SCOPES,
  ttlMs = 3_599_000,
): string {
  const value = `test-${accountId}-${Math.random().toString(36).slice(2)}`;
  app.ctx.world.tokens.set(value, {
    value,
    kind: 'access',
    clientId: 'mkt-demo',
    accountId,
    scopes: [...scopes],
    expiresAt: app.ctx.clock.now() + ttlMs,
    authKey: 'test',
  });
  return value;
}
