/**
 * The arithmetic of a report's curves (issue 13, item 2; design section 8): per second of the content, over the
 * respondents who have a value there, the number of respondents N, their mean, and a 95% confidence band by
 * Student's t-interval — mean ± t(0.975, N − 1) · s / √N, with s the sample standard deviation (n − 1). A
 * second with fewer than two values has a mean but no band. Also the share of respondents above a threshold
 * (the "% of people" of the commercial tools) and the curve's key moments.
 *
 * Pure functions over plain arrays: the report job feeds them the stored per-second series.
 */

/** One second of a curve. */
export interface BandPoint {
  n: number;
  mean: number | null;
  /** The 95% band; null below two values. */
  low: number | null;
  high: number | null;
}

/** Two-sided 95% quantiles of Student's t, t(0.975, df), for df 1–30 (standard tables, 4 decimals). */
const T_975 = [
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.306, 2.2622, 2.2281, 2.201, 2.1788, 2.1604, 2.1448, 2.1314,
  2.1199, 2.1098, 2.1009, 2.093, 2.086, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
];
const Z_975 = 1.959963984540054;

/**
 * t(0.975, df): the table up to 30 degrees of freedom, above it the Cornish–Fisher expansion around the normal
 * quantile (error below 1e-4 from df 31 on; it tends to 1.96).
 */
export function tQuantile975(df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`degrees of freedom must be a whole number ≥ 1, not ${df}`);
  if (df <= T_975.length) return T_975[df - 1] as number;
  const z = Z_975;
  const z3 = z ** 3;
  const z5 = z ** 5;
  const z7 = z ** 7;
  return (
    z +
    (z3 + z) / (4 * df) +
    (5 * z5 + 16 * z3 + 3 * z) / (96 * df ** 2) +
    (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df ** 3)
  );
}

/** N, mean and the 95% t-band of some values (nulls and non-finite values left out). */
export function band(values: ArrayLike<number | null | undefined> & Iterable<number | null | undefined>): BandPoint {
  let n = 0;
  let sum = 0;
  for (const v of values) {
    if (typeof v === 'number' && Number.isFinite(v)) {
      n += 1;
      sum += v;
    }
  }
  if (n === 0) return { n, mean: null, low: null, high: null };
  const mean = sum / n;
  if (n < 2) return { n, mean, low: null, high: null };
  let squares = 0;
  for (const v of values) if (typeof v === 'number' && Number.isFinite(v)) squares += (v - mean) ** 2;
  const half = (tQuantile975(n - 1) * Math.sqrt(squares / (n - 1))) / Math.sqrt(n);
  return { n, mean, low: mean - half, high: mean + half };
}

/**
 * Per second, over respondents (`series[r][s]`: respondent r's value at second s, null where they have none;
 * series may differ in length): the band of each second up to the longest series.
 */
export function perSecondBands(series: readonly (readonly (number | null)[])[]): BandPoint[] {
  const seconds = Math.max(0, ...series.map((s) => s.length));
  return Array.from({ length: seconds }, (_, s) => band(series.map((r) => r[s])));
}

/** Per second, the share of the respondents with a value there whose value is above `threshold` (null: nobody). */
export function perSecondShareAbove(
  series: readonly (readonly (number | null)[])[],
  threshold: number,
): (number | null)[] {
  const seconds = Math.max(0, ...series.map((s) => s.length));
  return Array.from({ length: seconds }, (_, s) => {
    let n = 0;
    let above = 0;
    for (const r of series) {
      const v = r[s];
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      n += 1;
      if (v > threshold) above += 1;
    }
    return n ? above / n : null;
  });
}

export interface KeyMoment {
  second: number;
  kind: 'peak' | 'drop';
  value: number;
  /** How far the curve falls (peak) or rises (drop) on both sides before it turns back: the moment's weight. */
  prominence: number;
}

/**
 * The key moments of a curve: its peaks and drops whose topographic prominence reaches `minProminence` (in the
 * curve's units), found on seconds with at least `minN` respondents, strongest first, at most `limit`.
 * Prominence of a peak: its height above the higher of the two lowest points between it and a higher point
 * (or the curve's end) on each side; of a drop, the same for the inverted curve. The first and last seconds with
 * a value are not moments (the curve starts or stops there).
 */
export function keyMoments(
  curve: readonly BandPoint[],
  options: { minProminence: number; minN?: number; limit?: number },
): KeyMoment[] {
  const minN = options.minN ?? 2;
  const values = curve.map((p) => (p.mean !== null && p.n >= minN ? p.mean : null));
  const moments = [
    ...extremes(values, 1).map((m) => ({ ...m, kind: 'peak' as const })),
    ...extremes(values, -1).map((m) => ({ ...m, kind: 'drop' as const })),
  ].filter((m) => m.prominence >= options.minProminence);
  moments.sort((a, b) => b.prominence - a.prominence || a.second - b.second);
  return moments.slice(0, options.limit ?? 5);
}

/** Local maxima of `sign · values` (a plateau counts once, at its first second) with their prominence. */
function extremes(values: readonly (number | null)[], sign: 1 | -1) {
  const v = values.map((x) => (x === null ? null : sign * x));
  const found: { second: number; value: number; prominence: number }[] = [];
  for (let i = 0; i < v.length; i++) {
    const here = v[i];
    if (here === null || here === undefined) continue;
    const before = previousValue(v, i);
    let j = i + 1;
    while (j < v.length && v[j] === here) j++;
    const after = j < v.length ? v[j] : null;
    // A moment at either end of the curve is where it starts or stops, not a peak or drop within it.
    if (before === null || after === null || after === undefined) continue;
    if (before >= here || after > here) continue;
    const left = sideBase(v, i, -1, here);
    const right = sideBase(v, j - 1, 1, here);
    // Rounded to 1e-9 (far below any curve's resolution), so that equal prominences sort and compare as equal.
    const prominence = Math.round((here - Math.max(left, right)) * 1e9) / 1e9;
    found.push({ second: i, value: sign * here, prominence });
  }
  return found;
}

function previousValue(v: readonly (number | null)[], i: number): number | null {
  for (let k = i - 1; k >= 0; k--) if (v[k] !== null && v[k] !== undefined) return v[k] as number;
  return null;
}

/** The lowest value walking from `from` in `step` direction until a value above `height` or the end. */
function sideBase(v: readonly (number | null)[], from: number, step: 1 | -1, height: number): number {
  let lowest = height;
  for (let k = from + step; k >= 0 && k < v.length; k += step) {
    const x = v[k];
    if (x === null || x === undefined) continue;
    if (x > height) break;
    lowest = Math.min(lowest, x);
  }
  return lowest;
}
