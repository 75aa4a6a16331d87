import { reportFormat } from '../report-format.ts';
import { type CurvesOption, cursorMarkLine } from './curves.ts';
import { clock, pointX, timeAxis } from './time.ts';
import { escapeHtml } from './tooltip.ts';

/** A line over a video's time, one value per second (null where nothing was measured). */
export interface TimeLine {
  key: string;
  label: string;
  color: string;
  values: readonly (number | null)[];
  seconds: readonly number[];
}

/**
 * Plain lines over a video's time without bands or N — interview analysis, a single recording — on the report
 * chart's time axis, legend, value axis and cursor (`cursorUpdate` moves it). A value sits in the middle of its
 * second; a gap (no face) breaks the line. The tooltip lists each line's value at the pointed second.
 */
export function timeLinesOption(input: {
  lines: readonly TimeLine[];
  /** The video's length (s). */
  span: number;
  range: { min: number; max: number };
  language: string;
  fontSize?: number;
}): CurvesOption {
  const fontSize = input.fontSize ?? 12;
  const format = reportFormat(input.language);
  return {
    animation: false,
    grid: { left: 44, right: 16, top: 32, bottom: 24 },
    legend: {
      type: 'scroll',
      top: 0,
      left: 0,
      right: 0,
      data: input.lines.map((line) => line.label),
      textStyle: { fontSize },
      itemWidth: 22,
    },
    tooltip: {
      trigger: 'axis',
      confine: true,
      axisPointer: { type: 'line' },
      textStyle: { fontSize: 12 },
      formatter: (params: unknown) => {
        const list = (Array.isArray(params) ? params : [params]) as {
          seriesName?: string;
          marker?: string;
          value?: [number, number | null];
        }[];
        const x = list[0]?.value?.[0];
        if (x === undefined) return '';
        const rows = list.map(
          (p) => `<div>${p.marker ?? ''}${escapeHtml(p.seriesName ?? '')} <b>${format.number(p.value?.[1])}</b></div>`,
        );
        return `<div style="font-weight:600">${clock(x)}</div>${rows.join('')}`;
      },
    },
    xAxis: timeAxis(Math.max(1, input.span), fontSize),
    yAxis: {
      type: 'value',
      min: input.range.min,
      max: input.range.max,
      axisLabel: { formatter: (v: number) => format.number(v), fontSize },
      splitLine: { lineStyle: { type: 'dashed' } },
    },
    series: [
      ...input.lines.map((line) => ({
        type: 'line' as const,
        id: `line:${line.key}`,
        name: line.label,
        data: line.seconds.map((s, i) => [pointX(s, 1), line.values[i] ?? null]),
        color: line.color,
        lineStyle: { width: 1.8 },
        symbol: 'none',
        connectNulls: false,
      })),
      { type: 'line' as const, id: 'cursor', data: [], silent: true, markLine: cursorMarkLine(null) },
    ],
  };
}
