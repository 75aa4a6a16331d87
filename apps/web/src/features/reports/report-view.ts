import {
  type Curve,
  type HeatmapTheme,
  isMessageKey,
  type Language,
  METRIC_COLORS,
  type MessageKey,
  MOMENT_COLORS,
  type Playback,
  REPORT_METRICS,
  type ReportItem,
  type ReportMetric,
  type ReportRespondent,
  SEGMENT_COLORS,
} from '@emolens/contracts';
import type { LineSeriesOption } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  MarkLineComponentOption,
  MarkPointComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { clock } from '../demo/time-chart.tsx';
import { bandSeries, isSmallN, nSeries, valueAxes } from './curve-series.ts';

/**
 * The report page's pure parts (issue 13): the curves chart's ECharts option, the heatmap's colours and grid
 * image, which heatmap frame a video time shows, and how respondents and their exclusions are listed.
 */

export type CurvesOption = ComposeOption<
  | LineSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
  | MarkLineComponentOption
  | MarkPointComponentOption
>;

/** One colour per metric, the same wherever the metric is drawn. */
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

/** A segment's name: sex segments (no labels) by their key's translation, answer options in the language. */
export function segmentName(segment: Segment, language: Language, sexNames: Record<string, string>): string {
  if (!segment.labels) return sexNames[segment.key] ?? segment.key;
  return segment.labels[language] || segment.labels.en || segment.key;
}

/**
 * The lines to draw: each chosen metric over everyone, or — comparing segments — each segment's curve of each
 * chosen metric (the segment's colour; with several metrics, the metric's dash).
 */
export function curveLines(
  item: ReportItem,
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

/** Where a point sits on the time axis: the middle of the `step` seconds it covers. */
export const pointX = (second: number, step: number) => second + step / 2;

/** The time a point covers, "m:ss" (or "m:ss–m:ss" when a point spans several seconds). */
export function pointLabel(second: number, step: number): string {
  return step > 1 ? `${clock(second)}–${clock(second + step)}` : clock(second);
}

/** Seconds between the time axis' labels: a round step giving at most 8 of them. */
export function tickInterval(span: number): number {
  return [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800].find((s) => span / s <= 8) ?? 3600;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export interface CurvesText {
  mean: string;
  band: string;
  n: string;
  /** "Above 0.5" */
  above: string;
  peak: string;
  drop: string;
  /** The N axis' name. */
  nAxis: string;
  /** Why a point's interval is drawn faint (fewer than SMALL_N respondents). */
  smallN: string;
}

export interface CurvesInput {
  seconds: readonly number[];
  step: number;
  /** Named points instead of time (a website task's progress): a category axis with these labels. */
  categories?: readonly string[];
  lines: readonly CurveLine[];
  mode: CurveMode;
  moments: ReportItem['moments'];
  language: string;
  text: CurvesText;
  /** The value axis' name, and (mean mode) its range: the metrics' own (`valueRange`). */
  yName: string;
  range: { min: number; max: number };
}

/** The chart's time span: from 0 to the end of the last point. */
export const timeSpan = (seconds: readonly number[], step: number) => Math.max(step, seconds.length * step);

const dot = (color: string) =>
  `<span style="display:inline-block;width:9px;height:9px;border-radius:50%;margin-right:6px;background:${color}"></span>`;

/**
 * The curves' ECharts option. Each line is its mean with its 95% band, or in share mode its share of people above
 * the threshold (in percent) with the share's 95% Wilson interval — both as the server computed them, drawn faint
 * where fewer than SMALL_N respondents stand behind a point (`curve-series.ts`). N is drawn on a second axis along
 * the bottom; the value axis spans the metrics' range (`valueRange`), or 0–100%. Missing points are gaps. The time
 * cursor is a separate, empty series' mark line (`cursorUpdate` moves it). Series ids: `mean:`, `low:`, `band:`,
 * `faintlow:`, `faint:`, `n:` and the line's key; a line's series share its name, so the legend shows and hides them
 * together.
 */
export function curvesOption(input: CurvesInput): CurvesOption {
  const { seconds, step, lines, mode, language, text, categories } = input;
  const x = categories ? seconds.map((_, i) => i) : seconds.map((s) => pointX(s, step));
  const span = timeSpan(seconds, step);
  const decimals = new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });
  const axisNumber = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  const value = (v: number | null | undefined) => (v === null || v === undefined ? '—' : decimals.format(v));
  const share = (v: number | null | undefined) => (v === null || v === undefined ? '—' : percent.format(v));
  const byKey = new Map(lines.map((line) => [line.key, line]));
  const momentAt = new Map(input.moments.map((m) => [m.second, m]));

  // The means first: the legend draws each name as its first series.
  const series: LineSeriesOption[] = [];
  for (const line of lines) {
    const values = mode === 'mean' ? line.curve.mean : line.curve.share_above.map((v) => (v === null ? null : v * 100));
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
      ...(withMoments
        ? {
            markPoint: {
              symbol: 'triangle',
              symbolSize: 11,
              label: { show: false },
              data: input.moments.map((m) => ({
                name: m.kind,
                coord: [pointX(m.second, step), m.value],
                value: m.value,
                symbolRotate: m.kind === 'peak' ? 0 : 180,
                symbolOffset: [0, m.kind === 'peak' ? -10 : 10],
                itemStyle: { color: MOMENT_COLORS[m.kind] },
              })),
            },
          }
        : {}),
    });
  }
  // Each line's interval: the t-band of the mean, or the Wilson interval of the share (in percent).
  for (const line of lines) {
    const c = line.curve;
    const percent100 = (v: number | null) => (v === null ? null : v * 100);
    const [low, high] = mode === 'mean' ? [c.low, c.high] : [c.share_low.map(percent100), c.share_high.map(percent100)];
    series.push(...bandSeries(line, x, low, high, c.n));
  }
  series.push(...nSeries(lines, x, text.nAxis));
  series.push({
    type: 'line',
    id: 'cursor',
    data: [],
    silent: true,
    markLine: cursorMarkLine(null),
  });

  const tooltip = (params: unknown) => {
    const list = (Array.isArray(params) ? params : [params]) as { seriesId?: string; dataIndex: number }[];
    const index = list[0]?.dataIndex ?? 0;
    const second = seconds[index];
    if (second === undefined) return '';
    const rows = list
      .filter((p) => p.seriesId?.startsWith('mean:'))
      .map((p) => byKey.get(p.seriesId?.slice('mean:'.length) ?? ''))
      .filter((line): line is CurveLine => !!line)
      .map((line) => {
        const c = line.curve;
        const n = c.n[index] ?? 0;
        const shareBand =
          c.share_low[index] == null ? '—' : `${share(c.share_low[index])} – ${share(c.share_high[index])}`;
        const facts =
          mode === 'mean'
            ? [
                `${text.mean} ${value(c.mean[index])}`,
                `${text.band} ${c.low[index] == null ? '—' : `${value(c.low[index])} – ${value(c.high[index])}`}`,
                `${text.n} = ${n}`,
                `${text.above}: ${share(c.share_above[index])}`,
              ]
            : [`${text.above}: ${share(c.share_above[index])}`, `${text.band} ${shareBand}`, `${text.n} = ${n}`];
        const few =
          n > 0 && isSmallN(c.n, index) ? `<br/><span style="color:#868e96">${escapeHtml(text.smallN)}</span>` : '';
        return `<div style="margin-top:4px">${dot(line.color)}<b>${escapeHtml(line.label)}</b><br/>${escapeHtml(facts.join(' · '))}${few}</div>`;
      });
    const moment = momentAt.get(second);
    const note = moment
      ? `<div style="margin-top:4px;color:${MOMENT_COLORS[moment.kind]}">${moment.kind === 'peak' ? '▲' : '▼'} ${escapeHtml(
          moment.kind === 'peak' ? text.peak : text.drop,
        )}</div>`
      : '';
    const title = categories ? escapeHtml(categories[index] ?? '') : pointLabel(second, step);
    return `<div style="font-weight:600">${title}</div>${rows.join('')}${note}`;
  };

  return {
    animation: false,
    grid: { left: 60, right: 48, top: 40, bottom: 28 },
    legend: {
      type: 'scroll',
      top: 0,
      left: 0,
      right: 0,
      data: lines.map((line) => line.label),
      textStyle: { fontSize: 12 },
      itemWidth: 22,
    },
    tooltip: {
      trigger: 'axis',
      confine: true,
      axisPointer: { type: 'line' },
      textStyle: { fontSize: 12 },
      extraCssText: 'max-width: 320px; white-space: normal; overflow-wrap: anywhere;',
      formatter: tooltip,
    },
    xAxis: categories
      ? { type: 'category', data: [...categories], boundaryGap: true, axisLabel: { hideOverlap: true } }
      : {
          type: 'value',
          min: 0,
          max: span,
          interval: tickInterval(span),
          axisLabel: { formatter: (v: number) => clock(v), hideOverlap: true },
          splitLine: { show: false },
        },
    yAxis: valueAxes({
      name: input.yName,
      range: mode === 'share' ? { min: 0, max: 100 } : input.range,
      format: mode === 'share' ? (v: number) => percent.format(v / 100) : (v: number) => axisNumber.format(v),
      nName: text.nAxis,
      maxN: Math.max(0, ...lines.flatMap((line) => line.curve.n)),
    }),
    series,
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

/* ---------------------------------------------------------------- heatmap */

export interface HeatmapSettings {
  theme: HeatmapTheme;
  /** 0.1–1 */
  opacity: number;
  /** Extra blur in screen pixels, 0–50. */
  radius: number;
}
export const HEATMAP_DEFAULTS: HeatmapSettings = { theme: 'colour', opacity: 0.7, radius: 0 };
export const HEATMAP_LIMITS = { opacity: { min: 0.1, max: 1 }, radius: { min: 0, max: 50 } } as const;

/** Whether a typed setting is a number within its limits. */
export function withinLimits(value: number | string, limits: { min: number; max: number }): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= limits.min && value <= limits.max;
}

/** The heatmap frame a video at `time` seconds shows: point ⌊time / step⌋, within the frames there are. */
export function frameIndex(time: number, step: number, count: number): number | null {
  if (count <= 0 || step <= 0 || !Number.isFinite(time)) return null;
  // A hair of tolerance: 2.9999999 s of a seek to 3 s is the point of 3 s.
  return Math.min(count - 1, Math.max(0, Math.floor(time / step + 1e-6)));
}

/* ---------------------------------------------------------------- respondents */

/** Respondents as the table lists them: the included first, each group by session start. */
export function sortPeople(people: readonly ReportRespondent[]): ReportRespondent[] {
  return [...people].sort(
    (a, b) => Number(b.included) - Number(a.included) || a.started_at.localeCompare(b.started_at),
  );
}

/** The report's own exclusions (its filters); the rest are the engine's, named by the messages catalogue. */
export const OWN_EXCLUSIONS = ['accuracy', 'happy'] as const;

/** Where an exclusion's text comes from: this page's locale (`excluded.<reason>`) or the messages catalogue. */
export function exclusionSource(
  reason: string,
):
  | { source: 'page'; key: `excluded.${(typeof OWN_EXCLUSIONS)[number]}` }
  | { source: 'messages'; key: MessageKey }
  | { source: 'raw'; text: string } {
  if ((OWN_EXCLUSIONS as readonly string[]).includes(reason)) {
    return { source: 'page', key: `excluded.${reason as (typeof OWN_EXCLUSIONS)[number]}` };
  }
  const key = `processing.excluded.${reason}`;
  return isMessageKey(key) ? { source: 'messages', key } : { source: 'raw', text: reason };
}

/** The first characters of a session id: enough to tell sessions apart in a table. */
export const shortId = (id: string) => id.slice(0, 8);

/** The file name an export falls back to when the server names none. */
export function exportFileName(reportName: string, kind: string, format: 'xlsx' | 'csv'): string {
  const base =
    reportName
      .trim()
      .replace(/\s+/g, '-')
      .replace(/[^\p{L}\p{N}-]/gu, '') || 'report';
  return `${base}-${kind}.${format}`;
}

/* ---------------------------------------------------------------- playback */

/** A gaze sample older than this (s) is not shown: the respondent's gaze was not on the item then. */
const GAZE_HOLD_S = 0.3;

/** The gaze sample at content time `time` (the latest not after it, if recent enough), or null. */
export function gazeAt(gaze: Playback['gaze'], time: number): { x: number; y: number } | null {
  let lo = 0;
  let hi = gaze.t.length - 1;
  if (hi < 0 || time < (gaze.t[0] as number)) return null;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((gaze.t[mid] as number) <= time) lo = mid;
    else hi = mid - 1;
  }
  if (time - (gaze.t[lo] as number) > GAZE_HOLD_S) return null;
  return { x: gaze.x[lo] as number, y: gaze.y[lo] as number };
}

/** The kept segment that holds the moment the respondent's gaze reached the item (the last starting before it). */
export function segmentAt(playback: Playback): Playback['segments'][number] | undefined {
  return playback.segments.filter((s) => s.offset <= playback.onset).at(-1) ?? playback.segments[0];
}
