/** The empty worlds: `listings: 0` (no active listing, none arriving) and `history: 'none'` (no loans, notes or orders); a world replaced by a snapshot, and the clock. */
import { describe, expect, test } from 'vitest';
import { checkInvariants } from '../mock-server/audit/invariants.js';
import { seedWorld } from '../mock-server/seed/seed.js';
import { parseState, serializeState } from '../mock-server/world/persistence.js';
import { testMockApp, TEST_START } from './helpers/mock.js';

const DAY = 86_400_000;

describe('seedStore without listings or history', () => {
  test("history 'seeded' is the default: the same world as before the option existed", () => {
    const plain = seedWorld({ seed: 3, listings: 40, now: TEST_START });
    const seeded = seedWorld({ seed: 3, listings: 40, now: TEST_START, history: 'seeded' });
    expect(serializeState(seeded, TEST_START)).toBe(serializeState(plain, TEST_START));
    expect(plain.loans.size).toBeGreaterThan(0);
  });

  test("history 'none' with 0 listings: investors and their funded accounts only, no arrivals, invariants hold", () => {
    const s = seedWorld({ seed: 3, listings: 0, now: TEST_START, history: 'none' });
    expect([s.listings.length, s.loans.size, s.notes.length, s.orders.size]).toEqual([0, 0, 0, 0]);
    expect(s.users.has('alice')).toBe(true);
    expect(s.accounts.get('alice-1')!.cash).toBeGreaterThan(0);
    expect(new Set(s.ledger.map((e) => e.kind))).toEqual(new Set(['DEPOSIT', 'WITHDRAWAL']));
    expect(s.engine.arrivalsPerHour).toBe(0);
    expect(checkInvariants(s)).toEqual({ ok: true, violations: [] });
  });

  test('an empty world runs a week of market hours and stays empty', async () => {
    const app = testMockApp({ seed: 3, listings: 0, history: 'none', frozen: true, start: TEST_START });
    try {
      await app.ctx.engine.moveClock((now) => now + 7 * DAY);
      expect(app.ctx.world.listings.length).toBe(0);
      expect(checkInvariants(app.ctx.world).ok).toBe(true);
    } finally {
      await app.close?.();
    }
  });
});

describe('MockContext.replaceWorld', () => {
  test('POST /__mock/snapshots/NAME/load during a clock move waits for the move, then puts world and clock back at the saved time', async () => {
    const app = testMockApp({ seed: 3, listings: 30, frozen: true, start: TEST_START });
    const post = (path: string, body?: string) =>
      app.handle(
        new Request(`http://127.0.0.1${path}`, {
          method: 'POST',
          ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}),
        }),
      );
    try {
      expect((await post('/__mock/snapshots', '{"name":"day0"}')).status).toBe(200);
      const move = post('/__mock/clock', '{"advance":"5d"}');
      while (!app.ctx.engine.moving) await new Promise((resolve) => setImmediate(resolve));
      const loaded = await post('/__mock/snapshots/day0/load');
      expect(await loaded.json()).toMatchObject({ saved_now: '2026-06-01 12:00:00 +0000', now: '2026-06-01 12:00:00 +0000' });
      // The move had ended (its answer is the whole move), and the load came after it.
      expect(await (await move).json()).toMatchObject({ now: '2026-06-06 12:00:00 +0000' });
      expect(app.ctx.clock.now()).toBe(TEST_START);
      expect(app.ctx.world.engine.lastTick).toBeLessThanOrEqual(TEST_START);
    } finally {
      await app.close?.();
    }
  });

  test('a world saved later than the clock moves the clock to its time', async () => {
    const later = testMockApp({ seed: 3, listings: 10, frozen: true, start: TEST_START + 3 * DAY });
    const app = testMockApp({ seed: 3, listings: 10, frozen: true, start: TEST_START });
    try {
      const text = serializeState(later.ctx.world, later.ctx.clock.now());
      app.ctx.replaceWorld(parseState(text));
      expect(app.ctx.clock.now()).toBe(TEST_START + 3 * DAY);
      expect(serializeState(app.ctx.world, app.ctx.clock.now())).toBe(text);
    } finally {
      await later.close?.();
      await app.close?.();
    }
  });
});
