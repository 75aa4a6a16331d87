import { describe, expect, it } from 'vitest';
import { face, frame, grid, SCREEN } from '../test/gaze-respondents.ts';
import {
  type CalibrationDot,
  type CalibrationSample,
  calibrationDots,
  calibrationSamples,
  dotPosition,
  positionKey,
  splitCalibration,
} from './gaze.ts';
import type { EventLog, ScreenPoint } from './types.ts';

/**
 * The calibration's parts before a model is fitted (gaze-calibration.ts): the dots read from the event log, the
 * frames kept as samples of each dot, and the split of those samples into training and validation positions.
 */

describe('calibrationDots', () => {
  it('sorts events, ends each dot at the next dot or calibration_end, and reads validation marks', () => {
    const dots = calibrationDots({
      screen: SCREEN,
      events: [
        { type: 'calibration_end', t: 4000 },
        { type: 'calibration_dot', t: 2000, x: 10, y: 20, validation: true },
        { type: 'calibration_dot', t: 1000, x: 1, y: 2 },
        { type: 'click', t: 1500, x: 5, y: 5 },
      ],
    });
    expect(dots).toEqual([
      {
        index: 0,
        x: 1,
        y: 2,
        validation: false,
        startMs: 1000,
        endMs: 2000,
        settleFromMs: 1000,
        group: '1,2',
        toward: null,
      },
      {
        index: 1,
        x: 10,
        y: 20,
        validation: true,
        startMs: 2000,
        endMs: 4000,
        settleFromMs: 2000,
        group: '10,20',
        toward: null,
      },
    ]);
  });

  it('gives an unterminated last dot the median duration of the others, not the rest of the recording', () => {
    const dots = calibrationDots({
      screen: SCREEN,
      events: [
        { type: 'calibration_dot', t: 0, x: 1, y: 1 },
        { type: 'calibration_dot', t: 1000, x: 2, y: 2 },
        { type: 'calibration_dot', t: 3000, x: 3, y: 3 },
        { type: 'calibration_dot', t: 4500, x: 4, y: 4 },
      ],
    });
    expect(dots.at(-1)).toMatchObject({ startMs: 4500, endMs: 6000 });
  });

  it('drops a dot without coordinates, which still ends the dot before it', () => {
    const dots = calibrationDots({
      screen: SCREEN,
      events: [
        { type: 'calibration_dot', t: 0, x: 1, y: 1 },
        { type: 'calibration_dot', t: 800 },
        { type: 'calibration_end', t: 2000 },
      ],
    });
    expect(dots).toEqual([
      { index: 0, x: 1, y: 1, validation: false, startMs: 0, endMs: 800, settleFromMs: 0, group: '1,1', toward: null },
    ]);
  });
});

describe('a moving dot', () => {
  // The respondent page moves the dot every animation frame and logs where it is every ~100 ms.
  const log: EventLog = {
    screen: SCREEN,
    events: [
      { type: 'calibration_dot', t: 1000, x: 100, y: 100 },
      { type: 'calibration_dot', t: 1100, x: 140, y: 130 },
      { type: 'calibration_dot', t: 1200, x: 180, y: 160 },
      { type: 'calibration_dot', t: 1300, x: 1500, y: 800, validation: true },
      { type: 'calibration_end', t: 2800 },
    ],
  };

  it("goes toward the next logged position of its run; the run's last dot and a still dot go nowhere", () => {
    expect(calibrationDots(log).map((d) => d.toward)).toEqual([{ x: 140, y: 130 }, { x: 180, y: 160 }, null, null]);
  });

  it('is between its logged positions between the logs, and a still dot where it was logged', () => {
    const [first, , last, still] = calibrationDots(log);
    expect(dotPosition(first as CalibrationDot, 1000)).toEqual({ x: 100, y: 100 });
    expect(dotPosition(first as CalibrationDot, 1025)).toEqual({ x: 110, y: 107.5 });
    expect(dotPosition(first as CalibrationDot, 1099)).toEqual({ x: 139.6, y: 129.7 });
    expect(dotPosition(last as CalibrationDot, 1250)).toEqual({ x: 180, y: 160 });
    expect(dotPosition(still as CalibrationDot, 2000)).toEqual({ x: 1500, y: 800 });
  });

  it('gives each frame the position the dot had at the frame, not the one last logged', () => {
    const eyes = { left: { x: 0.5, y: 0 }, right: { x: 0.5, y: 0 } };
    const frames = [1.05, 1.15, 1.25, 1.9].map((t, i) => frame(i, t, face(eyes)));
    const targets = calibrationSamples(frames, log, { settleMs: 0 }).map((s) => s.target);
    expect(targets).toEqual([
      { x: 120, y: 115 },
      { x: 160, y: 145 },
      { x: 180, y: 160 },
      { x: 1500, y: 800 },
    ]);
  });
});

describe('calibrationSamples', () => {
  const log: EventLog = {
    screen: SCREEN,
    events: [
      { type: 'calibration_start', t: 2000 },
      { type: 'calibration_dot', t: 2500, x: 100, y: 100 },
      { type: 'calibration_dot', t: 4000, x: 1800, y: 900 },
      { type: 'calibration_end', t: 5000 },
    ],
  };
  const eyes = { left: { x: 0.5, y: 0 }, right: { x: 0.5, y: 0 } };

  it('compares frame seconds with event milliseconds and skips the settle time after each jump', () => {
    const times = [2.49, 2.51, 2.89, 2.91, 3.99, 4.01, 4.39, 4.41, 4.99, 5.01];
    const frames = times.map((t, i) => frame(i, t, face(eyes)));
    const samples = calibrationSamples(frames, log);
    expect(samples.map((s) => [s.time, s.target.x])).toEqual([
      [2.91, 100],
      [3.99, 100],
      [4.41, 1800],
      [4.99, 1800],
    ]);
    expect(calibrationSamples(frames, log, { settleMs: 0 }).map((s) => s.time)).toEqual([
      2.51, 2.89, 2.91, 3.99, 4.01, 4.39, 4.41, 4.99,
    ]);
  });

  it('skips frames without a face or eyes, with several faces or with the head turned', () => {
    const frames = [
      frame(0, 3.0, face(eyes)),
      frame(1, 3.1, null, ['no_face']),
      frame(2, 3.2, face(null)),
      frame(3, 3.3, face(eyes), ['several_faces']),
      frame(4, 3.4, face(eyes), ['head_turned']),
      frame(5, 3.5, face(eyes), ['too_dark']),
    ];
    expect(calibrationSamples(frames, log).map((s) => s.frameIndex)).toEqual([0, 5]);
  });
});

describe('splitCalibration', () => {
  function samplesFor(dots: ScreenPoint[], perDot = 3, validation: number[] = []): CalibrationSample[] {
    return dots.flatMap((target, dotIndex) =>
      Array.from({ length: perDot }, (_, i) => ({
        frameIndex: dotIndex * perDot + i,
        time: dotIndex + i / 10,
        dotIndex,
        target,
        validation: validation.includes(dotIndex),
        group: positionKey(target),
        features: [dotIndex, i],
      })),
    );
  }

  it('holds out whole positions, the most central first, about 25% of them', () => {
    const split = splitCalibration(samplesFor(grid(3, 3)));
    if (!split.ok) throw new Error(split.reason);
    expect(split.source).toBe('held_out');
    // Centre first, then the first-shown edge midpoint (top middle); corners are never held out of a 3×3 grid.
    expect(split.validationPositions).toEqual(['960,540', '960,108']);
    expect(split.validation).toHaveLength(6);
    expect(split.training).toHaveLength(21);
  });

  it('holds out the inner four of a 4×4 grid and only the centre of five dots', () => {
    const sixteen = splitCalibration(samplesFor(grid(4, 4)));
    if (!sixteen.ok) throw new Error(sixteen.reason);
    expect(new Set(sixteen.validationPositions)).toEqual(new Set(['704,396', '1216,396', '704,684', '1216,684']));
    const fivePoints = [
      { x: 100, y: 100 },
      { x: 1800, y: 100 },
      { x: 960, y: 540 },
      { x: 100, y: 980 },
      { x: 1800, y: 980 },
    ];
    const five = splitCalibration(samplesFor(fivePoints));
    if (!five.ok) throw new Error(five.reason);
    expect(five.validationPositions).toEqual(['960,540']);
    expect(new Set(five.training.map((s) => positionKey(s.target))).size).toBe(4);
  });

  it("never splits a dot's frames, nor a position shown twice, across training and validation", () => {
    const dots = [...grid(3, 3), { x: 960, y: 540 }, { x: 192, y: 108 }];
    const split = splitCalibration(samplesFor(dots, 4));
    if (!split.ok) throw new Error(split.reason);
    const side = new Map<number, Set<string>>();
    const positions = new Map<string, Set<string>>();
    for (const [name, set] of [
      ['training', split.training],
      ['validation', split.validation],
    ] as const) {
      for (const s of set) {
        side.set(s.dotIndex, (side.get(s.dotIndex) ?? new Set()).add(name));
        positions.set(positionKey(s.target), (positions.get(positionKey(s.target)) ?? new Set()).add(name));
      }
    }
    for (const sides of side.values()) expect(sides.size).toBe(1);
    for (const sides of positions.values()) expect(sides.size).toBe(1);
    // The centre was shown twice (dots 4 and 9): both of its dots are validation.
    expect(split.validation.filter((s) => positionKey(s.target) === '960,540').map((s) => s.dotIndex)).toEqual([
      4, 4, 4, 4, 9, 9, 9, 9,
    ]);
    expect(split.training.length + split.validation.length).toBe(dots.length * 4);
  });

  it('uses exactly the validation dots the log marks', () => {
    const split = splitCalibration(samplesFor(grid(3, 3), 3, [0, 8]));
    if (!split.ok) throw new Error(split.reason);
    expect(split.source).toBe('log');
    expect([...new Set(split.validation.map((s) => s.dotIndex))]).toEqual([0, 8]);
    expect(split.training.every((s) => s.dotIndex !== 0 && s.dotIndex !== 8)).toBe(true);
  });
});
