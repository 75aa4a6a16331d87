import {
  type Curve,
  isCorrectedMetric,
  metricRange,
  REPORT_METRICS,
  type ReportMetric,
  type ReportType,
  SHARE_THRESHOLD,
} from '@emolens/contracts';
import type { DigestBuckets, ReportDigest } from '../../processing/digest.ts';
import type { ReportSummaryPart } from '../reports.repository.ts';
import { band } from './aggregate.ts';
import { clampBand, wilsonInterval } from './bands.ts';

/**
 * A report's curves (`build.ts`): per content item and point, each included respondent's value of every metric from
 * their digest's per-second buckets (`pointMatrices`), then over respondents N, mean, the t-band clamped to the
 * metric's range and the share above the threshold with its Wilson interval (`curvesOf`).
 */

/** What the curves read of one included respondent: their digest's buckets and resting means, and their baseline. */
export interface CurveRespondent extends Pick<ReportDigest, 'buckets' | 'resting'> {
  session: { summary: Pick<ReportSummaryPart, 'baseline'> };
}

/**
 * What "calibration-subtraction" takes from a respondent's metric: 0 for raw reports and the metrics it does not
 * correct (`isCorrectedMetric`); NaN: none known.
 */
function baselineOf(data: CurveRespondent, metric: ReportMetric, type: ReportType): number {
  if (type !== 'calibration_subtraction' || !isCorrectedMetric(metric)) return 0;
  const b =
    metric === 'engagement' || metric === 'valence'
      ? (data.session.summary.baseline?.[metric] ?? null)
      : data.resting[metric];
  return b ?? Number.NaN;
}

/** Points of the item's curves: the last point anyone has a value in, or the content's own length. */
export function pointCount(
  included: readonly CurveRespondent[],
  item: { index: number; seconds: number | null },
  step: number,
): number {
  let last = -1;
  for (const { buckets: b } of included) {
    for (let k = 0; k < b.length; k++) {
      if (b.item[k] === item.index) last = Math.max(last, Math.floor((b.second[k] as number) / step));
    }
  }
  return Math.max(last + 1, item.seconds ? Math.ceil(item.seconds / step) : 0);
}

/** Which point of a curve a bucket of a respondent's series falls in (`length` points; out of range: none). */
export type PointOf = (buckets: DigestBuckets, k: number) => number;

/**
 * Every respondent's value of every metric at every point of the item, as one matrix per metric
 * (`[r · length + p]`, NaN where they have none): the mean of their per-second values in the point, baseline
 * removed. A respondent without the baseline a corrected report needs has no values of that metric.
 */
export function pointMatrices(
  included: readonly CurveRespondent[],
  item: number,
  type: ReportType,
  length: number,
  pointOf: PointOf,
) {
  const size = included.length * length;
  // Where each respondent's buckets fall in the matrix, found once for every metric (-1: no point of the item).
  const cells = included.map((data, r) => {
    const b = data.buckets;
    const at = new Int32Array(b.length);
    for (let k = 0; k < b.length; k++) {
      const p = pointOf(b, k);
      at[k] = b.item[k] === item && p >= 0 && p < length ? r * length + p : -1;
    }
    return at;
  });
  return Object.fromEntries(
    REPORT_METRICS.map((metric) => {
      const sums = new Float64Array(size);
      const counts = new Uint16Array(size);
      included.forEach((data, r) => {
        const baseline = baselineOf(data, metric, type);
        if (Number.isNaN(baseline)) return;
        const values = data.buckets.metrics[metric];
        const at = cells[r] as Int32Array;
        for (let k = 0; k < at.length; k++) {
          const v = values[k] as number;
          const cell = at[k] as number;
          if (cell < 0 || Number.isNaN(v)) continue;
          sums[cell] = (sums[cell] as number) + v - baseline;
          counts[cell] = (counts[cell] as number) + 1;
        }
      });
      for (let i = 0; i < size; i++) sums[i] = counts[i] ? (sums[i] as number) / (counts[i] as number) : Number.NaN;
      return [metric, sums];
    }),
  ) as Record<ReportMetric, Float64Array>;
}

/** Points of a task's step curve: one more than the most steps anyone reached (at least the start). */
export function stepCount(included: readonly CurveRespondent[], item: number): number {
  let most = 0;
  for (const { buckets: b } of included) {
    for (let k = 0; k < b.length; k++) {
      const step = b.step[k] as number;
      if (b.item[k] === item && Number.isFinite(step)) most = Math.max(most, step);
    }
  }
  return most + 1;
}

export const round = (v: number | null, digits = 4) =>
  v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits;

/**
 * The curve of some respondents (`members`: rows of the matrix): per point N, mean, the t-band clamped to the
 * metric's `range`, the share above with its Wilson interval (`bands.ts`).
 */
function curveOf(
  matrix: Float64Array,
  members: readonly number[],
  length: number,
  range: { min: number; max: number },
): Curve {
  const curve: Curve = { n: [], mean: [], low: [], high: [], share_above: [], share_low: [], share_high: [] };
  const values = new Float64Array(members.length);
  for (let p = 0; p < length; p++) {
    let n = 0;
    let above = 0;
    for (const r of members) {
      const v = matrix[r * length + p] as number;
      if (Number.isNaN(v)) continue;
      values[n++] = v;
      if (v > SHARE_THRESHOLD) above++;
    }
    const b = band(values.subarray(0, n));
    const clamped = clampBand(b.low, b.high, range);
    const share = wilsonInterval(above, n);
    curve.n.push(b.n);
    curve.mean.push(round(b.mean));
    curve.low.push(round(clamped.low));
    curve.high.push(round(clamped.high));
    curve.share_above.push(n ? round(above / n) : null);
    curve.share_low.push(share ? round(share.low) : null);
    curve.share_high.push(share ? round(share.high) : null);
  }
  return curve;
}

export const curvesOf = (
  matrices: Record<ReportMetric, Float64Array>,
  members: readonly number[],
  length: number,
  type: ReportType,
) =>
  Object.fromEntries(
    REPORT_METRICS.map((m) => [m, curveOf(matrices[m], members, length, metricRange(m, type))]),
  ) as Record<ReportMetric, Curve>;
