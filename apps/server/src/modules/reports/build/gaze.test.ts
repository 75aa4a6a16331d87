import { FIXATION_DEFAULTS, fixationSettingsSchema, parseMessage } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { fixations, type GazeSample } from './gaze.ts';

const SIZE = { width: 1920, height: 1080 };
/** Samples at 10 Hz from `t0`, one per point. */
const at = (t0: number, points: ([number, number] | null)[]): GazeSample[] =>
  points.map((p, i) => ({ t: Math.round((t0 + i / 10) * 10) / 10, x: p?.[0] ?? null, y: p?.[1] ?? null }));

/**
 * A synthetic path (content 1920 × 1080, diagonal 2203 px): a look at (400, 300), a saccade to (1200, 700) held
 * through one lost sample, a glance away and back, and a 100 ms stop that is too short.
 */
const PATH: GazeSample[] = [
  ...at(0, [
    [400, 300],
    [410, 300],
    [400, 310],
    [390, 300],
    [400, 290],
    [400, 300],
  ]), // 0.0–0.5
  ...at(0.6, [
    [1200, 700],
    [1210, 700],
    [1200, 700],
    [1190, 700],
    [1200, 710],
  ]), // 0.6–1.0
  ...at(1.1, [null, [1200, 700], [1200, 700]]), // 1.1 lost, 1.2–1.3
  ...at(1.4, [[1700, 200]]), // a glance away …
  ...at(1.5, [
    [1205, 700],
    [1205, 700],
    [1205, 700],
  ]), // … and back, 1.5–1.7
  ...at(2.0, [
    [1700, 900],
    [1700, 900],
  ]), // 2.0–2.1: 100 ms
];

describe('the fixation filter', () => {
  it('finds the fixations of a known path with the default thresholds', () => {
    const found = fixations(PATH, SIZE);
    expect(found.map((f) => ({ ...f, x: Math.round(f.x), y: Math.round(f.y) }))).toEqual([
      { start: 0, end: 0.5, x: 400, y: 300, samples: 6 },
      // The first sample after the saccade joins the fixation it starts; the lost sample does not break it.
      { start: 0.6, end: 1.3, x: 1200, y: 701, samples: 7 },
      // The glance (200 ms away, > 150 ms) splits it; the last stop is 100 ms (< 200 ms) and is dropped.
      { start: 1.5, end: 1.7, x: 1205, y: 700, samples: 3 },
    ]);
  });

  it('merges fixations across a longer glance, and keeps shorter ones, when told', () => {
    const merged = fixations(PATH, SIZE, { ...FIXATION_DEFAULTS, mergeGapMs: 250, minDurationMs: 100 });
    expect(merged.map((f) => [f.start, f.end, f.samples])).toEqual([
      [0, 0.5, 6],
      [0.6, 1.7, 10],
      [2, 2.1, 2],
    ]);
    // Below the filter's bounds, a velocity of 0.01 diagonals/s makes the jitter of ±10 px per 0.1 s (0.045) a
    // saccade: only the still stretch 1.5–1.7 s is left.
    expect(fixations(PATH, SIZE, { ...FIXATION_DEFAULTS, velocity: 0.01 }).map((f) => [f.start, f.end])).toEqual([
      [1.5, 1.7],
    ]);
  });

  it('never joins samples across a gap of more than 250 ms', () => {
    const gap = [
      ...at(0, [
        [500, 500],
        [500, 500],
        [500, 500],
      ]),
      ...at(0.6, [
        [500, 500],
        [500, 500],
        [500, 500],
      ]),
    ];
    expect(fixations(gap, SIZE, { ...FIXATION_DEFAULTS, mergeGapMs: 0 }).map((f) => [f.start, f.end])).toEqual([
      [0, 0.2],
      [0.6, 0.8],
    ]);
  });

  it("takes thresholds within their bounds only, with the spec's message", () => {
    expect(fixationSettingsSchema.parse({})).toEqual(FIXATION_DEFAULTS);
    const refused = fixationSettingsSchema.safeParse({ velocity: 9, minDurationMs: 10 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => [i.path.join('.'), parseMessage(i.message)])).toEqual([
      ['velocity', { key: 'validation.between', params: { first: 0.1, second: 5 } }],
      ['minDurationMs', { key: 'validation.between', params: { first: 50, second: 1000 } }],
    ]);
  });
});
