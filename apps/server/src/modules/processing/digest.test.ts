import { EXPRESSIONS, encodeFrames, type FrameRow, framesTable, type GazeRow } from '@emolens/engine';
import { describe, expect, it } from 'vitest';
import { readDigest, reportDigest } from './digest.ts';

/** Full frames at 10 fps from 0 s, the content from 1 s: item 0 until 2 s, then item 1; gaze x = 100 × time. */
function rows(count: number): FrameRow[] {
  return Array.from({ length: count }, (_, i) => {
    const time = i / 10;
    const item = time < 1 ? -1 : time < 2 ? 0 : 1;
    return {
      time,
      faceCount: 1,
      flags: [],
      bad: false,
      face: {
        box: { x: 0, y: 0, width: 100, height: 100 },
        score: 0.9,
        pose: { yaw: 0, pitch: 0, roll: 0 },
        expressions: Object.fromEntries(EXPRESSIONS.map((e) => [e, e === 'happy' ? 0.5 : 0.5 / 6])) as Record<
          (typeof EXPRESSIONS)[number],
          number
        >,
      },
      gaze: { x: 100 * time, y: 50 },
      item,
      content: item >= 0 ? { x: 100 * time, y: 50 } : null,
    };
  });
}

/** The same at 30 Hz, one sample in ten without gaze. */
function track(count: number): GazeRow[] {
  return Array.from({ length: 3 * count }, (_, k) => {
    const time = k / 30;
    const item = time < 1 ? -1 : time < 2 ? 0 : 1;
    const gaze = k % 10 === 5 ? null : { x: 100 * time, y: 50 };
    return { time, gaze, item, content: item >= 0 && gaze ? { x: gaze.x, y: 50 } : null };
  });
}

const series = {
  item: [0, 1],
  step: [0, 0],
  second: [0, 0],
  engagement: [0.1, 0.2],
  valence: [0, 0],
  attention: [1, 1],
  smile: [0.3, null],
  expressions: Object.fromEntries(EXPRESSIONS.map((e) => [e, [0, 0]])) as Record<
    (typeof EXPRESSIONS)[number],
    number[]
  >,
  gazeX: [150, 250],
  gazeY: [50, 50],
};

describe('the report digest', () => {
  it('takes every gaze sample of the gaze track (30 Hz), on its item, from the content start', () => {
    const frames = encodeFrames(framesTable(rows(30), null, track(30)));
    const digest = readDigest(reportDigest(frames, series, 1000));
    const first = digest.gaze.get(0);
    const second = digest.gaze.get(1);
    // 1–2 s: 30 samples, 3 without gaze; 2–3 s: likewise.
    expect(first?.length).toBe(27);
    expect(second?.length).toBe(27);
    expect(Array.from(first?.t ?? []).every((t) => t >= 1 - 1e-6 && t < 2)).toBe(true);
    expect(first?.x[1]).toBeCloseTo(100 * (31 / 30), 3);
    // The resting face still comes from the frame table (the frames before the content).
    expect(digest.resting.happy).toBeCloseTo(0.5, 6);
  });

  it('falls back on the frame table for a result without a gaze track (analysed before decision 049)', () => {
    const frames = encodeFrames(framesTable(rows(30)));
    const digest = readDigest(reportDigest(frames, series, 1000));
    expect(digest.gaze.get(0)?.length).toBe(10);
    expect(digest.gaze.get(1)?.length).toBe(10);
    expect(digest.gaze.get(0)?.x[0]).toBeCloseTo(100, 3);
  });

  it('keeps the smile index of each second beside the other metrics; a series stored before it has none', () => {
    const frames = encodeFrames(framesTable(rows(30)));
    const digest = readDigest(reportDigest(frames, series, 1000));
    expect(Array.from(digest.buckets.metrics.smile)).toEqual([expect.closeTo(0.3, 6), Number.NaN]);
    expect(Array.from(digest.buckets.metrics.engagement)).toEqual([expect.closeTo(0.1, 6), expect.closeTo(0.2, 6)]);
    const { smile: _, ...older } = series;
    const old = readDigest(reportDigest(frames, older as typeof series, 1000));
    expect(Array.from(old.buckets.metrics.smile)).toEqual([Number.NaN, Number.NaN]);
    expect(Array.from(old.buckets.gazeX)).toEqual([150, 250]);
  });
});
