import type { LineSeriesOption } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  MarkLineComponentOption,
  MarkPointComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { METRIC_COLORS, MOMENT_COLORS, SEGMENT_COLORS } from '../report-colours.ts';
import { reportFormat } from '../report-format.ts';
import { type Curve, REPORT_METRICS, type ReportItem, type ReportMetric } from '../reports.ts';
import { bandSeries, fittedRange, nSeries, valueAxes } from './series.ts';
import { pointX, timeAxis, timeSpan } from './time.ts';
import { curvesTooltip, type TooltipText } from './tooltip.ts';

/**
 * A report's curves chart as an ECharts option, one builder for every place it is drawn: the cabinet's report page
 * (interactive: tooltip, a time cursor), the presentation's slides and the video export's strip (`static`: drawn
 * once on the server, key moments labelled). The look is the same; what differs is an option.
 */

export type CurvesOption = ComposeOption<
  | LineSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
  | MarkLineComponentOption
  | MarkPointComponentOption
>;

/** Several metrics over compared segments: the segment is the colour, the metric the line's dash. */
const DASHES = ['solid', 'dashed', 'dotted'] as const;
const CURSOR_COLOR = '#212529';

export type CurveMode = 'mean' | 'share';

/** A line of the chart: a metric's curve (overall, or of one segment). */
export interface CurveLine {
  key: string;
  /** Its name in the legend and tooltip (unique on a chart). */
  label: string;
  color: string;
  dash: (typeof DASHES)[number];
  curve: Curve;
  /** The line whose points carry the key moments (the overall engagement curve). */
  moments: boolean;
}

type Segment = ReportItem['segments'][number];

/**
 * The lines to draw: each chosen metric over everyone, or — comparing segments — each segment's curve of each
 * chosen metric (the segment's colour; with several metrics, the metric's dash).
 */
export function curveLines(
  item: Pick<ReportItem, 'curves' | 'segments'>,
  metrics: readonly ReportMetric[],
  compare: boolean,
  /** The segment's legend name (its label and respondent count). */
  names: { metric: (metric: ReportMetric) => string; segment: (segment: Segment) => string },
): CurveLine[] {
  const chosen = REPORT_METRICS.filter((m) => metrics.includes(m));
  if (!compare || item.segments.length === 0) {
    return chosen.map((metric) => ({
      key: metric,
      label: names.metric(metric),
      color: METRIC_COLORS[metric],
      dash: 'solid',
      curve: item.curves[metric],
      moments: metric === 'engagement',
    }));
  }
  return chosen.flatMap((metric, m) =>
    item.segments.map((segment, s) => {
      const name = names.segment(segment);
      return {
        key: `${metric}:${segment.key}`,
        label: chosen.length > 1 ? `${names.metric(metric)} · ${name}` : name,
        color: SEGMENT_COLORS[s % SEGMENT_COLORS.length] ?? CURSOR_COLOR,
        dash: DASHES[m % DASHES.length] ?? 'solid',
        curve: segment.curves[metric],
        moments: false,
      };
    }),
  );
}

/** What a static chart names: the key moments and N's axis. */
export interface CurvesLabels {
  peak: string;
  drop: string;
  /** The N axis' name. */
  nAxis: string;
}
/** What the cabinet's chart names: the same, and its tooltip's words. */
export type CurvesText = CurvesLabels & TooltipText;

interface CurvesBase {
  seconds: readonly number[];
  step: number;
  /** Named points instead of time (a website task's progress): a category axis with these labels. */
  categories?: readonly string[];
  lines: readonly CurveLine[];
  mode: CurveMode;
  moments: ReportItem['moments'];
  /** The numbers' language (`reportFormat`). */
  language: string;
  /** The value axis' name, and (mean mode) its range: the metrics' own (`valueRange`). */
  yName: string;
  range: { min: number; max: number };
  /** The value axis fitted to the values drawn, within `range` (expressions' small shares, a short strip). */
  fit?: boolean;
  /** N on its own axis along the bottom (default); off where the legend names each line's N. */
  showN?: boolean;
  /** The time axis' end, in seconds (default: the end of the last point); a video's length. */
  span?: number;
  /** The axes' and legend's text size (px). */
  fontSize?: number;
}

/** The cabinet's chart (tooltip, cursor), or a file's (`static`: drawn once, moments labelled, no tooltip). */
export type CurvesInput = CurvesBase & ({ static?: false; text: CurvesText } | { static: true; text: CurvesLabels });

/** The plot's margins (px): where second 0 and the span's end fall (the video's cursor is laid over them). */
export function curvesGrid(showN = true) {
  return { left: 60, right: showN ? 48 : 24, top: 40, bottom: 28 };
}

/**
 * The curves' ECharts option. Each line is its mean with its 95% band, or in share mode its share of people above
 * the threshold (in percent) with the share's 95% Wilson interval — both as the server computed them, drawn faint
 * where fewer than SMALL_N respondents stand behind a point (`series.ts`). N is drawn on a second axis along the
 * bottom; the value axis spans the metrics' range (`valueRange`, or fitted within it), or 0–100%. Missing points
 * are gaps. The time cursor is a separate, empty series' mark line (`cursorUpdate` moves it). Series ids: `mean:`,
 * `low:`, `band:`, `faintlow:`, `faint:`, `n:` and the line's key; a line's series share its name, so the legend
 * shows and hides them together.
 */
export function curvesOption(input: CurvesInput): CurvesOption {
  const { seconds, step, lines, mode, categories } = input;
  const fontSize = input.fontSize ?? 12;
  const showN = input.showN !== false;
  const x = categories ? seconds.map((_, i) => i) : seconds.map((s) => pointX(s, step));
  const span = input.span ?? timeSpan(seconds, step);
  const format = reportFormat(input.language);
  const percent100 = (v: number | null) => (v === null ? null : v * 100);

  // The means first: the legend draws each name as its first series.
  const series: LineSeriesOption[] = [];
  const bands: { low: (number | null)[]; high: (number | null)[] }[] = [];
  for (const line of lines) {
    const c = line.curve;
    const values = mode === 'mean' ? c.mean : c.share_above.map(percent100);
    // Each line's interval: the t-band of the mean, or the Wilson interval of the share (in percent).
    bands.push(
      mode === 'mean'
        ? { low: c.low, high: c.high }
        : { low: c.share_low.map(percent100), high: c.share_high.map(percent100) },
    );
    const withMoments = mode === 'mean' && line.moments && input.moments.length > 0;
    series.push({
      type: 'line',
      id: `mean:${line.key}`,
      name: line.label,
      data: x.map((at, i) => [at, values[i] ?? null]),
      color: line.color,
      lineStyle: { width: 2, type: line.dash },
      symbol: 'circle',
      symbolSize: 4,
      showSymbol: seconds.length <= 60,
      connectNulls: false,
      z: 3,
      ...(withMoments ? { markPoint: momentMarks(input, fontSize) } : {}),
    });
  }
  lines.forEach((line, i) => {
    const band = bands[i] as (typeof bands)[number];
    series.push(...bandSeries(line, x, band.low, band.high, line.curve.n));
  });
  if (showN) series.push(...nSeries(lines, x, input.text.nAxis));
  if (!input.static)
    series.push({ type: 'line', id: 'cursor', data: [], silent: true, markLine: cursorMarkLine(null) });

  const range =
    mode === 'share'
      ? { min: 0, max: 100 }
      : input.fit
        ? fittedRange(
            lines.flatMap((line) => [...line.curve.mean, ...line.curve.low, ...line.curve.high]),
            input.range,
          )
        : input.range;
  return {
    animation: false,
    grid: curvesGrid(showN),
    legend: {
      type: input.static ? 'plain' : 'scroll',
      top: 0,
      left: 0,
      right: 0,
      data: lines.map((line) => line.label),
      textStyle: { fontSize },
      itemWidth: 22,
    },
    ...(input.static
      ? {}
      : {
          tooltip: {
            trigger: 'axis' as const,
            confine: true,
            axisPointer: { type: 'line' as const },
            textStyle: { fontSize: 12 },
            extraCssText: 'max-width: 320px; white-space: normal; overflow-wrap: anywhere;',
            formatter: curvesTooltip(input),
          },
        }),
    xAxis: categories
      ? {
          type: 'category',
          data: [...categories],
          boundaryGap: true,
          axisLabel: { hideOverlap: true, fontSize },
        }
      : timeAxis(span, fontSize),
    yAxis: valueAxes({
      name: input.yName,
      range,
      format: mode === 'share' ? (v: number) => format.percent(v / 100) : (v: number) => format.number(v),
      fontSize,
      ...(showN ? { n: { name: input.text.nAxis, max: Math.max(0, ...lines.flatMap((line) => line.curve.n)) } } : {}),
    }),
    series,
  };
}

/** The key moments on the engagement curve: triangles up (peak) or down (drop); a static chart names them. */
function momentMarks(input: CurvesInput, fontSize: number): MarkPointComponentOption {
  return {
    symbol: 'triangle',
    symbolSize: 11,
    label: { show: false },
    data: input.moments.map((m) => ({
      name: m.kind,
      coord: [pointX(m.second, input.step), m.value],
      value: m.value,
      symbolRotate: m.kind === 'peak' ? 0 : 180,
      symbolOffset: [0, m.kind === 'peak' ? -10 : 10],
      itemStyle: { color: MOMENT_COLORS[m.kind] },
      ...(input.static
        ? {
            label: {
              show: true,
              position: m.kind === 'peak' ? ('top' as const) : ('bottom' as const),
              formatter: m.kind === 'peak' ? input.text.peak : input.text.drop,
              color: MOMENT_COLORS[m.kind],
              fontSize: fontSize - 2,
            },
          }
        : {}),
    })),
  };
}

/** The time cursor: a vertical line at `seconds` (none for null). */
export function cursorMarkLine(seconds: number | null): MarkLineComponentOption {
  return {
    silent: true,
    symbol: ['none', 'none'],
    animation: false,
    label: { show: false },
    lineStyle: { color: CURSOR_COLOR, width: 1.5, type: 'solid' },
    data: seconds === null ? [] : [{ xAxis: seconds }],
  };
}

/** What moves the cursor without rebuilding the chart (merged into the option by the series' id). */
export function cursorUpdate(seconds: number | null): CurvesOption {
  return { series: [{ type: 'line', id: 'cursor', markLine: cursorMarkLine(seconds) }] };
}
