import { shapeAt, shapeContains } from '@emolens/contracts';
import { describe, expect, it } from 'vitest';
import { areaMetrics, withPath } from './areas.ts';
import { type Fixation, fixationsOf } from './gaze.ts';

describe('areas of interest', () => {
  const fix = (start: number, end: number, x: number, y: number): Fixation => ({ start, end, x, y, samples: 1 });
  const A = { id: 'logo', x: 0, y: 0, width: 500, height: 500 };
  const B = { id: 'pack', x: 1000, y: 500, width: 400, height: 400 };

  it('give who looked, when first, for how long, how often back, and how many fixations, by hand', () => {
    const first = [fix(0, 0.5, 100, 100), fix(0.6, 1.3, 1200, 700), fix(1.5, 2.0, 200, 200)];
    const second = [fix(0.2, 0.8, 1100, 600)];
    const [logo, pack] = areaMetrics([A, B], [first, second]);
    expect(logo).toEqual({
      id: 'logo',
      respondents: 2,
      looked: 1,
      lookedShare: 0.5,
      timeToFirstFixation: 0,
      dwellTime: expect.closeTo(0.5, 12), // (0.5 + 0.5 + 0) / 2
      dwellShare: expect.closeTo(1 / 1.7 / 2, 12), // 1.0 of 1.7 s, and 0
      revisits: 1, // two visits
      fixationCount: 1,
    });
    expect(pack).toEqual({
      id: 'pack',
      respondents: 2,
      looked: 2,
      lookedShare: 1,
      timeToFirstFixation: expect.closeTo(0.4, 12), // (0.6 + 0.2) / 2
      dwellTime: expect.closeTo(0.65, 12),
      dwellShare: expect.closeTo((0.7 / 1.7 + 1) / 2, 12),
      revisits: 0,
      fixationCount: 1,
    });
  });

  it('are empty, not broken, without respondents or looks', () => {
    expect(areaMetrics([A], [])).toEqual([
      {
        id: 'logo',
        respondents: 0,
        looked: 0,
        lookedShare: 0,
        timeToFirstFixation: null,
        dwellTime: 0,
        dwellShare: 0,
        revisits: null,
        fixationCount: 0,
      },
    ]);
  });

  it("on a video, count only the fixation time inside the area's window, timed from its start", () => {
    // Window 1–2 s on the logo: the first respondent's 1.5–2.0 s fixation and the part 1.0–1.2 s of one from 0.8 s.
    const first = [fix(0, 0.5, 100, 100), fix(0.8, 1.2, 150, 150), fix(1.5, 2.4, 200, 200)];
    const second = [fix(0.2, 0.8, 100, 100)];
    const [logo] = areaMetrics([{ ...A, from: 1, to: 2 }], [first, second]);
    expect(logo).toEqual({
      id: 'logo',
      respondents: 2,
      looked: 1,
      lookedShare: 0.5,
      timeToFirstFixation: 0,
      dwellTime: expect.closeTo((0.2 + 0.5) / 2, 12),
      // All of the first respondent's in-window fixation time is on the logo; the second had none in the window.
      dwellShare: 0.5,
      revisits: 0,
      fixationCount: 1,
    });
  });
});

describe('a moving area (decision 044)', () => {
  const SIZE = { width: 1920, height: 1080 };
  const HZ = 30;
  // A ball 160 x 120 px crossing the frame: still until 1 s, then to (1300, 700) by 5 s, held there after.
  const ball = (x: number, y: number) => ({ kind: 'rectangle' as const, x, y, width: 160, height: 120 });
  const area = {
    id: 'ball',
    ...ball(200, 200),
    shape: ball(200, 200),
    key_frames: [
      { t: 1, shape: ball(200, 200) },
      { t: 5, shape: ball(1300, 700) },
    ],
  };
  const centre = (t: number) => {
    const f = Math.min(1, Math.max(0, (t - 1) / 4));
    return { x: 280 + 1100 * f, y: 260 + 500 * f };
  };
  /** Seeded noise (a linear congruential generator, Box-Muller), so the test is the same every run. */
  const noise = (seed: number) => {
    let s = seed;
    const uniform = () => {
      s = (s * 1664525 + 1013904223) % 4294967296;
      return (s + 0.5) / 4294967296;
    };
    return (sigma: number) => sigma * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  };
  /**
   * One respondent at 30 Hz, 0–8 s: on a corner far from the ball until 1.5 s, then following the ball (gaze on
   * its centre with 10 px noise) until 5.2 s, away on the other corner until 6.5 s, back on the ball until 8 s. The
   * truth: the seconds the gaze sample lies in the ball at its own moment.
   */
  const respondent = (seed: number) => {
    const jitter = noise(seed);
    const t: number[] = [];
    const x: number[] = [];
    const y: number[] = [];
    for (let i = 0; i < 8 * HZ; i++) {
      const ti = i / HZ;
      const onBall = (ti >= 1.5 && ti < 5.2) || ti >= 6.5;
      const at = onBall ? centre(ti) : ti < 1.5 ? { x: 1700, y: 950 } : { x: 150, y: 950 };
      t.push(ti);
      x.push(at.x + jitter(10));
      y.push(at.y + jitter(10));
    }
    let truth = 0;
    for (let i = 0; i < t.length - 1; i++) {
      const ti = t[i] as number;
      if (shapeContains(shapeAt(area, ti), x[i] as number, y[i] as number)) truth += 1 / HZ;
    }
    return { track: { length: t.length, t, x, y }, truth };
  };

  it('dwell matches the truth within 100 ms on gaze that follows the ball (three respondents)', () => {
    for (const seed of [1, 2, 3]) {
      const { track, truth } = respondent(seed);
      const found = fixationsOf(track, SIZE).map((f) => withPath(track, f, 0));
      const [m] = areaMetrics([area], [found]);
      expect(truth).toBeCloseTo(3.7 + 1.5, 0);
      expect(Math.abs((m?.dwellTime ?? 0) - truth), `seed ${seed}: ${m?.dwellTime} vs ${truth}`).toBeLessThan(0.1);
      // First on the ball at 1.5 s; one revisit (back at 6.5 s).
      expect(m?.timeToFirstFixation).toBeCloseTo(1.5, 1);
      expect(m?.revisits).toBe(1);
    }
  });

  it('within a window: counted from its start, only its part', () => {
    const { track } = respondent(1);
    const found = fixationsOf(track, SIZE).map((f) => withPath(track, f, 0));
    const [m] = areaMetrics([{ ...area, from: 2, to: 7 }], [found]);
    // 2–5.2 s following, 6.5–7 s back: 3.7 s, the first from the window's start.
    expect(Math.abs((m?.dwellTime ?? 0) - 3.7)).toBeLessThan(0.1);
    expect(m?.timeToFirstFixation).toBeCloseTo(0, 1);
  });

  it('without the samples, a fixation is judged by its centroid against the moving shape', () => {
    const still = [{ start: 0, end: 4, x: 280, y: 260, samples: 120 }];
    // The ball leaves the centroid once its left edge passes 280 px: (280 - 200) / 1100 * 4 s after 1 s.
    const [m] = areaMetrics([area], [still]);
    expect(m?.dwellTime).toBeCloseTo(1 + (80 / 1100) * 4, 1);
  });
});
