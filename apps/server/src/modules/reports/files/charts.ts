import type { Language, ReportItem, ReportMetric, ReportType } from '@emolens/contracts';
import { type CurvesOption, curveLines, curvesOption, valueRange } from '@emolens/contracts/charts';
import type { EChartsOption } from 'echarts';
import { type FileTexts, segmentName } from './texts.ts';

/**
 * ECharts options for a report's files (presentation slides and the video's curve strip). The curves are the
 * cabinet's chart (`@emolens/contracts/charts`) drawn once: no tooltip or cursor, key moments named, the numbers
 * and names in the file's language.
 */
export function fileCurvesOption(
  item: ReportItem,
  input: {
    metrics: readonly ReportMetric[];
    /** Each segment's curve of the (one) metric, each named with its N. */
    compare?: boolean;
    texts: FileTexts;
    language: Language;
    type: ReportType;
    step: number;
    /** The value axis fitted to the curves within the metrics' range. */
    fit?: boolean;
    /** N along the bottom (default); off where each line's N is in its name. */
    showN?: boolean;
    /** The time axis' end (s): the video's length. */
    span?: number;
  },
): CurvesOption {
  const { texts: t, language } = input;
  const lines = curveLines(item, input.metrics, input.compare ?? false, {
    metric: (metric) => t.metrics[metric],
    segment: (segment) => `${segmentName(segment, language)} (N = ${segment.respondents})`,
  });
  return curvesOption({
    static: true,
    seconds: item.seconds,
    step: input.step,
    lines,
    mode: 'mean',
    moments: item.moments,
    language,
    text: { peak: t.peak, drop: t.drop, nAxis: t.respondentsAxis },
    yName: '',
    range: valueRange(input.metrics, input.type),
    ...(input.fit ? { fit: true } : {}),
    ...(input.showN === false ? { showN: false } : {}),
    ...(input.span === undefined ? {} : { span: input.span }),
  });
}

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
