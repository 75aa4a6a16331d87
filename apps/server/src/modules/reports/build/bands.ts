/**
 * A curve's intervals kept honest (issue 28, item 2): the 95% t-band clamped to the metric's range (a mean of
 * values in 0..1 is in 0..1, whatever a small sample's t-band says), and the "% of people above the threshold"
 * given its own 95% interval by Wilson's score method, which stays within 0..1 and is sound at 0 and N.
 *
 * The one place the report's intervals are computed: the build uses it for every curve, and the migration that
 * brought older snapshots up to date used it too, so the report page, its exports and its presentation show the
 * same numbers.
 */

/** z(0.975), the two-sided 95% quantile of the standard normal. */
export const Z_975 = 1.959963984540054;

/**
 * The 95% Wilson score interval of `successes` out of `n`: (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n).
 * Null when n is 0.
 */
export function wilsonInterval(successes: number, n: number): { low: number; high: number } | null {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(`successes must be a whole number in 0..n, not ${successes} of ${n}`);
  }
  if (n === 0) return null;
  const p = successes / n;
  const z2 = Z_975 ** 2;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (Z_975 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // At 0 and n the bound is exactly 0 or 1 (the formula gives it up to rounding).
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === n ? 1 : Math.min(1, centre + half),
  };
}

/** A band clamped to `range`; a missing bound stays missing. */
export function clampBand(
  low: number | null,
  high: number | null,
  range: { min: number; max: number },
): { low: number | null; high: number | null } {
  const clamp = (v: number | null) => (v === null ? null : Math.min(range.max, Math.max(range.min, v)));
  return { low: clamp(low), high: clamp(high) };
}

/** A curve as stored before its intervals were kept honest: no Wilson interval of its share yet. */
interface StoredCurve {
  n: number[];
  low: (number | null)[];
  high: (number | null)[];
  share_above: (number | null)[];
  share_low?: (number | null)[];
  share_high?: (number | null)[];
}

const round4 = (v: number | null) => (v === null ? null : Math.round(v * 1e4) / 1e4);

/**
 * A stored curve brought up to date in place: its band clamped to `range`, its share's Wilson interval from the
 * share and N (the count above is the share × N, which the share's four decimals keep exactly for any N a report
 * has). What the build now writes, so a snapshot made before shows the same as one built again.
 */
export function upgradeStoredCurve(curve: StoredCurve, range: { min: number; max: number }): void {
  curve.share_low = [];
  curve.share_high = [];
  for (let p = 0; p < curve.n.length; p++) {
    const clamped = clampBand(curve.low[p] ?? null, curve.high[p] ?? null, range);
    curve.low[p] = round4(clamped.low);
    curve.high[p] = round4(clamped.high);
    const n = curve.n[p] ?? 0;
    const share = curve.share_above[p] ?? null;
    const interval = share === null || n === 0 ? null : wilsonInterval(Math.round(share * n), n);
    curve.share_low.push(interval ? round4(interval.low) : null);
    curve.share_high.push(interval ? round4(interval.high) : null);
  }
}
