import { describe, expect, it } from 'vitest';
import { gazeAt, segmentAt } from './report-view.ts';

const gaze = { t: [0, 0.1, 0.2, 1.5], x: [10, 20, 30, 40], y: [1, 2, 3, 4] };

describe('playback', () => {
  it('shows the latest gaze sample not after the time, while it is recent', () => {
    expect(gazeAt(gaze, -0.5)).toBeNull();
    expect(gazeAt(gaze, 0)).toEqual({ x: 10, y: 1 });
    expect(gazeAt(gaze, 0.15)).toEqual({ x: 20, y: 2 });
    expect(gazeAt(gaze, 0.45)).toEqual({ x: 30, y: 3 });
    // 0.8 s after the last sample before a gap: no gaze on the item then.
    expect(gazeAt(gaze, 1)).toBeNull();
    expect(gazeAt(gaze, 1.6)).toEqual({ x: 40, y: 4 });
    expect(gazeAt({ t: [], x: [], y: [] }, 1)).toBeNull();
  });

  it('plays the kept segment in which the gaze reached the item', () => {
    const segments = [0, 30, 70].map((offset, segment) => ({ segment, offset, mime_type: 'video/webm', url: '' }));
    const base = { session_id: '', item: 0, gaze };
    expect(segmentAt({ ...base, onset: 45, segments })?.segment).toBe(1);
    expect(segmentAt({ ...base, onset: 12, segments })?.segment).toBe(0);
    expect(segmentAt({ ...base, onset: 12, segments: segments.slice(1) })?.segment).toBe(1);
    expect(segmentAt({ ...base, onset: 12, segments: [] })).toBeUndefined();
  });
});
