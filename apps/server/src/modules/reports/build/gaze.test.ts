import {
  degreesPerContentPixel,
  FIXATION_DEFAULTS,
  type FixationSettings,
  fixationSettingsInput,
  fixationSettingsSchema,
  parseMessage,
} from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { type Fixation, fixations, type GazeSample } from './gaze.ts';

/** Samples every `1 / hz` s from `t0`, one per point (null: no gaze). */
const sampled = (hz: number, t0: number, points: ([number, number] | null)[]): GazeSample[] =>
  points.map((p, i) => ({ t: t0 + i / hz, x: p?.[0] ?? null, y: p?.[1] ?? null }));
const hold = (n: number, x: number, y: number): [number, number][] => Array.from({ length: n }, () => [x, y]);
const rounded = (found: Fixation[]) =>
  found.map((f) => ({
    start: Math.round(f.start * 1000),
    end: Math.round(f.end * 1000),
    x: Math.round(f.x),
    y: Math.round(f.y),
    samples: f.samples,
  }));
const NO_NOISE: FixationSettings = { ...FIXATION_DEFAULTS, noise: 'none' };

/** A 1280 × 720 picture fills the assumed 34.5 × 19.4 cm screen: at 60 cm, 1° is 38.9 px. */
const SCREEN = { width: 1280, height: 720 };

describe('the fixation filter (I-VT after Olsen 2012) at 30 Hz', () => {
  it('gives the sample landing after a saccade, and the last one before it, to the saccade', () => {
    // 10 samples at (400, 300), then at once 10 at (900, 300) (12.9° away).
    const path = sampled(30, 0, [...hold(10, 400, 300), ...hold(10, 900, 300)]);
    for (const settings of [FIXATION_DEFAULTS, NO_NOISE]) {
      expect(rounded(fixations(path, SCREEN, settings))).toEqual([
        // Samples 0–8: sample 9's window (8–10) holds the jump.
        { start: 0, end: 267, x: 400, y: 300, samples: 9 },
        // Samples 11–19: sample 10, the landing one, is the saccade's (its window 9–11 holds the jump).
        { start: 367, end: 633, x: 900, y: 300, samples: 9 },
      ]);
    }
  });

  it('does not make a fixation of a stop of three samples between two saccades (the landing sample no longer counts)', () => {
    // 67 ms at (800, 500) between two looks: only its middle sample is slow, a fixation of 0 ms, discarded (< 60 ms).
    const path = sampled(30, 0, [...hold(10, 200, 200), ...hold(3, 800, 500), ...hold(10, 200, 600)]);
    expect(rounded(fixations(path, SCREEN)).map((f) => [f.x, f.y])).toEqual([
      [200, 200],
      [200, 600],
    ]);
    // Four samples (100 ms) leave two slow ones, 33 ms: still too short; six (167 ms) leave four, 100 ms: a fixation.
    const longer = sampled(30, 0, [...hold(10, 200, 200), ...hold(6, 800, 500), ...hold(10, 200, 600)]);
    expect(rounded(fixations(longer, SCREEN))).toContainEqual({ start: 367, end: 467, x: 800, y: 500, samples: 4 });
  });

  it('fills a gap of up to 75 ms (two lost samples) and ends the fixation at a longer one', () => {
    const look = (lost: number) =>
      sampled(30, 0, [...hold(10, 640, 360), ...Array.from({ length: lost }, () => null), ...hold(10, 640, 360)]);
    // Two lost: interpolated, one fixation of the 20 measured samples.
    expect(rounded(fixations(look(2), SCREEN))).toEqual([{ start: 0, end: 700, x: 640, y: 360, samples: 20 }]);
    // Three lost (100 ms): two fixations, 133 ms apart (more than the 75 ms merge gap).
    expect(rounded(fixations(look(3), SCREEN)).map((f) => [f.start, f.end])).toEqual([
      [0, 300],
      [433, 733],
    ]);
    // Gap fill-in off: two lost samples end it too.
    expect(fixations(look(2), SCREEN, { ...FIXATION_DEFAULTS, gapFillMs: 0 })).toHaveLength(2);
  });

  it('rides over a one-sample outlier with the moving median, and is split by it without noise reduction', () => {
    const path = sampled(30, 0, [...hold(10, 640, 360), [840, 360], ...hold(10, 640, 360)]);
    expect(rounded(fixations(path, SCREEN))).toEqual([{ start: 0, end: 667, x: 640, y: 360, samples: 21 }]);
    // Unsmoothed, the outlier (5.1° off) makes its neighbours saccade samples: 0–9 and 11–20 around it.
    expect(rounded(fixations(path, SCREEN, NO_NOISE)).map((f) => [f.start, f.end])).toEqual([
      [0, 267],
      [400, 667],
    ]);
  });

  it('merges fixations at most 75 ms apart within the merge angle, and only those', () => {
    // A ramp of 2.6° over two steps: only the middle sample's window (1.3° per 33 ms each side) is fast.
    const path = sampled(30, 0, [...hold(10, 640, 360), [690, 360], ...hold(10, 740, 360)]);
    expect(fixations(path, SCREEN, { ...NO_NOISE, mergeAngle: 0 })).toHaveLength(2);
    const merged = fixations(path, SCREEN, { ...NO_NOISE, mergeAngle: 3 });
    expect(rounded(merged)).toEqual([{ start: 0, end: 667, x: 690, y: 360, samples: 20 }]);
    expect(fixations(path, SCREEN, { ...NO_NOISE, mergeAngle: 3, mergeGapMs: 50 })).toHaveLength(2);
  });

  it('classifies in degrees at the distance it is given', () => {
    // Steps of 50 px a sample (1500 px/s): 38.6°/s at 60 cm, a saccade throughout; 19.3°/s at 120 cm, a fixation.
    expect(degreesPerContentPixel(SCREEN)).toBeCloseTo(0.025727, 5);
    expect(degreesPerContentPixel(SCREEN, 120)).toBeCloseTo(0.025727 / 2, 5);
    const steps = sampled(
      30,
      0,
      Array.from({ length: 12 }, (_, i): [number, number] => [100 + 50 * i, 360]),
    );
    expect(fixations(steps, SCREEN, NO_NOISE)).toEqual([]);
    expect(rounded(fixations(steps, SCREEN, NO_NOISE, 120))).toHaveLength(1);
  });
});

describe('the fixation filter at 10 Hz (the worker before issue 31 item 1)', () => {
  // A look at (400, 300), a saccade to (1200, 700), a lost sample, a one-sample glance away and back, a 100 ms stop.
  const PATH: GazeSample[] = [
    ...sampled(10, 0, [
      [400, 300],
      [410, 300],
      [400, 310],
      [390, 300],
      [400, 290],
      [400, 300],
      [1200, 700],
      [1210, 700],
      [1200, 700],
      [1190, 700],
      [1200, 710],
      null,
      [1200, 700],
      [1200, 700],
      [1700, 200],
      [1205, 700],
      [1205, 700],
      [1205, 700],
    ]),
    ...sampled(10, 2, [
      [1700, 900],
      [1700, 900],
    ]),
  ];

  it('finds the fixations of a known path with the default settings', () => {
    expect(rounded(fixations(PATH, { width: 1920, height: 1080 }))).toEqual([
      // The samples either side of the saccade (0.5 s, 0.6 s) are the saccade's.
      { start: 0, end: 400, x: 400, y: 300, samples: 5 },
      { start: 700, end: 1000, x: 1200, y: 703, samples: 4 },
      // The lost sample (100 ms, more than 75) ends a fixation; the median takes the one-sample glance out.
      { start: 1200, end: 1700, x: 1203, y: 700, samples: 6 },
      { start: 2000, end: 2100, x: 1700, y: 900, samples: 2 },
    ]);
  });
});

describe('the fixation settings', () => {
  it('default to the filter of decision 042 and take values within their bounds only', () => {
    expect(fixationSettingsSchema.parse({})).toEqual(FIXATION_DEFAULTS);
    const refused = fixationSettingsSchema.safeParse({
      velocityThreshold: 1,
      minDurationMs: 2000,
      noise: 'mean',
      noiseWindow: 4,
    });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => [i.path.join('.'), parseMessage(i.message)])).toEqual([
      ['noise', { key: 'validation.choice' }],
      ['noiseWindow', { key: 'validation.invalid' }],
      ['velocityThreshold', { key: 'validation.between', params: { first: 2, second: 300 } }],
      ['minDurationMs', { key: 'validation.between', params: { first: 0, second: 1000 } }],
    ]);
  });

  it('read settings saved before (diagonals) in degrees, the durations kept, and refuse a mix', () => {
    expect(
      fixationSettingsInput.parse({ velocity: 1, minDurationMs: 200, mergeGapMs: 150, mergeDistance: 0.05 }),
    ).toEqual({ ...FIXATION_DEFAULTS, velocityThreshold: 37.8, mergeAngle: 1.9, minDurationMs: 200, mergeGapMs: 150 });
    expect(fixationSettingsInput.parse({ velocity: 5, mergeDistance: 0.2 })).toMatchObject({
      velocityThreshold: 189,
      mergeAngle: 7.6,
    });
    expect(fixationSettingsInput.safeParse({ velocity: 1, velocityThreshold: 30 }).success).toBe(false);
    expect(fixationSettingsInput.safeParse({ velocity: 9 }).success).toBe(false);
    // A response's schema reads today's settings only.
    expect(fixationSettingsSchema.safeParse({ velocity: 1 }).success).toBe(false);
  });
});
