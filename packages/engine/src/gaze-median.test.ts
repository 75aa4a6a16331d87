import { describe, expect, it } from 'vitest';
import { applyGaze, DEFAULT_GAZE_WINDOW_MS, gazeFeatures, gazeTrack, gazeTracks, medianGaze } from './gaze.ts';
import type { EyeFeatures, FaceData, FrameData, GazeModel, ScreenPoint } from './types.ts';

const SCREEN = { width: 1920, height: 1080 };

// x = 960 + 7680·h, y = 540 + 8640·v (identity standardisation), as in gaze.test.ts's applyGaze model.
const MODEL: GazeModel = {
  kind: 'ridge',
  lambda: 0.001,
  mean: new Array(12).fill(0),
  scale: new Array(12).fill(1),
  weightsX: [960, 7680, ...new Array(11).fill(0)],
  weightsY: [540, 0, 8640, ...new Array(10).fill(0)],
  screen: SCREEN,
};

const eyes = (h: number, v: number): EyeFeatures => ({ left: { x: 0.5 - h, y: v }, right: { x: 0.5 + h, y: v } });

function face(e: EyeFeatures | null): FaceData {
  return {
    box: { x: 0, y: 0, width: 100, height: 100 },
    score: 0.9,
    landmarks: [],
    pose: { yaw: 0, pitch: 0, roll: 0 },
    expressions: { neutral: 1, happy: 0, surprise: 0, sad: 0, angry: 0, disgust: 0, fear: 0 },
    eyes: e,
  };
}

function frame(index: number, time: number, e: EyeFeatures | null): FrameData {
  return { index, time, faceCount: 1, face: face(e), brightness: 0.5, flags: [] };
}

describe('medianGaze', () => {
  it('takes the per-axis median within the window, leaves nulls out and keeps a jump where it is', () => {
    // 10 fps: five frames on (100, 100) with one wild frame, then five on (900, 500).
    const times = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
    const points: (ScreenPoint | null)[] = [
      { x: 100, y: 100 },
      { x: 110, y: 90 },
      { x: 700, y: 600 },
      null,
      { x: 90, y: 110 },
      { x: 900, y: 500 },
      { x: 905, y: 495 },
      { x: 895, y: 505 },
      { x: 900, y: 500 },
      { x: 900, y: 500 },
    ];
    const out = medianGaze(times, points, 200);
    // Frame 2's window (frames 0-4 less the null): x 90, 100, 110, 700 -> 105; the wild frame is gone.
    expect(out[2]).toEqual({ x: 105, y: 105 });
    expect(out[3]).toBeNull();
    // After the jump: four of the five points are on the second target, so the median is too.
    expect(out[6]).toEqual({ x: 900, y: 500 });
    expect(out[7]).toEqual({ x: 900, y: 500 });
    // At the start the window is one-sided: frames 0-2.
    expect(out[0]).toEqual({ x: 110, y: 100 });
    // Window 0: the points themselves.
    expect(medianGaze(times, points, 0)).toEqual(points);
  });

  it('reads frames in any order and on the time they carry', () => {
    const times = [0.2, 0, 0.1];
    const points = [
      { x: 30, y: 3 },
      { x: 10, y: 1 },
      { x: 20, y: 2 },
    ];
    expect(medianGaze(times, points, 100)).toEqual([
      { x: 25, y: 2.5 },
      { x: 15, y: 1.5 },
      { x: 20, y: 2 },
    ]);
  });
});

describe('gazeTrack', () => {
  it('maps each frame with the model, then takes the median over ±200 ms by default', () => {
    const frames = [0.0, 0.0, 0.25, 0.0, 0.0].map((h, i) => frame(i, i / 10, eyes(h, 0)));
    frames.push(frame(5, 0.5, null));
    const track = gazeTrack(MODEL, frames.length, (i) => frames[i] as FrameData);
    expect(DEFAULT_GAZE_WINDOW_MS).toBe(200);
    // The frame at h = 0.25 alone would be at x = 2880, off the screen; its neighbours put it back at 960.
    expect(track[2]?.point).toEqual({ x: 960, y: 540 });
    expect(track[2]?.onScreen).toBe(true);
    expect(track[5]).toEqual({ time: 0.5, point: null, onScreen: false });
    // applyGaze without a window: each frame's own point.
    expect(applyGaze(MODEL, frames)[2]?.point).toEqual({ x: 2880, y: 540 });
    expect(applyGaze(MODEL, frames, { windowMs: 200 })[2]?.point).toEqual({ x: 960, y: 540 });
  });

  it('takes readings between the frames into each frame median, without giving them a point of their own', () => {
    // Two frames 100 ms apart: the first reads h = 0.05 (x = 1344), the second is on the centre.
    const frames = [frame(0, 0, eyes(0.05, 0)), frame(1, 0.1, eyes(0, 0)), frame(2, 0.2, null)];
    // Light readings at 30 fps between them, all on the centre but one without eyes.
    const between = {
      times: [0.033, 0.067, 0.133, 0.167],
      features: [gazeFeatures(face(eyes(0, 0))), gazeFeatures(face(eyes(0, 0))), null, gazeFeatures(face(eyes(0, 0)))],
    };
    const alone = gazeTrack(MODEL, 3, (i) => frames[i] as FrameData, 100);
    // Frame 0 and frame 1 only: the median of 1344 and 960.
    expect(alone[0]?.point?.x).toBeCloseTo(1152, 6);
    const track = gazeTrack(MODEL, 3, (i) => frames[i] as FrameData, 100, between);
    expect(track).toHaveLength(3);
    // Frame 0 with the readings at 33 and 67 ms and frame 1: three of four on the centre.
    expect(track[0]?.point).toEqual({ x: 960, y: 540 });
    expect(track[0]?.time).toBe(0);
    // A frame without eyes stays without a point, whatever its neighbours read.
    expect(track[2]).toEqual({ time: 0.2, point: null, onScreen: false });
    // No readings (null) is the frames alone.
    expect(gazeTrack(MODEL, 3, (i) => frames[i] as FrameData, 100, null)).toEqual(alone);
    // The readings' own points (the gaze track, decision 049), each the median of its window too: the one at 33 ms
    // sees frame 0 (1344), the readings at 67 and 133 ms (960; 133 has no eyes) and frame 1 (960).
    const both = gazeTracks(MODEL, 3, (i) => frames[i] as FrameData, 100, between);
    expect(both.frames).toEqual(track);
    expect(both.between.map((g) => g.time)).toEqual(between.times);
    expect(both.between[0]?.point).toEqual({ x: 960, y: 540 });
    expect(both.between[2]).toEqual({ time: 0.133, point: null, onScreen: false });
  });
});
