import { describe, expect, it } from 'vitest';
import { GAZE_FEATURE_NAMES, gazeFeatures } from '../gaze.ts';
import type { EyeFeatures, FrameData } from '../types.ts';
import { calibrationFrames, gazeTrackRows, LightGaze, samplesPerSecond } from './session-gaze.ts';

function frame(time: number, eyes: EyeFeatures | null): FrameData {
  return {
    index: 0,
    time,
    faceCount: 1,
    face: {
      box: { x: 0, y: 0, width: 100, height: 100 },
      score: 0.9,
      landmarks: [],
      pose: { yaw: 2, pitch: -3, roll: 1 },
      expressions: { neutral: 1, happy: 0, surprise: 0, sad: 0, angry: 0, disgust: 0, fear: 0 },
      eyes,
    },
    brightness: 0.5,
    flags: [],
  };
}

const looking = (h: number, v: number): EyeFeatures => ({ left: { x: 0.5 - h, y: v }, right: { x: 0.5 + h, y: v } });

describe('the light frames gaze readings', () => {
  it('keeps each reading eye features and pose on the session clock, none without eyes', () => {
    const light = new LightGaze(null);
    // The file's clock is not the session's: push gives the session time.
    light.push(frame(1.05, looking(0.1, 0.02)), 5050);
    light.push(frame(1.1, null), 5100);
    expect(light.length).toBe(2);
    const { times, features } = light.readings();
    expect(times).toEqual([5.05, 5.1]);
    expect(features[0]).toEqual(gazeFeatures(frame(0, looking(0.1, 0.02)).face as NonNullable<FrameData['face']>));
    expect(features[0]).toHaveLength(GAZE_FEATURE_NAMES.length);
    expect(features[1]).toBeNull();
    expect(light.calibrationFrames).toEqual([]);
  });

  it('keeps the calibration window light frames whole and merges them with the full ones in time order', () => {
    const light = new LightGaze({ start: 1000, end: 2000 });
    for (const ms of [950, 1050, 1150, 2000, 2050]) light.push(frame(ms / 1000 + 7, looking(0, 0)), ms);
    expect(light.calibrationFrames.map((f) => f.time)).toEqual([1.05, 1.15, 2]);
    const full = [frame(1.0, looking(0, 0)), frame(1.1, looking(0, 0)), frame(1.2, looking(0, 0))];
    expect(calibrationFrames(full, light).map((f) => f.time)).toEqual([1.0, 1.05, 1.1, 1.15, 1.2, 2]);
    // Without light frames (several faces), the full frames as they are.
    expect(calibrationFrames(full, null)).toBe(full);
  });
});

describe('the gaze track', () => {
  const placement = {
    item: (ms: number) => (ms < 2000 ? 0 : 1),
    contentPoint: (ms: number, p: { x: number; y: number }) => ({ item: ms < 2000 ? 0 : 1, x: p.x * 2, y: p.y * 2 }),
  };
  const at = (time: number, x: number | null) => ({
    time,
    point: x === null ? null : { x, y: 10 },
    onScreen: x !== null,
  });

  it('merges the full and the light frames in time order, placed on the content inside the research window only', () => {
    const rows = gazeTrackRows(
      [at(0.9, 1), at(1.2, 2), at(2.1, null)],
      [at(1.0, 3), at(1.1, 4), at(2.2, 5)],
      { start: 1000, end: 2200 },
      placement,
    );
    expect(rows.map((r) => r.time)).toEqual([0.9, 1.0, 1.1, 1.2, 2.1, 2.2]);
    // Before the window (calibration): gaze, no item; inside: the item and its coordinates; a frame without gaze keeps
    // its item but no point; the window's end is outside.
    expect(rows[0]).toEqual({ time: 0.9, gaze: { x: 1, y: 10 }, item: -1, content: null });
    expect(rows[1]).toEqual({ time: 1.0, gaze: { x: 3, y: 10 }, item: 0, content: { x: 6, y: 20 } });
    expect(rows[4]).toEqual({ time: 2.1, gaze: null, item: 1, content: null });
    expect(rows[5]).toMatchObject({ item: -1, content: null });
  });

  it('counts samples a second in a window, none for an empty or open one', () => {
    const rows = Array.from({ length: 90 }, (_, i) => ({ time: 10 + i / 30 }));
    expect(samplesPerSecond(rows, { start: 10_000, end: 13_000 })).toBe(30);
    expect(samplesPerSecond(rows, { start: 10_000, end: 11_000 })).toBe(30);
    expect(samplesPerSecond(rows, { start: 10_000, end: 10_000 })).toBeNull();
    expect(samplesPerSecond(rows, { start: 10_000, end: Number.POSITIVE_INFINITY })).toBeNull();
  });
});
