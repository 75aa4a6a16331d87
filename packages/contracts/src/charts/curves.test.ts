import { describe, expect, it } from 'vitest';
import { METRIC_COLORS, SEGMENT_COLORS } from '../report-colours.ts';
import { type Curve, REPORT_METRICS, type ReportItem } from '../reports.ts';
import {
  type CurveLine,
  cursorUpdate,
  curveLines,
  curvesOption,
  pointLabel,
  pointX,
  tickInterval,
  timeSpan,
  valueRange,
} from './index.ts';

const curve = (mean: (number | null)[], extra: Partial<Curve> = {}): Curve => ({
  n: mean.map((m) => (m === null ? 0 : 6)),
  mean,
  low: mean.map((m) => (m === null ? null : m - 0.1)),
  high: mean.map((m) => (m === null ? null : m + 0.1)),
  share_above: mean.map((m) => (m === null ? null : m > 0.5 ? 1 : 0)),
  share_low: mean.map((m) => (m === null ? null : m > 0.5 ? 0.61 : 0)),
  share_high: mean.map((m) => (m === null ? null : m > 0.5 ? 1 : 0.39)),
  ...extra,
});

const curves = (mean: (number | null)[]) =>
  Object.fromEntries(REPORT_METRICS.map((m) => [m, curve(mean)])) as ReportItem['curves'];

const item: ReportItem = {
  index: 0,
  width: 1280,
  height: 720,
  media_id: 'm1',
  label: 'Spot.mp4',
  seconds: [0, 1, 2],
  step_curves: null,
  curves: curves([0.2, null, 0.6]),
  segments: [
    { key: 'man', labels: null, respondents: 4, curves: curves([0.1, 0.2, 0.3]) },
    {
      key: 'opt1',
      labels: { ru: 'Да', en: 'Yes', id: 'Ya', ko: '네' },
      respondents: 5,
      curves: curves([0.4, 0.5, 0.6]),
    },
  ],
  moments: [{ second: 2, kind: 'peak', value: 0.6, prominence: 0.3 }],
  heatmap: null,
  heatmap_frames: null,
  kernel_px: 25,
  fixations: 3,
  gaze_respondents: 2,
  areas: [],
};

type Segment = ReportItem['segments'][number];

const names = {
  metric: (m: string) => `M:${m}`,
  segment: (s: Segment) => `${s.labels ? s.labels.en : 'Men'} (${s.respondents})`,
};
const text = {
  mean: 'Mean',
  band: '95%',
  n: 'N',
  above: 'Above 0.5',
  peak: 'Peak',
  drop: 'Drop',
  nAxis: 'N (respondents)',
  smallN: 'Fewer than 5 respondents here: the interval is drawn faint.',
};

type Series = {
  id: string;
  name?: string;
  data: [number, number | null][];
  stack?: string;
  stackStrategy?: string;
  yAxisIndex?: number;
  areaStyle?: { opacity: number };
};
const seriesOf = (option: ReturnType<typeof curvesOption>) => option.series as unknown as Series[];

describe('curveLines', () => {
  it('draws each chosen metric in its colour, in the metrics order, moments on engagement only', () => {
    const lines = curveLines(item, ['happy', 'engagement'], false, names);
    expect(lines.map((l) => [l.key, l.label, l.color, l.moments])).toEqual([
      ['engagement', 'M:engagement', METRIC_COLORS.engagement, true],
      ['happy', 'M:happy', METRIC_COLORS.happy, false],
    ]);
  });

  it('compares segments in their colours, the metric as the dash', () => {
    const one = curveLines(item, ['engagement'], true, names);
    expect(one.map((l) => [l.key, l.label, l.color, l.dash])).toEqual([
      ['engagement:man', 'Men (4)', SEGMENT_COLORS[0], 'solid'],
      ['engagement:opt1', 'Yes (5)', SEGMENT_COLORS[1], 'solid'],
    ]);
    expect(one[1]?.curve).toBe(item.segments[1]?.curves.engagement);
    const two = curveLines(item, ['engagement', 'valence'], true, names);
    expect(two.map((l) => [l.label, l.dash])).toEqual([
      ['M:engagement · Men (4)', 'solid'],
      ['M:engagement · Yes (5)', 'solid'],
      ['M:valence · Men (4)', 'dashed'],
      ['M:valence · Yes (5)', 'dashed'],
    ]);
  });

  it('falls back to the overall curves without segments', () => {
    expect(curveLines({ ...item, segments: [] }, ['sad'], true, names).map((l) => l.key)).toEqual(['sad']);
  });
});

describe('time helpers', () => {
  it('puts a point in the middle of its seconds and labels its span', () => {
    expect(pointX(4, 1)).toBe(4.5);
    expect(pointX(10, 5)).toBe(12.5);
    expect(pointLabel(65, 1)).toBe('1:05');
    expect(pointLabel(60, 5)).toBe('1:00–1:05');
    expect(timeSpan([0, 2, 4], 2)).toBe(6);
    expect(timeSpan([], 5)).toBe(5);
  });

  it('chooses round tick steps', () => {
    expect(tickInterval(8)).toBe(1);
    expect(tickInterval(30)).toBe(5);
    expect(tickInterval(200)).toBe(30);
    expect(tickInterval(3600)).toBe(600);
  });
});

describe('curvesOption', () => {
  const lines: CurveLine[] = curveLines(item, ['engagement'], false, names);
  const base = {
    seconds: item.seconds,
    step: 1,
    lines,
    moments: item.moments,
    language: 'en',
    text,
    yName: 'Engagement',
    range: { min: 0, max: 1 },
  };

  /** One line's series: its mean, its band (low, width), N, and the cursor. */
  const ONE_LINE_IDS = ['mean:engagement', 'low:engagement', 'band:engagement', 'n:engagement', 'cursor'];

  it('draws the mean over a band stacked from low, gaps kept', () => {
    const option = curvesOption({ ...base, mode: 'mean' });
    const series = seriesOf(option);
    expect(series.map((s) => s.id)).toEqual(ONE_LINE_IDS);
    const [mean, low, band] = series;
    expect(low?.data).toEqual([
      [0.5, 0.1],
      [1.5, null],
      [2.5, 0.5],
    ]);
    expect(band?.data.map(([x, v]) => [x, v === null ? null : Number(v.toFixed(6))])).toEqual([
      [0.5, 0.2],
      [1.5, null],
      [2.5, 0.2],
    ]);
    expect(band?.stack).toBe(low?.stack);
    expect(band?.stackStrategy).toBe('all');
    expect(mean?.data).toEqual([
      [0.5, 0.2],
      [1.5, null],
      [2.5, 0.6],
    ]);
    expect(series.every((s) => s.id === 'cursor' || (s as { connectNulls?: boolean }).connectNulls === false)).toBe(
      true,
    );
    expect(option.legend).toMatchObject({ data: ['M:engagement'] });
    expect(option.xAxis).toMatchObject({ min: 0, max: 3, interval: 1 });
  });

  it('marks the key moments on the engagement curve', () => {
    const mean = seriesOf(curvesOption({ ...base, mode: 'mean' }))[0] as unknown as {
      markPoint: { data: { coord: number[]; symbolRotate: number }[] };
    };
    expect(mean.markPoint.data).toEqual([expect.objectContaining({ coord: [2.5, 0.6], symbolRotate: 0 })]);
  });

  it('plots the share above the threshold in percent, with its Wilson interval', () => {
    const option = curvesOption({ ...base, mode: 'share', yName: '% above 0.5' });
    const series = seriesOf(option);
    expect(series.map((s) => s.id)).toEqual(ONE_LINE_IDS);
    expect(series[0]?.data).toEqual([
      [0.5, 0],
      [1.5, null],
      [2.5, 100],
    ]);
    expect(series[1]?.data).toEqual([
      [0.5, 0],
      [1.5, null],
      [2.5, 61],
    ]);
    expect(series[2]?.data.map(([x, v]) => [x, v === null ? null : Math.round(v)])).toEqual([
      [0.5, 39],
      [1.5, null],
      [2.5, 39],
    ]);
    expect((option.yAxis as unknown[])[0]).toMatchObject({ name: '% above 0.5', min: 0, max: 100 });
    const formatter = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    expect(formatter([{ seriesId: 'mean:engagement', dataIndex: 2 }])).toContain(
      'Above 0.5: 100% · 95% 61% – 100% · N = 6',
    );
  });

  it('describes a point in the tooltip: time, mean, band, N, share, moment; labels escaped', () => {
    const evil: CurveLine[] = [{ ...(lines[0] as CurveLine), label: '<b>x</b>' }];
    const option = curvesOption({ ...base, lines: evil, mode: 'mean' });
    const formatter = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    const html = formatter([
      { seriesId: 'low:engagement', dataIndex: 2 },
      { seriesId: 'mean:engagement', dataIndex: 2 },
    ]);
    expect(html).toContain('0:02');
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).not.toContain('<b>x</b>');
    expect(html).toContain('Mean 0.60 · 95% 0.50 – 0.70 · N = 6 · Above 0.5: 100%');
    expect(html).not.toContain('Fewer than 5');
    expect(html).toContain('Peak');
    const gap = formatter([{ seriesId: 'mean:engagement', dataIndex: 1 }]);
    expect(gap).toContain('Mean — · 95% — · N = 0 · Above 0.5: —');
  });

  it('names its points on a category axis for a task’s progress', () => {
    const option = curvesOption({ ...base, mode: 'mean', categories: ['Before', 'Step 1', 'Step 2'] });
    expect(option.xAxis).toMatchObject({ type: 'category', data: ['Before', 'Step 1', 'Step 2'] });
    expect(seriesOf(option)[0]?.data.map(([x]) => x)).toEqual([0, 1, 2]);
    const formatter = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    expect(formatter([{ seriesId: 'mean:engagement', dataIndex: 1 }])).toContain('Step 1');
  });

  it('formats numbers in the interface language', () => {
    const option = curvesOption({ ...base, language: 'ru', mode: 'mean' });
    const formatter = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    expect(formatter([{ seriesId: 'mean:engagement', dataIndex: 0 }])).toContain('Mean 0,20');
  });

  it('moves the cursor by the series id', () => {
    expect(cursorUpdate(12.5)).toMatchObject({ series: [{ id: 'cursor', markLine: { data: [{ xAxis: 12.5 }] } }] });
    expect(cursorUpdate(null)).toMatchObject({ series: [{ id: 'cursor', markLine: { data: [] } }] });
  });
});

describe('curvesOption: the metric’s range, N and small samples (issue 28, item 2)', () => {
  // Two segments as in the demo's "Compare segments": N = 2 at the start, then 6.
  const small = curve([0.4, 0.5, 0.6, 0.5], {
    n: [2, 2, 6, 6],
    low: [0, 0, 0.45, 0.4],
    high: [1, 1, 0.75, 0.6],
  });
  const line: CurveLine = { key: 'e', label: 'Yes (2)', color: '#123456', dash: 'solid', curve: small, moments: false };
  const option = curvesOption({
    seconds: [0, 1, 2, 3],
    step: 1,
    lines: [line],
    mode: 'mean',
    moments: [],
    language: 'en',
    text,
    yName: 'Engagement',
    range: { min: 0, max: 1 },
  });
  const series = seriesOf(option);
  const byId = (id: string) => series.find((s) => s.id === id);

  it('draws the value axis over the metric’s range and names it; valence −1..1', () => {
    const [values] = option.yAxis as { name: string; min: number; max: number }[];
    expect(values).toMatchObject({ name: 'Engagement', min: 0, max: 1 });
    const valence = curvesOption({
      ...{ seconds: [0], step: 1, lines: [line], mode: 'mean' as const, moments: [], language: 'en', text },
      yName: 'Valence',
      range: valueRange(['valence', 'engagement'], 'shift'),
    });
    expect((valence.yAxis as unknown[])[0]).toMatchObject({ name: 'Valence', min: -1, max: 1 });
    expect(valueRange(['engagement'], 'shift')).toEqual({ min: 0, max: 1 });
    expect(valueRange(['engagement'], 'calibration_subtraction')).toEqual({ min: -1, max: 1 });
  });

  it('draws N on the chart itself, on a second axis named N', () => {
    const n = byId('n:e');
    expect(n?.yAxisIndex).toBe(1);
    expect(n?.data).toEqual([
      [0.5, 2],
      [1.5, 2],
      [2.5, 6],
      [3.5, 6],
    ]);
    const axes = option.yAxis as { name: string; min: number; max: number }[];
    expect(axes[1]).toMatchObject({ name: 'N (respondents)', min: 0, max: 24 });
  });

  it('draws the interval faint where N < 5, strong elsewhere, the segment between them faint', () => {
    expect(byId('low:e')?.data.map(([, v]) => v)).toEqual([null, null, 0.45, 0.4]);
    expect(byId('faintlow:e')?.data.map(([, v]) => v)).toEqual([0, 0, 0.45, null]);
    const strong = byId('band:e')?.areaStyle?.opacity as number;
    const faint = byId('faint:e')?.areaStyle?.opacity as number;
    expect(faint).toBeLessThan(strong / 2);
    expect(byId('faint:e')?.stack).toBe(byId('faintlow:e')?.stack);
    expect(byId('faint:e')?.stack).not.toBe(byId('band:e')?.stack);
    // Enough respondents everywhere: no faint series at all.
    const big = curvesOption({
      ...{ seconds: [0], step: 1, mode: 'mean' as const, moments: [], language: 'en', text, yName: '' },
      lines: [{ ...line, curve: curve([0.5]) }],
      range: { min: 0, max: 1 },
    });
    expect(seriesOf(big).some((s) => s.id.startsWith('faint'))).toBe(false);
  });

  it('says in the tooltip why a point’s interval is faint', () => {
    const formatter = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    expect(formatter([{ seriesId: 'mean:e', dataIndex: 0 }])).toContain(
      'N = 2 · Above 0.5: 0%<br/><span style="color:#868e96">Fewer than 5 respondents here: the interval is drawn faint.</span>',
    );
    expect(formatter([{ seriesId: 'mean:e', dataIndex: 2 }])).not.toContain('Fewer than 5');
  });
});
