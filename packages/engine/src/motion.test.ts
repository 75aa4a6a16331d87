import { describe, expect, it } from 'vitest';
import {
  blinksPerMinute,
  distraction,
  EYE_CLOSE_AT,
  EYE_OPEN_AT,
  type EyeClosure,
  eyeClosureSeries,
  eyeClosures,
  FAST_HEAD_TURN_DEGREES_PER_SECOND,
  fastHeadTurns,
  headSpeed,
  headSteps,
  motionSeries,
} from './motion.ts';
import { gaussian, prng } from './random.ts';
import type { HeadPose } from './types.ts';

/** Frame times at `fps` from 0 for `seconds` (exact decimal times). */
const clock = (seconds: number, fps = 10) => Array.from({ length: Math.round(seconds * fps) }, (_, i) => i / fps);
const pose = (yaw = 0, pitch = 0, roll = 0): HeadPose => ({ yaw, pitch, roll });

describe('head movement', () => {
  it('reads a head turning at 20°/s as 20°/s, and a still one as 0', () => {
    const times = clock(5);
    // Still for 2 s, then yawing at 20°/s.
    const poses = times.map((t) => pose(t < 2 ? 0 : 20 * (t - 2)));
    const steps = headSteps(times, poses, 0);
    expect(steps[0]).toBeNull();
    const perSecond = [0, 1, 2, 3, 4].map((s) =>
      headSpeed(steps.filter((_, i) => Math.floor(times[i] as number) === s)),
    );
    expect(perSecond[0]).toBe(0);
    expect(perSecond[1]).toBe(0);
    // A step counts in the second of its later frame: second 2 holds the still step 1.9 → 2.0 s and nine of 2°.
    expect(perSecond[2]).toBeCloseTo(18, 9);
    for (const s of [3, 4]) expect(perSecond[s]).toBeCloseTo(20, 9);
  });

  it('combines the three angles and wraps roll across ±180°', () => {
    const steps = headSteps([0, 0.1, 0.2], [pose(0, 0, 179), pose(3, 4, -179), pose(3, 4, -179)], 0);
    expect(steps[1]?.degrees).toBeCloseTo(Math.hypot(3, 4, 2), 9);
    expect(steps[2]?.degrees).toBe(0);
  });

  it('is not thrown by missing frames, and leaves out gaps over 0.5 s', () => {
    const times = clock(6);
    const poses = times.map((t, i) => (i % 3 === 1 || (t >= 2 && t < 3) ? null : pose(0, 10 * t, 0)));
    const steps = headSteps(times, poses, 0);
    // Every step that exists spans 0.1 or 0.2 s at 10°/s; the 1.1 s hole gives no step.
    expect(steps.filter((s) => s && s.seconds > 0.5)).toEqual([]);
    expect(headSpeed(steps)).toBeCloseTo(10, 9);
    expect(steps[times.findIndex((t) => t >= 3)]).toBeNull();
  });

  it('smooths the pose jitter away, as the expressions (σ 0.3 s)', () => {
    const rand = prng(11);
    const times = clock(10);
    const poses = times.map(() => pose(gaussian(rand), gaussian(rand), gaussian(rand)));
    const raw = headSpeed(headSteps(times, poses, 0)) as number;
    const smoothed = headSpeed(headSteps(times, poses)) as number;
    // 1° of noise per axis gives ~25°/s of apparent motion frame to frame.
    expect(raw).toBeGreaterThan(15);
    expect(smoothed).toBeLessThan(raw / 4);
    // A steady turn keeps its speed through the smoothing, away from the ends of the series.
    const turn = headSteps(
      times,
      times.map((t) => pose(0, 0, 15 * t)),
    );
    expect(headSpeed(turn.filter((_, i) => (times[i] as number) > 1 && (times[i] as number) < 9))).toBeCloseTo(15, 2);
  });
});

/** Eye closure per frame: open (0.05) except for the given closed stretches [from, to) at `level`. */
function eyes(times: number[], closed: [number, number, number?][]): number[] {
  return times.map((t) => {
    const c = closed.find(([a, b]) => t >= a - 1e-9 && t < b - 1e-9);
    return c ? (c[2] ?? 0.9) : 0.05;
  });
}

describe('fast head turns', () => {
  it('marks the frames where the head turned faster than the limit since the previous frame, on the raw poses', () => {
    const times = Array.from({ length: 12 }, (_, i) => i / 10);
    // Still, then 40° back to 0 in 0.4 s (100°/s, 10° a frame), then still with 1° of jitter (10°/s).
    const yaws = [40, 40, 40, 30, 20, 10, 0, 1, 0, 1, 0, 1];
    const poses = yaws.map((yaw) => ({ yaw, pitch: 0, roll: 0 }));
    expect(fastHeadTurns(times, poses)).toEqual(yaws.map((_, i) => i >= 3 && i <= 6));
    // A gap breaks the step: the turn across it is unknown.
    const gapped = fastHeadTurns([0, 0.1, 0.8], [poses[0], poses[1], { yaw: 0, pitch: 0, roll: 0 }] as HeadPose[]);
    expect(gapped).toEqual([false, false, false]);
    // Just under the limit is not fast.
    const slow = (FAST_HEAD_TURN_DEGREES_PER_SECOND - 1) / 10;
    expect(
      fastHeadTurns(
        [0, 0.1],
        [
          { yaw: 0, pitch: 0, roll: 0 },
          { yaw: slow, pitch: 0, roll: 0 },
        ],
      ),
    ).toEqual([false, false]);
  });
});

describe('blinks', () => {
  it('counts closures with hysteresis: blinks up to 0.5 s, longer ones are eyes closed', () => {
    const times = clock(10);
    const closure = eyes(times, [
      [1, 1.2], // blink, 2 frames
      [3, 3.1], // blink, 1 frame
      [4, 4.3, EYE_CLOSE_AT - 0.05], // under the closing threshold: nothing
      [5, 5.4], // blink, 0.4 s
      [7, 8.5], // eyes closed 1.5 s
    ]);
    const found = eyeClosures(times, closure);
    expect(found).toEqual<EyeClosure[]>([
      { start: 1, end: 1.2, blink: true },
      { start: 3, end: 3.1, blink: true },
      { start: 5, end: 5.4, blink: true },
      { start: 7, end: 8.5, blink: false },
    ]);
  });

  it('stays closed until the eye opens past the lower threshold', () => {
    const times = clock(2);
    // Closes at 0.5, flickers to 0.35 (not open yet), opens at 0.8 s.
    const closure = times.map((t) => (t < 0.5 ? 0 : t < 0.6 ? EYE_CLOSE_AT : t < 0.8 ? 0.35 : EYE_OPEN_AT));
    expect(eyeClosures(times, closure)).toEqual([{ start: 0.5, end: 0.8, blink: true }]);
  });

  it('drops a closure interrupted by a gap over 0.5 s, or whose start or end is not seen', () => {
    const times = clock(6);
    const closure: (number | null)[] = eyes(times, [
      [1, 2],
      [5.5, 6],
    ]);
    // No face from 1.2 to 1.9 s while the eyes are closed.
    times.forEach((t, i) => {
      if (t >= 1.2 && t < 1.9) closure[i] = null;
    });
    expect(eyeClosures(times, closure)).toEqual([]);
    // Closed from the first frame: when they closed is unknown.
    expect(eyeClosures([0, 0.1, 0.2, 0.3], [0.9, 0.9, 0.1, 0.1])).toEqual([]);
  });

  it('counts only a fast closing as a blink, not a reading that hovers near the threshold and tips over', () => {
    const times = clock(6, 20);
    // Open; from 1 s half closed (between the thresholds) for 1.5 s, tipping over once at 2.0 s; open again;
    // a blink at 4 s.
    const closure = times.map((t) => {
      if (t >= 1 && t < 2.5) return Math.abs(t - 2) < 1e-9 ? EYE_CLOSE_AT + 0.02 : (EYE_OPEN_AT + EYE_CLOSE_AT) / 2;
      if (t >= 4 && t < 4.1) return 0.4;
      return 0.02;
    });
    const found = eyeClosures(times, closure);
    expect(found.map((c) => [Math.round(c.start * 100) / 100, c.blink])).toEqual([
      [2, false],
      [4, true],
    ]);
  });

  it('gives blinks per minute over the observed time', () => {
    const times = clock(60);
    // 17 blinks of 0.2 s, one every 3.5 s.
    const closure = eyes(
      times,
      Array.from({ length: 17 }, (_, k) => [1 + 3.5 * k, 1.2 + 3.5 * k] as [number, number]),
    );
    const closures = eyeClosures(times, closure);
    expect(closures.filter((c) => c.blink)).toHaveLength(17);
    // 599 intervals of 0.1 s observed.
    expect(blinksPerMinute(times, closure, closures)).toBeCloseTo((17 * 60) / 59.9, 9);
    // Half the frames missing in one block: the rate is over the time seen.
    const seen = closure.map((c, i) => ((times[i] as number) >= 30 ? null : c));
    const blinksSeen = eyeClosures(times, seen);
    expect(blinksSeen).toHaveLength(9);
    expect(blinksPerMinute(times, seen, blinksSeen)).toBeCloseTo((9 * 60) / 29.9, 9);
    expect(blinksPerMinute(clock(5), eyes(clock(5), [[1, 1.2]]), [{ start: 1, end: 1.2, blink: true }])).toBeNull();
  });
});

describe('eye closure against the open eye around each moment', () => {
  it('reads a narrow and a wide eye alike, and a blink as its share of the open eye', () => {
    const times = clock(20, 30);
    for (const open of [0.22, 0.4]) {
      const ear = times.map((t) => (t >= 10 && t < 10.1 ? 0.55 * open : open));
      const closure = eyeClosureSeries(times, ear);
      expect(Math.max(...closure.map((c) => Math.abs(c ?? 0)).filter((_, i) => (times[i] as number) < 10))).toBe(0);
      expect(closure[300]).toBeCloseTo(0.45, 9);
    }
  });

  it('follows a slow change of the open eye (a head tilted down for a while), not a blink', () => {
    const times = clock(40, 30);
    // The open eye narrows from 0.35 to 0.26 over 20 s; a blink at 30 s.
    const open = (t: number) => 0.35 - 0.09 * Math.min(1, Math.max(0, (t - 10) / 20));
    const ear = times.map((t) => (t >= 30 && t < 30.1 ? 0.55 : 1) * open(t));
    const closure = eyeClosureSeries(times, ear);
    const still = closure.filter((_, i) => (times[i] as number) < 29.9 || (times[i] as number) > 30.2);
    expect(Math.max(...still.map((c) => c ?? 0))).toBeLessThan(0.05);
    expect(closure[900]).toBeGreaterThan(0.4);
    // Against the first seconds' eye, the narrowed one would read 0.26 closed: a closure of 10 s.
    expect(1 - open(35) / open(0)).toBeGreaterThan(EYE_CLOSE_AT);
    expect(eyeClosures(times, closure).filter((c) => c.blink)).toHaveLength(1);
  });

  it('gives no closure without a reading, or with under 10 readings within 5 s', () => {
    expect(eyeClosureSeries([0, 0.1, 0.2], [0.3, null, 0.3])).toEqual([null, null, null]);
    const times = clock(3, 10);
    const ear: (number | null)[] = times.map(() => 0.3);
    ear[5] = null;
    const closure = eyeClosureSeries(times, ear);
    expect(closure[5]).toBeNull();
    expect(closure[6]).toBe(0);
    expect(() => eyeClosureSeries([0], [])).toThrow(RangeError);
  });
});

describe('distraction and the per-second series', () => {
  it('flags a head turned past the limits and eyes closed over 1 s, not a blink', () => {
    const times = clock(6);
    const poses = times.map((t) => (t >= 1 && t < 2 ? pose(35) : t >= 2 && t < 2.5 ? pose(0, -28) : pose(10, 10)));
    const closure = eyes(times, [
      [3, 3.3],
      [4, 5.2],
    ]);
    const flags = distraction(times, poses, eyeClosures(times, closure));
    const at = (t: number) => flags[Math.round(t * 10)];
    expect(at(0.5)).toBeNull();
    expect(at(1.5)).toBe('head_turned');
    expect(at(2.2)).toBe('head_turned');
    expect(at(3.1)).toBeNull();
    expect(at(4)).toBe('eyes_closed');
    expect(at(5.1)).toBe('eyes_closed');
    expect(at(5.2)).toBeNull();
    expect(flags.filter((f) => f !== null)).toHaveLength(10 + 5 + 12);
  });

  it('gives head speed, blinks and the distraction flag per second', () => {
    const times = clock(5);
    const poses: (HeadPose | null)[] = times.map((t) => (t < 2 ? pose(0) : t < 3 ? pose(40) : pose(0, 0, 0)));
    // No face for 0.4 s in the last second.
    const closure: (number | null)[] = eyes(times, [
      [0.5, 0.7],
      [0.8, 0.9],
      [3.2, 3.4],
    ]);
    times.forEach((t, i) => {
      if (t >= 4.3 && t < 4.7) {
        poses[i] = null;
        closure[i] = null;
      }
    });
    const result = motionSeries({ times, poses, eyeClosure: closure });
    expect(result.seconds.map((s) => s.second)).toEqual([0, 1, 2, 3, 4]);
    expect(result.seconds.map((s) => s.frames)).toEqual([10, 10, 10, 10, 10]);
    expect(result.seconds.map((s) => s.blinks)).toEqual([2, 0, 0, 1, 0]);
    expect(result.seconds.map((s) => s.distracted)).toEqual([false, false, true, false, false]);
    expect(result.seconds[2]?.distractedShare).toBe(1);
    // The turn to 40° and back is smoothed over ±0.9 s: it moves the head in seconds 1 to 3, not 0.
    expect(result.seconds[0]?.headDegreesPerSecond).toBeCloseTo(0, 3);
    expect(result.seconds[1]?.headDegreesPerSecond).toBeGreaterThan(5);
    expect(result.seconds[4]?.headDegreesPerSecond).toBeCloseTo(0, 3);
    expect(result.blinksPerMinute).toBeNull();
    expect(result.steps).toHaveLength(50);
    expect(() => motionSeries({ times, poses, eyeClosure: [] })).toThrow(RangeError);
  });
});
