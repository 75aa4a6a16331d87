import { describe, expect, it } from 'vitest';
import {
  detect,
  detectEpisodes,
  errorStats,
  gazeAccuracy,
  matchEvents,
  pearson,
  pxToDegrees,
  quantile,
  screenRegion,
} from './score.ts';
import { LAPTOP_SCREEN } from './session-plan.ts';

describe('validation arithmetic', () => {
  it('quantiles interpolate and skip non-finite values', () => {
    expect(quantile([3, 1, 2, Number.NaN], 0.5)).toBe(2);
    expect(quantile([0, 10], 0.95)).toBeCloseTo(9.5);
    expect(quantile([], 0.5)).toBeNaN();
  });

  it('px to degrees at 60 cm: 1 cm on the screen is 0.955°', () => {
    const pxPerCm = LAPTOP_SCREEN.width / LAPTOP_SCREEN.widthCm;
    expect(pxToDegrees(pxPerCm, LAPTOP_SCREEN)).toBeCloseTo(0.9548, 3);
  });

  it('gaze accuracy: errors, lost samples and precision within fixations only', () => {
    const s = (t: number, x: number, trueX: number, fixation = true) => ({ t, x, y: 100, trueX, trueY: 100, fixation });
    const a = gazeAccuracy(
      [s(0, 110, 100), s(100, 90, 100), s(200, Number.NaN, 100), s(300, 500, 500, false), s(400, 530, 500)],
      LAPTOP_SCREEN,
    );
    expect(a.samples).toBe(5);
    expect(a.lostShare).toBeCloseTo(0.2);
    expect(a.medianPx).toBe(10);
    // Steps inside a still target only: 110 → 90 (20 px); the jump to the next target and the lost one are left out.
    expect(a.precisionPx).toBeCloseTo(20);
    expect(a.medianPercent).toBeCloseTo((10 / Math.hypot(1280, 720)) * 100);
  });

  it('regions of the screen', () => {
    expect(screenRegion(10, 10, LAPTOP_SCREEN)).toBe('top left');
    expect(screenRegion(640, 360, LAPTOP_SCREEN)).toBe('middle centre');
    expect(screenRegion(1279, 719, LAPTOP_SCREEN)).toBe('bottom right');
  });

  it('detection: hits with their onset error, misses, and false alarms away from events', () => {
    const t = Array.from({ length: 100 }, (_, i) => i * 100);
    // Above 0.5 from 2.2 s to 3 s (an event from 2 s), and a stray bump at 7 s.
    const v = t.map((ms) => ((ms >= 2200 && ms <= 3000) || ms === 7000 ? 0.9 : 0.1));
    const d = detect(
      [
        { onset: 2000, apex: 2300, offset: 3000, intensity: 0.6 },
        { onset: 5000, apex: 5300, offset: 5600, intensity: 0.6 },
      ],
      { t, v },
      0.5,
    );
    expect(d.hits).toBe(1);
    expect(d.onsetErrorsMs).toEqual([200]);
    expect(d.falseAlarms).toBe(1);
    expect(d.neutralSeconds).toBeGreaterThan(3);
  });

  it('detection by episodes: the onset error from the episode start, false alarms by where they were detected', () => {
    const t = Array.from({ length: 100 }, (_, i) => i * 100);
    const events = [
      { onset: 2000, apex: 2600, offset: 4000, intensity: 0.5 },
      { onset: 6000, apex: 6600, offset: 7000, intensity: 0.5 },
    ];
    const d = detectEpisodes(
      events,
      [
        { start: 2100, detected: 2400, end: 4500 },
        // Detected 1.2 s after the last event's offset, started during it: a false alarm, not a late hit.
        { start: 7800, detected: 8200, end: null },
      ],
      t,
    );
    expect(d).toMatchObject({ injected: 2, hits: 1, onsetErrorsMs: [100], falseAlarms: 1 });
    // The steps ending at 0.1–0.9 s and at 8.1–9.9 s are more than a second from both events.
    expect(d.neutralSeconds).toBeCloseTo(2.8, 6);
  });

  it('matching events within a tolerance, each measured one used once', () => {
    const m = matchEvents([1000, 3000, 5000], [1100, 1150, 5400, 9000], 300);
    expect(m).toMatchObject({ matched: 1, recall: 1 / 3, precision: 1 / 4 });
    expect(matchEvents([1000, 3000], [1050, 2900], 300)).toMatchObject({ recall: 1, precision: 1 });
  });

  it('pearson and absolute errors', () => {
    expect(pearson([1, 2, 3, 4], [2, 4, 6, 8])).toBeCloseTo(1);
    expect(pearson([1, 2, 3, 4], [8, 6, 4, 2])).toBeCloseTo(-1);
    expect(pearson([1, 2], [1, 2])).toBeNaN();
    expect(errorStats([1, 2, Number.NaN, 10], [0, 0, 0, 0])).toMatchObject({ n: 3, median: 2 });
  });
});
