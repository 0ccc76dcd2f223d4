/**
 * A seeded listing's bureau2 values (seed.ts `makeListing`): the object that holds them and the draws
 * that fill it, written for speed since a world of a million listings draws 54 million of them.
 */
import { BUREAU2_ELEMENTS, type BureauElement } from '../../src/contract/bureau.js';
import { mulberry32, nextState, type Rng } from '../kit/rng.js';

/** The largest value drawn for a bureau element that is neither special nor zero. */
function bureauCap(e: BureauElement): number {
  return e.max > 999 ? 250_000 : e.units === 'percentage' ? 100 : e.units === 'months' ? 480 : 40;
}

/**
 * A listing's bureau2 values, every element at 0. Built by a constructor so V8 sizes every instance
 * to hold them in the object itself (slack tracking): a million of them was a million dictionaries before.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- compiled from the element catalogue, for V8's in-object shapes (above)
export const Bureau2 = new Function(
  `return function Bureau2() { ${BUREAU2_ELEMENTS.map((e) => `this.${e.short} = 0;`).join(' ')} };`,
)() as new () => Record<string, number>;

/** Per bureau2 element: whether it has a special value, that value, and how many values it draws from (0 to its cap). */
const B2_HAS_SPECIAL = Uint8Array.from(BUREAU2_ELEMENTS, (e) => (e.special ? 1 : 0));
const B2_SPECIAL = Int32Array.from(BUREAU2_ELEMENTS, (e) => e.special?.value ?? 0);
const B2_SPAN = Int32Array.from(BUREAU2_ELEMENTS, (e) => bureauCap(e) + 1);
const b2Values = new Int32Array(BUREAU2_ELEMENTS.length);

/**
 * Draws each element's value: its special value one time in 12.5 (if it has one), else 0 one time in
 * 10, else an integer from 0 to its cap; the same draws as `rng.chance` and `rng.int`, in one loop with
 * three call sites (54 written-out calls were too many for V8 to inline, and each was a call).
 */
function drawBureau2(rng: Rng): Int32Array {
  for (let k = 0; k < b2Values.length; k++) {
    b2Values[k] =
      B2_HAS_SPECIAL[k] === 1 && rng.next() < 0.08 ? B2_SPECIAL[k]! : rng.next() < 0.1 ? 0 : Math.floor(rng.next() * B2_SPAN[k]!);
  }
  return b2Values;
}

/**
 * Steps `rng` past the draws `drawBureau2` makes, computing no value: on the stream's state as a plain number (each
 * arriving listing skips its description's ~60 draws; through the generator's fields they were 3% of a year's moves).
 */
export function skipBureau2(rng: Rng): void {
  let s = rng.state;
  for (let k = 0; k < B2_SPAN.length; k++) {
    if (B2_HAS_SPECIAL[k] === 1) {
      s = nextState(s);
      if (mulberry32(s) < 0.08) continue;
    }
    s = nextState(s);
    // Zero one time in 10; else the value's draw, stepped over.
    if (!(mulberry32(s) < 0.1)) s = nextState(s);
  }
  rng.state = s;
}

/** Draws `b`'s values in place: one named store per element (a store by a computed name in a loop was a tenth of seeding a million). */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- compiled from the element catalogue, for V8's in-object shapes (above)
export const fillBureau2 = new Function(
  'draw',
  `return function fillBureau2(b, rng) { const v = draw(rng); ${BUREAU2_ELEMENTS.map((e, k) => `b.${e.short} = v[${k}];`).join(
    ' ',
  )} return b; };`,
)(drawBureau2) as (b: Record<string, number>, rng: Rng) => Record<string, number>;
