import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { DateStamp } from '../mock-server/http/date-stamp.js';
import { startMock, TEST_START, type TestMock } from './helpers/mock.js';

/** Largest instant a Date holds, ms either side of the epoch. */
const MAX_DATE = 8.64e15;

describe("the mock's Date header, formatted once per virtual second", () => {
  it('reads as a fresh formatting of each instant, whatever the clock did between two answers (forward, back, within a second)', () => {
    const instant = fc.oneof(
      fc.integer({ min: -MAX_DATE, max: MAX_DATE }),
      // Near one second's edges, where a cache keyed wrongly would keep the last second's text.
      fc.integer({ min: -2, max: 2 }).chain((s) => fc.integer({ min: -1, max: 1 }).map((d) => TEST_START + s * 1000 + d)),
    );
    fc.assert(
      fc.property(fc.array(instant, { minLength: 1, maxLength: 30 }), (instants) => {
        const stamp = new DateStamp();
        for (const ms of instants) expect(stamp.at(ms)).toBe(new Date(ms).toUTCString());
      }),
    );
  });

  describe('over HTTP', () => {
    let mock: TestMock | undefined;
    afterEach(async () => {
      await mock?.close();
      mock = undefined;
    });

    it('moves with the virtual clock: half a second keeps the text, the next half changes it, and so does a long advance', async () => {
      mock = await startMock({ listings: 5, frozen: true, start: TEST_START });
      const dateOf = async (res: Response) => {
        await res.arrayBuffer();
        return res.headers.get('date');
      };
      const advance = async (by: string) =>
        dateOf(
          await fetch(`${mock!.origin}/__mock/clock`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ advance: by }),
          }),
        );
      const missing = async () => dateOf(await fetch(`${mock!.origin}/v1/nothing-here`));
      const http = (ms: number) => new Date(ms).toUTCString();

      expect(await missing()).toBe(http(TEST_START));
      expect(await advance('0.5s')).toBe(http(TEST_START));
      expect(await missing()).toBe(http(TEST_START));
      // 12:00:01.000, reached by an advance shorter than a second.
      expect(await advance('0.5s')).toBe(http(TEST_START + 1000));
      expect(await missing()).toBe(http(TEST_START + 1000));
      expect(await advance('15d')).toBe(http(TEST_START + 1000 + 15 * 86_400_000));
      // Set in-process to a later instant in the same second as the kept text's: the kept text still holds.
      mock.app.ctx.clock.set(TEST_START + 1000 + 15 * 86_400_000 + 999);
      expect(await missing()).toBe(http(TEST_START + 1000 + 15 * 86_400_000));
    });
  });
});
