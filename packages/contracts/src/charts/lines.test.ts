import { describe, expect, it } from 'vitest';
import type { Curve } from '../reports.ts';
import { curvesGrid, curvesOption } from './curves.ts';
import { timeLinesOption } from './lines.ts';
import { fittedRange } from './series.ts';

type Series = {
  id: string;
  data: [number, number | null][];
  markPoint?: { data: { label?: { formatter?: string } }[] };
};
type Axis = { min?: number; max?: number; interval?: number; name?: string };

const flat = (values: (number | null)[], n: number): Curve => ({
  n: values.map(() => n),
  mean: values,
  low: values.map((v) => (v === null ? null : v - 0.05)),
  high: values.map((v) => (v === null ? null : v + 0.05)),
  share_above: values.map(() => 0),
  share_low: values.map(() => 0),
  share_high: values.map(() => 0.2),
});

describe('fittedRange', () => {
  it('fits the values on round steps, keeps 0 in sight and never leaves the metric’s range', () => {
    expect(fittedRange([0.02, 0.11, null, 0.13], { min: 0, max: 1 })).toEqual({ min: 0, max: 0.15 });
    expect(fittedRange([-0.3, 0.42], { min: -1, max: 1 })).toEqual({ min: -0.4, max: 0.6 });
    // A band past the scale's end is cut at the range.
    expect(fittedRange([0.5, 1.3], { min: 0, max: 1 })).toEqual({ min: 0, max: 1 });
    expect(fittedRange([-2.5, 0.1], { min: -2, max: 2 })).toEqual({ min: -2, max: 1 });
    // Nothing drawn (or only zeros): the range itself.
    expect(fittedRange([null, Number.NaN], { min: 0, max: 1 })).toEqual({ min: 0, max: 1 });
    expect(fittedRange([0, 0], { min: -1, max: 1 })).toEqual({ min: -1, max: 1 });
  });
});

describe('curvesOption for a file (static)', () => {
  const line = { key: 'happy', label: 'Happy', color: '#f59f00', dash: 'solid' as const, moments: true };
  const option = curvesOption({
    static: true,
    seconds: [0, 2, 4],
    step: 2,
    lines: [{ ...line, curve: flat([0.04, 0.09, 0.06], 12) }],
    mode: 'mean',
    moments: [{ second: 2, kind: 'peak', value: 0.09, prominence: 0.05 }],
    language: 'ru',
    text: { peak: 'Пик', drop: 'Спад', nAxis: 'N' },
    yName: '',
    range: { min: 0, max: 1 },
    fit: true,
    span: 7,
  });
  const series = option.series as Series[];

  it('fits the value axis to the band within the metric’s range, N on its own axis', () => {
    const [values, n] = option.yAxis as Axis[];
    expect(values).toMatchObject({ min: 0, max: 0.15 });
    expect(n).toMatchObject({ name: 'N', min: 0, max: 48, interval: 12 });
    expect(series.map((s) => s.id)).toEqual(['mean:happy', 'low:happy', 'band:happy', 'n:happy']);
  });

  it('has no tooltip or cursor, names its key moments, and ends the time axis at the span given', () => {
    expect(option.tooltip).toBeUndefined();
    expect(series[0]?.markPoint?.data.map((m) => m.label?.formatter)).toEqual(['Пик']);
    expect(option.xAxis).toMatchObject({ min: 0, max: 7 });
    expect(series[0]?.data.map(([x]) => x)).toEqual([1, 3, 5]);
    const axis = (option.yAxis as { axisLabel: { formatter: (v: number) => string } }[])[0];
    expect(axis?.axisLabel.formatter(0.15)).toBe('0,15');
  });

  it('leaves N out on request, and the plot’s right margin with it', () => {
    const without = curvesOption({
      static: true,
      seconds: [0],
      step: 1,
      lines: [{ ...line, curve: flat([0.5], 3) }],
      mode: 'mean',
      moments: [],
      language: 'en',
      text: { peak: 'Peak', drop: 'Drop', nAxis: 'N' },
      yName: '',
      range: { min: -1, max: 1 },
      showN: false,
    });
    expect((without.yAxis as Axis[]).length).toBe(1);
    expect((without.yAxis as Axis[])[0]).toMatchObject({ min: -1, max: 1 });
    expect((without.series as Series[]).some((s) => s.id.startsWith('n:'))).toBe(false);
    expect(without.grid).toEqual(curvesGrid(false));
    expect(curvesGrid(false).right).toBeLessThan(curvesGrid(true).right);
  });
});

describe('timeLinesOption (interview analysis)', () => {
  const option = timeLinesOption({
    lines: [
      { key: 'happy', label: 'Happy <b>', color: '#f59f00', values: [0.2, null, 0.4], seconds: [0, 1, 2] },
      { key: 'sad', label: 'Sad', color: '#4c6ef5', values: [0.1, 0.1, 0.1], seconds: [0, 1, 2] },
    ],
    span: 3,
    range: { min: 0, max: 1 },
    language: 'en',
  });
  const series = option.series as Series[];

  it('draws each line mid-second with its gaps, over the range given, with a cursor', () => {
    expect(series.map((s) => s.id)).toEqual(['line:happy', 'line:sad', 'cursor']);
    expect(series[0]?.data).toEqual([
      [0.5, 0.2],
      [1.5, null],
      [2.5, 0.4],
    ]);
    expect(option.yAxis).toMatchObject({ min: 0, max: 1 });
    expect(option.xAxis).toMatchObject({ min: 0, max: 3, interval: 1 });
    expect(option.legend).toMatchObject({ data: ['Happy <b>', 'Sad'] });
  });

  it('names the pointed second and each line’s value in the tooltip, names escaped', () => {
    const formatter = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    const html = formatter([
      { seriesName: 'Happy <b>', marker: '', value: [2.5, 0.4] },
      { seriesName: 'Sad', marker: '', value: [2.5, 0.1] },
    ]);
    expect(html).toContain('0:02');
    expect(html).toContain('Happy &lt;b&gt; <b>0.4</b>');
    expect(html).toContain('Sad <b>0.1</b>');
  });
});
