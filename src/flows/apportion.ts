/**
 * Rounding parts of a whole once, by largest remainder (as the mock splits a loan's figures over its
 * notes): each part's exact figure becomes whole units so that the parts add up to the whole rounded
 * once. A table of cohorts so adds up to its total (the portfolio's figure), and a payment shared by
 * notes it cannot be matched to one by one is split without a unit lost or made.
 */

/**
 * `exact` (figures in cents, any fraction) as whole cents adding up to `total`: each rounded down, the
 * cents left given one each to the largest fractions (the earlier part first on a tie). `total` is the
 * sum of `exact` rounded, so 0 ≤ cents left < parts.
 */
export function apportionRounded(exact: readonly number[], total: number): number[] {
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((s, p) => s + p, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i]! += 1;
    left -= 1;
  }
  return parts;
}

/** `total` (whole units, either sign) split over `weights` by largest remainder (the earlier weight first on a tie); every part is whole. */
export function apportionUnits(total: number, weights: readonly number[]): number[] {
  const whole = weights.reduce((s, w) => s + w, 0);
  if (!(whole > 0)) return weights.map((_, i) => (i === 0 ? total : 0));
  const size = Math.abs(total);
  const parts = apportionRounded(
    weights.map((w) => (size * w) / whole),
    size,
  );
  return total < 0 ? parts.map((p) => -p) : parts;
}
