import { describe, expect, it } from 'vitest';
import {
  CHECKPOINT_DOT_MAX_MS,
  checkpointDots,
  correctDrift,
  driftAt,
  measureCheckpoints,
  smoothedOffsets,
} from './gaze-drift.ts';
import { gaussian, prng } from './random.ts';
import type { FrameGaze } from './types.ts';

const SCREEN = { width: 1280, height: 720 };

/** 30 Hz gaze from 0 to `seconds`: on `at(ms)` plus a drift of (dx, dy) px a second after 2 s. */
function track(seconds: number, at: (ms: number) => { x: number; y: number }, dx = 0, dy = 0): FrameGaze[] {
  return Array.from({ length: seconds * 30 }, (_, k) => {
    const ms = (k * 1000) / 30;
    const d = Math.max(0, ms - 2000) / 1000;
    const p = at(ms);
    return { time: ms / 1000, point: { x: p.x + dx * d, y: p.y + dy * d }, onScreen: true };
  });
}

describe('drift checkpoints', () => {
  it("reads the checkpoint dots in a window, each until the next event and at most the page's 1.5 s", () => {
    const dots = checkpointDots(
      [
        { type: 'checkpoint_dot', t: 5000, x: 640, y: 360 },
        { type: 'picture_shown', t: 6000 },
        { type: 'checkpoint_dot', t: 9000, x: 100, y: 100 },
        { type: 'checkpoint_dot', t: 20_000, x: Number.NaN, y: 1 },
        { type: 'checkpoint_dot', t: 1000, x: 1, y: 1 },
      ],
      2000,
      30_000,
    );
    expect(dots).toEqual([
      { x: 640, y: 360, startMs: 5000, endMs: 6000 },
      { x: 100, y: 100, startMs: 9000, endMs: 10_500 },
    ]);
  });

  it('measures a dot that no event ends only while the page shows it, not where the eyes go after it', () => {
    // A research's opening dot at a corner, shown 1.5 s; the page logs nothing as it goes, and the eyes go to the
    // middle of the screen (a contentless research's text) 150 ms after it, until the research ends 10 s later. The
    // reading: 30 px right and 20 down of where the eyes are, spread ±30 px as a webcam's gaze is.
    const at = (ms: number) => (ms >= 5000 && ms < 6650 ? { x: 192, y: 108 } : { x: 640, y: 360 });
    const drifted = track(20, at).map((g, k) => {
      const spread = ((k * 7) % 61) - 30;
      return { ...g, point: g.point ? { x: g.point.x + 30 + spread, y: g.point.y + 20 + spread } : null };
    });
    const dots = checkpointDots(
      [
        { type: 'research_start', t: 5000 },
        { type: 'checkpoint_dot', t: 5000, x: 192, y: 108 },
        { type: 'research_end', t: 15_000 },
      ],
      5000,
      15_000,
    );
    const [checkpoint] = measureCheckpoints(dots, drifted, SCREEN);
    expect(Math.abs((checkpoint?.offset?.x ?? 0) - 30)).toBeLessThan(3);
    expect(Math.abs((checkpoint?.offset?.y ?? 0) - 20)).toBeLessThan(3);
  });

  it('measures the offset on each checkpoint and corrects the gaze between them to the undrifted one', () => {
    // The eyes on a point moving across the screen, except on the two checkpoint dots (centre at 10-11 s, a corner
    // at 20-21 s); the reading drifts 10 px/s right and 5 px/s down after 2 s.
    const content = (ms: number) => ({ x: 200 + ms / 50, y: 300 });
    const at = (ms: number) =>
      ms >= 10_000 && ms < 11_000 ? { x: 640, y: 360 } : ms >= 20_000 && ms < 21_000 ? { x: 100, y: 100 } : content(ms);
    const drifted = track(30, at, 10, 5);
    const dots = [
      { x: 640, y: 360, startMs: 10_000, endMs: 11_000 },
      { x: 100, y: 100, startMs: 20_000, endMs: 21_000 },
    ];
    const checkpoints = measureCheckpoints(dots, drifted, SCREEN);
    expect(checkpoints).toHaveLength(2);
    // Samples after the 400 ms settling: 18 on each dot; the offset is the drift at the dot (about 8.7 s and 18.7 s).
    expect(checkpoints[0]?.samples).toBe(18);
    expect(checkpoints[0]?.offset?.x).toBeCloseTo(87, 0);
    expect(checkpoints[0]?.offset?.y).toBeCloseTo(43.5, 0);
    expect(checkpoints[1]?.offset?.x).toBeCloseTo(187, 0);
    expect(checkpoints.every((c) => c.used)).toBe(true);
    const corrected = correctDrift(drifted, checkpoints, 2000, SCREEN);
    // Linear drift, linear correction: the content's gaze between 2 s and 20.5 s comes back to within a pixel.
    for (const g of corrected) {
      if (g.time > 20.5) continue;
      const truth = at(g.time * 1000);
      expect(Math.abs((g.point?.x ?? 0) - truth.x)).toBeLessThan(1.5);
      expect(Math.abs((g.point?.y ?? 0) - truth.y)).toBeLessThan(1.5);
    }
    // After the last checkpoint the offset holds: the drift that keeps growing is left (10 px/s).
    expect(driftAt(checkpoints, 2000, 25_000).x).toBeCloseTo(checkpoints[1]?.offset?.x ?? 0, 6);
    expect(driftAt(checkpoints, 2000, 1000)).toEqual({ x: 0, y: 0 });
  });

  it('groups close dots into one checkpoint, and leaves out one the respondent did not look at', () => {
    const at = () => ({ x: 640, y: 360 });
    const still = track(20, at);
    const [three] = measureCheckpoints(
      [
        { x: 640, y: 360, startMs: 5000, endMs: 6000 },
        { x: 700, y: 360, startMs: 6000, endMs: 7000 },
        { x: 580, y: 360, startMs: 7000, endMs: 8000 },
      ],
      still,
      SCREEN,
    );
    // The eyes stayed on the centre: offsets 0, −60, +60: their mean.
    expect(three).toMatchObject({ dots: 3, used: true });
    expect(three?.offset?.x).toBeCloseTo(0, 6);
    // A dot far from where the eyes were (over a quarter of the diagonal): not drift, not used.
    const [away] = measureCheckpoints([{ x: 0, y: 0, startMs: 12_000, endMs: 13_000 }], still, SCREEN);
    expect(away?.used).toBe(false);
    expect(correctDrift(still, [away as NonNullable<typeof away>], 2000, SCREEN)).toEqual(still);
    // Too few samples (the face lost): no offset.
    const lost = still.map((g) => (g.time > 12 && g.time < 13 ? { ...g, point: null } : g));
    expect(measureCheckpoints([{ x: 640, y: 360, startMs: 12_000, endMs: 13_000 }], lost, SCREEN)[0]).toMatchObject({
      offset: null,
      used: false,
    });
  });

  it("takes off a lone checkpoint's offset shrunk by the gaze's own error at a dot: none of a small one, most of a large one", () => {
    // Noise 60 px (the validation dots' accuracy): an offset of 60 px or less could be that error alone.
    const lone = (offset: { x: number; y: number }, noise: number) =>
      smoothedOffsets([{ ms: 20_000, offset, measuredDots: 1 }], 2000, noise)[0];
    expect(lone({ x: 36, y: 48 }, 60)).toEqual({ x: 0, y: 0 });
    // |offset| 300 px: 1 − (60 / 300)² = 0.96 of it (decision 061's shrinkage, which the walk gives for one reading).
    const large = lone({ x: 180, y: 240 }, 60);
    expect(large?.x).toBeCloseTo(172.8, 3);
    expect(large?.y).toBeCloseTo(230.4, 3);
    expect(lone({ x: 10, y: 0 }, 0)).toEqual({ x: 10, y: 0 });
    // A checkpoint of three dots averages three fixations' errors: the same offset is taken off more.
    const three = smoothedOffsets([{ ms: 20_000, offset: { x: 60, y: 0 }, measuredDots: 3 }], 2000, 60)[0];
    expect(three?.x).toBeCloseTo(40, 3);
    // The correction reads the smoothed offset; the measured one stays what the checkpoint reports.
    const track: FrameGaze[] = Array.from({ length: 20 }, (_, i) => ({
      time: 10 + i * 0.05,
      point: { x: 600, y: 400 },
      onScreen: true,
    }));
    const [checkpoint] = measureCheckpoints(
      [{ x: 500, y: 400, startMs: 10_000, endMs: 11_000 }],
      track,
      { width: 1280, height: 720 },
      { noise: 50, fromMs: 2000 },
    );
    expect(checkpoint?.offset).toEqual({ x: 100, y: 0 });
    expect(checkpoint?.applied?.x).toBeCloseTo(75, 3);
    expect(driftAt(checkpoint ? [checkpoint] : [], 0, 20_000).x).toBeCloseTo(75, 3);
  });

  it('smooths the checkpoints together: closer to a growing drift than each reading, and near none without drift', () => {
    // 400 seeded sessions, three checkpoints 15, 30 and 45 s after the calibration, each reading the drift plus one
    // fixation's error (70 px, the validation accuracy: 70/√2 per axis). Half drift 1.5 px/s right and 1 px/s down
    // (about 1.2° a minute at 60 cm), half do not drift.
    const rand = prng(74);
    const noise = 70;
    const error = { drifting: { read: 0, smoothed: 0 }, still: { read: 0, smoothed: 0 } };
    for (let session = 0; session < 400; session++) {
      const drifting = session % 2 === 0;
      const truth = (s: number) => (drifting ? { x: 1.5 * s, y: s } : { x: 0, y: 0 });
      const checkpoints = [15, 30, 45].map((s) => ({
        ms: 2000 + s * 1000,
        offset: {
          x: truth(s).x + (gaussian(rand) * noise) / Math.SQRT2,
          y: truth(s).y + (gaussian(rand) * noise) / Math.SQRT2,
        },
        measuredDots: 1,
      }));
      const smoothed = smoothedOffsets(checkpoints, 2000, noise);
      const arm = drifting ? error.drifting : error.still;
      checkpoints.forEach((c, k) => {
        const t = truth((c.ms - 2000) / 1000);
        const s = smoothed[k] as { x: number; y: number };
        arm.read += Math.hypot(c.offset.x - t.x, c.offset.y - t.y) / 600;
        arm.smoothed += Math.hypot(s.x - t.x, s.y - t.y) / 600;
      });
    }
    // Taken as read, every checkpoint moves the gaze after it by a fixation's error (~62 px mean); smoothed, the
    // drifting sessions' error is much smaller, and a still session is left nearly alone.
    expect(error.drifting.read).toBeGreaterThan(55);
    expect(error.drifting.smoothed).toBeLessThan(0.75 * error.drifting.read);
    expect(error.still.smoothed).toBeLessThan(0.4 * error.still.read);
  });

  it("ends a research's opening dot at the page's checkpoint_end, and an older log's at the longest showing", () => {
    const opening = [
      { type: 'research_start', t: 60_000 },
      { type: 'checkpoint_dot', t: 60_010, x: 640, y: 360 },
      { type: 'checkpoint_end', t: 61_210 },
      { type: 'research_end', t: 90_000 },
    ];
    expect(checkpointDots(opening, 60_000, 90_000)).toEqual([{ x: 640, y: 360, startMs: 60_010, endMs: 61_210 }]);
    const older = opening.filter((e) => e.type !== 'checkpoint_end');
    expect(checkpointDots(older, 60_000, 90_000)[0]?.endMs).toBe(60_010 + CHECKPOINT_DOT_MAX_MS);
  });
});
