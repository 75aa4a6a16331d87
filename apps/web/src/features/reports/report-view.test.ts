import type { ReportItem, ReportRespondent } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import {
  exclusionSource,
  exportFileName,
  frameIndex,
  segmentName,
  shortId,
  sortPeople,
  withinLimits,
} from './report-view.ts';

type Segment = ReportItem['segments'][number];

describe('segmentName', () => {
  it('names sex segments by their key and answers in the language', () => {
    const curves = {} as Segment['curves'];
    const man: Segment = { key: 'man', labels: null, respondents: 4, curves };
    const yes: Segment = { key: 'opt1', labels: { ru: 'Да', en: 'Yes', id: 'Ya', ko: '네' }, respondents: 5, curves };
    expect(segmentName(man, 'ru', { man: 'Мужчины' })).toBe('Мужчины');
    expect(segmentName(man, 'ru', {})).toBe('man');
    expect(segmentName(yes, 'ko', {})).toBe('네');
    expect(segmentName({ ...yes, labels: { ru: '', en: 'Yes', id: '', ko: '' } }, 'id', {})).toBe('Yes');
  });
});

describe('heatmap frames', () => {
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
