/**
 * Rounding parts of a whole once: each part's exact figure becomes whole cents so that the parts add
 * up to the whole rounded once (largest remainder, as the mock splits a loan's figures over its notes),
 * so a table of cohorts adds up to its total and the total is the portfolio's figure.
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
