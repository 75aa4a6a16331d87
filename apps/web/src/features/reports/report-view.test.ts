import type { Curve, ReportItem, ReportRespondent } from '@emolens/contracts';
import { METRIC_COLORS, REPORT_METRICS, SEGMENT_COLORS } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import {
  type CurveLine,
  cursorUpdate,
  curveLines,
  curvesOption,
  exclusionSource,
  exportFileName,
  frameIndex,
  pointLabel,
  pointX,
  segmentName,
  shortId,
  sortPeople,
  tickInterval,
  timeSpan,
  withinLimits,
} from './report-view.ts';

const curve = (mean: (number | null)[], extra: Partial<Curve> = {}): Curve => ({
  n: mean.map((m) => (m === null ? 0 : 3)),
  mean,
  low: mean.map((m) => (m === null ? null : m - 0.1)),
  high: mean.map((m) => (m === null ? null : m + 0.1)),
  share_above: mean.map((m) => (m === null ? null : m > 0.5 ? 1 : 0)),
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
  segment: (s: Segment) => `${segmentName(s, 'en', { man: 'Men' })} (${s.respondents})`,
};
const text = { mean: 'Mean', band: '95%', n: 'N', above: 'Above 0.5', peak: 'Peak', drop: 'Drop' };

type Series = { id: string; name?: string; data: [number, number | null][]; stack?: string; stackStrategy?: string };
const seriesOf = (option: ReturnType<typeof curvesOption>) => option.series as unknown as Series[];

describe('segmentName', () => {
  it('names sex segments by their key and answers in the language', () => {
    const [man, yes] = item.segments as [Segment, Segment];
    expect(segmentName(man, 'ru', { man: 'Мужчины' })).toBe('Мужчины');
    expect(segmentName(man, 'ru', {})).toBe('man');
    expect(segmentName(yes, 'ko', {})).toBe('네');
    expect(segmentName({ ...yes, labels: { ru: '', en: 'Yes', id: '', ko: '' } }, 'id', {})).toBe('Yes');
  });
});

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

  it('finds the heatmap frame of a video time', () => {
    expect(frameIndex(0, 1, 10)).toBe(0);
    expect(frameIndex(3.7, 1, 10)).toBe(3);
    expect(frameIndex(2.9999999, 1, 10)).toBe(3);
    expect(frameIndex(7.4, 5, 10)).toBe(1);
    expect(frameIndex(99, 1, 10)).toBe(9);
    expect(frameIndex(-1, 1, 10)).toBe(0);
    expect(frameIndex(1, 1, 0)).toBeNull();
    expect(frameIndex(Number.NaN, 1, 3)).toBeNull();
  });
});

describe('curvesOption', () => {
  const lines: CurveLine[] = curveLines(item, ['engagement'], false, names);
  const base = { seconds: item.seconds, step: 1, lines, moments: item.moments, language: 'en', text };

  it('draws the mean over a band stacked from low, gaps kept', () => {
    const option = curvesOption({ ...base, mode: 'mean' });
    const series = seriesOf(option);
    expect(series.map((s) => s.id)).toEqual(['mean:engagement', 'low:engagement', 'band:engagement', 'cursor']);
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

  it('plots the share above the threshold in percent, without bands', () => {
    const option = curvesOption({ ...base, mode: 'share' });
    const series = seriesOf(option);
    expect(series.map((s) => s.id)).toEqual(['mean:engagement', 'cursor']);
    expect(series[0]?.data).toEqual([
      [0.5, 0],
      [1.5, null],
      [2.5, 100],
    ]);
    expect(option.yAxis).toMatchObject({ min: 0, max: 100 });
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
    expect(html).toContain('Mean 0.60 · 95% 0.50 – 0.70 · N = 3 · Above 0.5: 100%');
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

describe('heatmap settings', () => {
  it('checks the settings limits', () => {
    expect(withinLimits(0.1, { min: 0.1, max: 1 })).toBe(true);
    expect(withinLimits(0.05, { min: 0.1, max: 1 })).toBe(false);
    expect(withinLimits(51, { min: 0, max: 50 })).toBe(false);
    expect(withinLimits('', { min: 0, max: 50 })).toBe(false);
  });
});

describe('respondents', () => {
  const person = (over: Partial<ReportRespondent>): ReportRespondent => ({
    session_id: '12345678-aaaa-4bbb-8ccc-000000000000',
    campaign_id: '12345678-aaaa-4bbb-8ccc-000000000002',
    process_id: '12345678-aaaa-4bbb-8ccc-000000000001',
    participant_id: null,
    status: 'completed',
    sex: null,
    age: null,
    started_at: '2026-01-01T10:00:00.000Z',
    bad_frame_share: 0,
    accuracy_px: null,
    accuracy_percent: null,
    grade: 'A',
    included: true,
    excluded_reason: null,
    resting_happy: null,
    mean_engagement: null,
    ...over,
  });

  it('lists the included first, each by start', () => {
    const people = [
      person({ participant_id: 'x1', included: false, started_at: '2026-01-01T08:00:00.000Z' }),
      person({ participant_id: 'i2', started_at: '2026-01-02T08:00:00.000Z' }),
      person({ participant_id: 'i1', started_at: '2026-01-01T09:00:00.000Z' }),
    ];
    expect(sortPeople(people).map((p) => p.participant_id)).toEqual(['i1', 'i2', 'x1']);
    expect(people[0]?.participant_id).toBe('x1');
  });

  it('names exclusions from the page or the catalogue', () => {
    expect(exclusionSource('accuracy')).toEqual({ source: 'page', key: 'excluded.accuracy' });
    expect(exclusionSource('happy')).toEqual({ source: 'page', key: 'excluded.happy' });
    expect(exclusionSource('no_face')).toEqual({ source: 'messages', key: 'processing.excluded.no_face' });
    expect(exclusionSource('mystery')).toEqual({ source: 'raw', text: 'mystery' });
  });

  it('shortens ids and names export files', () => {
    expect(shortId('12345678-aaaa')).toBe('12345678');
    expect(exportFileName('Spring wave 2', 'curves', 'xlsx')).toBe('Spring-wave-2-curves.xlsx');
    expect(exportFileName('  ', 'series', 'csv')).toBe('report-series.csv');
  });
});
