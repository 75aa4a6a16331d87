import { describe, expect, it } from 'vitest';
import { GAZE_FEATURE_NAMES, gazeFeatures } from '../gaze.ts';
import type { EyeFeatures, FrameData } from '../types.ts';
import { calibrationFrames, LightGaze } from './session-gaze.ts';

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
