import {
  type Curve,
  METRIC_COLORS,
  MOMENT_COLORS,
  type ReportItem,
  type ReportMetric,
  SEGMENT_COLORS,
} from '@emolens/contracts';
import type { EChartsOption, SeriesOption } from 'echarts';

/**
 * ECharts options for a report's files (presentation slides and the video's curve strip): the same curves the
 * cabinet draws — each metric's mean with its 95% band, N per point — in the same colours.
 */

/** A line series' points: [second, value], a gap where the value is missing. */
const points = (seconds: readonly number[], values: readonly (number | null)[]) =>
  seconds.map((s, i) => [s, values[i] ?? null] as [number, number | null]);

/** The 95% band as two stacked series (low, then high − low filled), and the mean as a line. */
function curveSeries(name: string, color: string, seconds: readonly number[], curve: Curve): SeriesOption[] {
  const stack = `band:${name}`;
  const width = curve.low.map((low, i) => {
    const high = curve.high[i];
    return low === null || high === null || high === undefined ? null : high - low;
  });
  return [
    {
      type: 'line',
      name: `${name} low`,
      stack,
      stackStrategy: 'all',
      data: points(seconds, curve.low),
      lineStyle: { opacity: 0 },
      symbol: 'none',
      silent: true,
      legendHoverLink: false,
    },
    {
      type: 'line',
      name: `${name} band`,
      stack,
      stackStrategy: 'all',
      data: points(seconds, width),
      lineStyle: { opacity: 0 },
      areaStyle: { color, opacity: 0.18 },
      symbol: 'none',
      silent: true,
      legendHoverLink: false,
    },
    { type: 'line', name, data: points(seconds, curve.mean), lineStyle: { color, width: 2.5 }, color, symbol: 'none' },
  ];
}

/** The plot's margins (px) left and right when N is not drawn: where second 0 and the last second fall. */
export const CURVE_GRID = { left: 56, right: 24 } as const;

const axisName = { nameLocation: 'middle' as const, nameGap: 28, nameTextStyle: { color: '#495057' } };

/** Lines with bands over the item's seconds, N as grey bars on a right axis; key moments marked on the first. */
export function curvesOption(
  item: ReportItem,
  lines: { name: string; color: string; curve: Curve }[],
  labels: { second: string; n: string; peak: string; drop: string; number?: (value: number) => string },
  options: { moments?: boolean; n?: readonly number[]; xMax?: number; legend?: boolean; fitValues?: boolean } = {},
): EChartsOption {
  const seconds = item.seconds;
  const series: SeriesOption[] = lines.flatMap((line) => curveSeries(line.name, line.color, seconds, line.curve));
  const first = series[2];
  if (options.moments && first && item.moments.length) {
    Object.assign(first, {
      markPoint: {
        symbolSize: 34,
        data: item.moments.map((m) => ({
          coord: [m.second, m.value],
          value: m.kind === 'peak' ? labels.peak : labels.drop,
          itemStyle: { color: MOMENT_COLORS[m.kind] },
          symbol: m.kind === 'peak' ? 'pin' : 'arrow',
          label: { fontSize: 9 },
        })),
      },
    });
  }
  if (options.n) {
    series.push({
      type: 'bar',
      name: labels.n,
      yAxisIndex: 1,
      data: points(seconds, options.n),
      itemStyle: { color: '#ced4da', opacity: 0.45 },
      barMaxWidth: 6,
      silent: true,
    });
  }
  const last = seconds.length ? (seconds[seconds.length - 1] as number) : 0;
  // Axis numbers in the report's language (its decimal separator).
  const number = labels.number;
  const axisLabel = number ? { axisLabel: { formatter: (value: number) => number(value) } } : {};
  return {
    color: lines.map((l) => l.color),
    legend: { show: options.legend !== false, data: lines.map((l) => l.name), top: 0 },
    grid: { left: CURVE_GRID.left, right: options.n ? 56 : CURVE_GRID.right, top: 36, bottom: 44 },
    xAxis: {
      type: 'value',
      min: 0,
      max: options.xMax ?? Math.max(1, last),
      name: labels.second,
      ...axisName,
      ...axisLabel,
    },
    yAxis: [
      // Metrics live in [-1, 1] (valence) or [0, 1]: a wide band is cut at the scale's ends. Expressions' shares
      // are small: their axis fits them (`fitValues`).
      options.fitValues
        ? { type: 'value', min: 0, splitLine: { lineStyle: { color: '#e9ecef' } }, ...axisLabel }
        : {
            type: 'value',
            min: (v: { min: number }) => (v.min >= 0 ? 0 : -1),
            max: 1,
            splitLine: { lineStyle: { color: '#e9ecef' } },
            ...axisLabel,
          },
      // N keeps to the lower third of the plot; its axis ends on a whole step, so no two labels crowd at the top.
      ...(options.n
        ? [{ type: 'value' as const, name: labels.n, ...nAxis(options.n), splitLine: { show: false } }]
        : []),
    ],
    series,
  };
}

/** A step of 1, 2 or 5 times a power of ten, at least `rough` (and at least 1: N is whole). */
function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(1, rough)));
  return ([1, 2, 5, 10].find((m) => m * power >= rough) ?? 10) * power;
}

/** The N axis: from 0 to three times the largest N (the bars fill the plot's lower third), in about four steps. */
export function nAxis(n: readonly number[]): { min: number; max: number; interval: number } {
  const top = 3 * Math.max(1, ...n);
  const interval = niceStep(top / 4);
  return { min: 0, max: interval * Math.ceil(top / interval), interval };
}

/** A metric's line of the item (overall). */
export const metricLine = (item: ReportItem, metric: ReportMetric, name: string) => ({
  name,
  color: METRIC_COLORS[metric],
  curve: item.curves[metric],
});

/** The item's segments on one metric, each in its colour. */
export const segmentLines = (item: ReportItem, metric: ReportMetric, nameOf: (key: string, i: number) => string) =>
  item.segments.map((segment, i) => ({
    name: nameOf(segment.key, i),
    color: SEGMENT_COLORS[i % SEGMENT_COLORS.length] ?? '#495057',
    curve: segment.curves[metric],
  }));

/**
 * Horizontal bars (0–100), one per label: a question's options' shares, or a benchmark's percentiles; each bar's
 * value written by `label` (the report's number format).
 */
export function barsOption(
  bars: { label: string; value: number }[],
  color: string,
  label: (value: number) => string,
  max = 100,
): EChartsOption {
  const shown = [...bars].reverse();
  return {
    grid: { left: 16, right: 56, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value', min: 0, max, splitLine: { lineStyle: { color: '#e9ecef' } } },
    yAxis: {
      type: 'category',
      data: shown.map((b) => (b.label.length > 48 ? `${b.label.slice(0, 47)}…` : b.label)),
      axisTick: { show: false },
    },
    series: [
      {
        type: 'bar',
        data: shown.map((b) => b.value),
        itemStyle: { color, borderRadius: [0, 3, 3, 0] },
        label: { show: true, position: 'right', formatter: (p: { value?: unknown }) => label(Number(p.value)) },
        barMaxWidth: 26,
      },
    ],
  };
}
