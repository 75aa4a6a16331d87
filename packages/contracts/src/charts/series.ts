import type { YAXisComponentOption } from 'echarts';
import type { LineSeriesOption } from 'echarts/charts';
import { type Curve, metricRange, REPORT_METRICS, type ReportMetric, type ReportType, SMALL_N } from '../reports.ts';

/**
 * The curves chart's honesty about its sample (issue 28, item 2): each line's interval drawn strong where enough
 * respondents stand behind it and faint where fewer than SMALL_N do, N itself drawn on the chart (a grey step area
 * on a second axis along the bottom), and the value axis drawn over the metrics' own range. The intervals come from
 * the snapshot as the server computed them (clamped t-band, Wilson interval of the share).
 */

const BAND_OPACITY = 0.16;
const FAINT_OPACITY = 0.05;
export const N_COLOR = '#868e96';
/** N takes the lowest quarter of the plot: its axis runs to four times the largest N. */
const N_SHARE = 4;

/** Whether a point's interval stands on too few respondents to mean much (drawn faint, said in the tooltip). */
export const isSmallN = (n: readonly number[], i: number) => (n[i] ?? 0) < SMALL_N;

/**
 * The value axis' range for some metrics of a report: the union of their ranges (engagement 0..1; with valence
 * −1..1; a calibration-subtracted report's differences ± the width).
 */
export function valueRange(metrics: readonly ReportMetric[], type: ReportType): { min: number; max: number } {
  const ranges = REPORT_METRICS.filter((m) => metrics.includes(m)).map((m) => metricRange(m, type));
  if (!ranges.length) return { min: 0, max: 1 };
  return { min: Math.min(...ranges.map((r) => r.min)), max: Math.max(...ranges.map((r) => r.max)) };
}

/** A step of 1, 2 or 5 times a power of ten, at least `rough`. */
function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  return ([1, 2, 5, 10].find((m) => m * power >= rough * (1 - 1e-9)) ?? 10) * power;
}

/**
 * The value axis fitted to what is drawn (expressions' small shares, a short strip): from the values' extent, 0
 * kept in sight, out to round steps (about four), never beyond `range` — the metrics' own. Nothing drawn: `range`.
 */
export function fittedRange(
  values: Iterable<number | null | undefined>,
  range: { min: number; max: number },
): { min: number; max: number } {
  let lo = 0;
  let hi = 0;
  for (const v of values) {
    if (typeof v !== 'number' || !Number.isFinite(v)) continue;
    lo = Math.min(lo, v);
    hi = Math.max(hi, v);
  }
  if (hi <= lo) return range;
  const step = niceStep((hi - lo) / 4);
  const round = (k: number) => Number((k * step).toPrecision(12));
  return {
    min: Math.max(range.min, round(Math.floor(lo / step + 1e-9))),
    max: Math.min(range.max, round(Math.ceil(hi / step - 1e-9))),
  };
}

/**
 * A line's interval as stacked series: the low bound (invisible) and the width `high − low` filled over it (stacked
 * on any sign, so an interval below zero holds). Two such pairs: `low:`/`band:` over the points with N ≥ SMALL_N,
 * `faintlow:`/`faint:` — much lighter — over the segments that touch a point with fewer. Missing bounds are gaps.
 */
export function bandSeries(
  line: { key: string; label: string; color: string },
  x: readonly number[],
  low: readonly (number | null)[],
  high: readonly (number | null)[],
  n: readonly number[],
): LineSeriesOption[] {
  // A point with too few respondents that has an interval at all (a point with none makes no segment faint).
  const small = (i: number) => i >= 0 && i < x.length && isSmallN(n, i) && low[i] != null && high[i] != null;
  const parts = [
    { low: 'low', band: 'band', opacity: BAND_OPACITY, at: (i: number) => !small(i) },
    {
      low: 'faintlow',
      band: 'faint',
      opacity: FAINT_OPACITY,
      at: (i: number) => small(i - 1) || small(i) || small(i + 1),
    },
  ];
  const common = {
    type: 'line' as const,
    name: line.label,
    color: line.color,
    stackStrategy: 'all' as const,
    symbol: 'none',
    silent: true,
    connectNulls: false,
    lineStyle: { opacity: 0 },
    emphasis: { disabled: true },
    z: 1,
  };
  const series: LineSeriesOption[] = [];
  for (const part of parts) {
    const bounds = x.map((_, i) => {
      const l = low[i];
      const h = high[i];
      return part.at(i) && l !== null && l !== undefined && h !== null && h !== undefined ? { l, h } : null;
    });
    if (part.band === 'faint' && bounds.every((b) => b === null)) continue;
    const stack = `${part.band}:${line.key}`;
    series.push({
      ...common,
      stack,
      id: `${part.low}:${line.key}`,
      data: x.map((at, i) => [at, bounds[i]?.l ?? null]),
    });
    series.push({
      ...common,
      stack,
      id: `${part.band}:${line.key}`,
      areaStyle: { color: line.color, opacity: part.opacity },
      data: x.map((at, i) => {
        const b = bounds[i];
        return [at, b ? b.h - b.l : null];
      }),
    });
  }
  return series;
}

/**
 * N per point on the second axis: one grey step area when every line stands on the same respondents, else one
 * per distinct N in its line's colour (segments compared). All share the name `name`: the legend shows or hides N
 * as one.
 */
export function nSeries(
  lines: readonly { key: string; color: string; curve: Curve }[],
  x: readonly number[],
  name: string,
): LineSeriesOption[] {
  const distinct = new Map<string, { key: string; color: string; n: readonly number[] }>();
  for (const line of lines) {
    const id = line.curve.n.join(',');
    if (!distinct.has(id)) distinct.set(id, { key: line.key, color: line.color, n: line.curve.n });
  }
  const one = distinct.size === 1;
  return [...distinct.values()].map((d) => ({
    type: 'line',
    id: `n:${d.key}`,
    name,
    yAxisIndex: 1,
    step: 'middle',
    data: x.map((at, i) => [at, d.n[i] ?? 0]),
    color: one ? N_COLOR : d.color,
    lineStyle: { width: 1, opacity: 0.7 },
    areaStyle: { opacity: one ? 0.12 : 0.05 },
    symbol: 'none',
    silent: true,
    connectNulls: false,
    emphasis: { disabled: true },
    z: 0,
  }));
}

/**
 * The value axes: the curves' (`name`, over `range`) on the left and — with `maxN` — N's on the right, run to four
 * times the largest N so that it keeps to the plot's lowest quarter, labelled at 0 and the largest N only.
 */
export function valueAxes(input: {
  name: string;
  range: { min: number; max: number };
  format: (v: number) => string;
  fontSize: number;
  n?: { name: string; max: number };
}): YAXisComponentOption[] {
  const axisName = {
    nameLocation: 'middle' as const,
    nameTextStyle: { color: '#495057', fontSize: input.fontSize - 1 },
  };
  const values: YAXisComponentOption = {
    type: 'value',
    name: input.name,
    nameGap: 40,
    ...axisName,
    min: input.range.min,
    max: input.range.max,
    axisLabel: { formatter: input.format, fontSize: input.fontSize },
  };
  if (!input.n) return [values];
  const top = Math.max(1, input.n.max);
  return [
    values,
    {
      type: 'value',
      name: input.n.name,
      nameGap: 26,
      ...axisName,
      position: 'right',
      min: 0,
      max: top * N_SHARE,
      interval: top,
      splitLine: { show: false },
      axisLabel: { color: N_COLOR, formatter: (v: number) => (v <= top ? String(v) : ''), fontSize: input.fontSize },
    },
  ];
}
