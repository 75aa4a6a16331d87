import { describe, expect, it } from 'vitest';
import type { FaceData, FrameData } from '../types.ts';
import { trackFaces } from './session.ts';

const face = (x: number, y: number): FaceData => ({
  box: { x, y, width: 100, height: 100 },
  score: 0.9,
  landmarks: [],
  pose: { yaw: 0, pitch: 0, roll: 0 },
  expressions: { neutral: 1, happy: 0, surprise: 0, sad: 0, angry: 0, disgust: 0, fear: 0 },
  eyes: null,
});
const frame = (index: number, time: number, faces: FaceData[]): FrameData => ({
  index,
  time,
  faceCount: faces.length,
  face: faces[0] ?? null,
  faces,
  brightness: 0.5,
  flags: [],
});

describe('multi-face tracks', () => {
  it('keeps each person on one id while they move, across a skipped stretch, and gives a newcomer a new one', () => {
    const frames = [
      frame(0, 0, [face(0, 0), face(300, 0)]),
      frame(1, 0.1, [face(305, 2), face(4, 1)]),
      // The decoder skipped 20 s (calibration → research): the same two people, barely moved.
      frame(2, 20, [face(8, 0), face(310, 0)]),
      frame(3, 20.1, [face(10, 0), face(310, 4), face(600, 0)]),
    ];
    expect(trackFaces(frames, 10)).toEqual([
      [0, 1],
      [1, 0],
      [0, 1],
      [0, 1, 2],
    ]);
  });

  it('closes a track after a second of frames without it', () => {
    const frames = [frame(0, 0, [face(0, 0)])];
    for (let i = 1; i <= 11; i++) frames.push(frame(i, i / 10, []));
    frames.push(frame(12, 1.2, [face(0, 0)]));
    const ids = trackFaces(frames, 10);
    expect(ids[0]).toEqual([0]);
    expect(ids[12]).toEqual([1]);
    expect(trackFaces(frames.slice(0, 10).concat([frame(10, 1, [face(0, 0)])]), 10).at(-1)).toEqual([0]);
  });
});
