/**
 * The internal rate of return of dated cash flows: the rate per period r at which the flows' present
 * value Σ aᵢ·(1+r)^(−tᵢ) is zero. The rate is searched as x = ln(1+r) over a grid wide enough for any
 * loan portfolio (−99.9999% to +700% a period: a year's rate of notes charged off within weeks is near
 * −100%); a single sign change of the present value brackets the
 * root, which safeguarded Newton refines (a Newton step that leaves the bracket becomes a bisection).
 * No root, or more than one, is an answer too: null with the reason, never a guess.
 */
import { percent } from '../output/columns.js';

/** One cash flow: `at` in periods (any origin), `amount` positive in, negative out. */
export interface Flow {
  at: number;
  amount: number;
}

/** The rate per period, or null and why there is none. */
export type IrrResult = { rate: number; reason: null } | { rate: null; reason: string };

const X_MIN = Math.log(1e-6);
const X_MAX = Math.log(8);
const GRID_STEP = 0.01;
const TOLERANCE = 1e-14;
const MAX_ITERATIONS = 200;

/** Flows at the same time merged, zeros dropped, times from the earliest, in time order. */
function normalise(flows: readonly Flow[]): Flow[] {
  const byTime = new Map<number, number>();
  for (const f of flows) {
    if (!Number.isFinite(f.at) || !Number.isFinite(f.amount))
      throw new RangeError(`cash flow ${f.amount} at ${f.at} is not a finite number`);
    byTime.set(f.at, (byTime.get(f.at) ?? 0) + f.amount);
  }
  const merged = [...byTime].filter(([, a]) => a !== 0).sort((a, b) => a[0] - b[0]);
  const t0 = merged[0]?.[0] ?? 0;
  return merged.map(([at, amount]) => ({ at: at - t0, amount }));
}

/**
 * The present value (scaled by a positive factor that keeps every term ≤ 1, so long horizons cannot
 * overflow) and its derivative in x. Roots are those of the plain present value.
 */
function presentValue(flows: readonly Flow[], x: number): { value: number; slope: number } {
  const origin = x < 0 ? flows[flows.length - 1]!.at : 0;
  let value = 0;
  let slope = 0;
  for (const f of flows) {
    const t = f.at - origin;
    const term = f.amount * Math.exp(-x * t);
    value += term;
    slope -= t * term;
  }
  return { value, slope };
}

/** The grid the roots are bracketed on: X_MIN, then a GRID_STEP on at a time (each point the last plus the step), to X_MAX. */
export function gridPoints(): number[] {
  const xs = [X_MIN];
  for (let x = X_MIN + GRID_STEP; x <= X_MAX + GRID_STEP / 2; x += GRID_STEP) xs.push(x);
  return xs;
}

/** Points in a run whose terms are carried by multiplication before one is worked out again with `Math.exp`. */
const ANCHOR = 16;

/**
 * The present value (as `presentValue` scales it) of `fs` (in time order, from 0, as `irr` normalises them) at every
 * point `xs` of the grid. A flow's term at the next point is its term here times exp(−step·t), and every ANCHOR points,
 * and where the origin moves (at x = 0), it is worked out again from its own exp: an exp per flow and point (some 1,600
 * points) was about half of `mkt portfolio`'s CPU time. The sum differs from the exps' by rounding that grows with the
 * flows' times: within 10⁻¹¹ of the terms' absolute sum for times in months or years (test/portfolio-return.test.ts),
 * which changes no sign the scan reads unless the present value is that close to zero there; the rate itself comes
 * from `refine`, with `presentValue`.
 */
export function gridValues(fs: readonly Flow[], xs: readonly number[]): Float64Array {
  const values = new Float64Array(xs.length);
  const last = fs[fs.length - 1]!.at;
  for (const f of fs) {
    for (let k = 0; k < xs.length;) {
      const x = xs[k]!;
      const below = x < 0;
      const t = f.at - (below ? last : 0);
      const step = Math.exp(-GRID_STEP * t);
      // A factor past a double's range (a flow some 70,000 periods before the last) would make a term that underflowed
      // to 0 NaN: such a flow takes every point's exp.
      const carry = step < Infinity;
      let term = f.amount * Math.exp(-x * t);
      values[k]! += term;
      const end = Math.min(xs.length, k + ANCHOR);
      for (k++; k < end && xs[k]! < 0 === below; k++) {
        term = carry ? term * step : f.amount * Math.exp(-xs[k]! * t);
        values[k]! += term;
      }
    }
  }
  return values;
}

/** A log rate as the percentage it compounds to. */
const rateText = (x: number): string => percent(Math.exp(x) - 1);

/** The rate per period of `flows` (see the module comment), or null with a reason naming the period as `per` ('a year'). */
export function irr(flows: readonly Flow[], per = 'a period'): IrrResult {
  const fs = normalise(flows);
  if (!fs.some((f) => f.amount < 0)) return { rate: null, reason: 'no money went out (no purchase among the cash flows)' };
  if (!fs.some((f) => f.amount > 0))
    return { rate: null, reason: 'no money came back and none is expected (every cash flow is an outflow)' };
  const brackets: [number, number][] = [];
  const xs = gridPoints();
  const values = gridValues(fs, xs);
  let prevX = X_MIN;
  let prev = values[0]!;
  for (let k = 1; k < xs.length; k++) {
    const x = xs[k]!;
    const v = values[k]!;
    if (prev === 0) brackets.push([prevX, prevX]);
    else if (Math.sign(v) === -Math.sign(prev)) brackets.push([prevX, x]);
    prevX = x;
    prev = v;
  }
  if (prev === 0) brackets.push([prevX, prevX]);
  if (brackets.length === 0)
    return { rate: null, reason: `no rate from ${rateText(X_MIN)} to ${rateText(X_MAX)} ${per} makes the flows' present value zero` };
  if (brackets.length > 1) {
    const near = brackets.map(([lo, hi]) => rateText(refine(fs, lo, hi))).join(', ');
    return { rate: null, reason: `the flows change sign so that several rates fit (about ${near} ${per})` };
  }
  return { rate: Math.exp(refine(fs, brackets[0]![0], brackets[0]![1])) - 1, reason: null };
}

/** Safeguarded Newton in [lo, hi], where the present value changes sign (or lo = hi is the root). */
function refine(fs: readonly Flow[], lo: number, hi: number): number {
  if (lo === hi) return lo;
  const loSign = Math.sign(presentValue(fs, lo).value);
  let x = (lo + hi) / 2;
  for (let i = 0; i < MAX_ITERATIONS && hi - lo > TOLERANCE; i++) {
    const { value, slope } = presentValue(fs, x);
    if (value === 0) return x;
    if (Math.sign(value) === loSign) lo = x;
    else hi = x;
    const newton = slope !== 0 ? x - value / slope : NaN;
    const next = newton > lo && newton < hi ? newton : (lo + hi) / 2;
    if (Math.abs(next - x) < TOLERANCE) return next;
    x = next;
  }
  return x;
}
