/**
 * A table's typed columns grown (mock-server/world/typed-growth.ts): the copy skips blocks of zeros, so for any array of
 * any kind, with runs of zeros and values anywhere (at a block's edge, in its last bytes, a -0 or a NaN whose bits are not
 * zero), the grown array holds the same bits in its first rows and zeros after.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { grown } from '../mock-server/world/typed-growth.js';
import type { TypedData } from '../mock-server/world/column-kinds.js';

const KINDS = [Int8Array, Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Float64Array] as const;

/** Bytes of an array (its bits, whatever its kind). */
const bytesOf = (a: TypedData): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

describe('grown', () => {
  test('keeps every bit of the rows it had and zeros the rest, for arrays with zero blocks and values anywhere', () => {
    fc.assert(
      fc.property(
        fc.nat(KINDS.length - 1),
        // Past 64 KiB so the blockwise copy runs; odd lengths leave bytes past the last word.
        fc.integer({ min: 1, max: 90_000 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 })), { maxLength: 40 }),
        fc.integer({ min: 0, max: 5000 }),
        (kind, bytes, pokes, extra) => {
          const K = KINDS[kind]!;
          const a = new K(Math.max(1, Math.floor(bytes / K.BYTES_PER_ELEMENT)));
          const raw = bytesOf(a);
          // Single bytes set anywhere: at a block's first or last byte, inside a word, in the tail.
          for (const [at, v] of pokes) raw[at % raw.length] = v;
          raw[raw.length - 1] = pokes.length % 2 ? 0 : 7;
          const g = grown(a, a.length + extra);
          expect(g.constructor).toBe(K);
          expect(g.length).toBe(a.length + extra);
          const out = bytesOf(g);
          expect(Buffer.from(out.subarray(0, raw.length)).equals(Buffer.from(raw))).toBe(true);
          expect(out.subarray(raw.length).every((b) => b === 0)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a -0 and a NaN in a block of zeros are copied (their bits are not zero)', () => {
    const a = new Float64Array(40_000);
    a[20_000] = -0;
    a[35_000] = NaN;
    const g = grown(a, 80_000);
    expect(Object.is(g[20_000], -0)).toBe(true);
    expect(g[35_000]).toBeNaN();
    expect(g.subarray(40_000).every((x) => x === 0)).toBe(true);
  });
});
