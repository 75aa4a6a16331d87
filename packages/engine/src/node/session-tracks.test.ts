import { describe, expect, it } from 'vitest';
import type { FaceData, FrameData } from '../types.ts';
import { assignTracks, type SessionFrame } from './session.ts';

const face = (x: number, y: number): FaceData => ({
  box: { x, y, width: 100, height: 100 },
  score: 0.9,
  landmarks: [],
  pose: { yaw: 0, pitch: 0, roll: 0 },
  expressions: { neutral: 1, happy: 0, surprise: 0, sad: 0, angry: 0, disgust: 0, fear: 0 },
  eyes: null,
});
const frame = (index: number, seconds: number, faces: FaceData[]): SessionFrame => ({
  frame: {
    index,
    time: seconds,
    faceCount: faces.length,
    face: faces[0] ?? null,
    faces,
    brightness: 0.5,
    flags: [],
  } satisfies FrameData,
  ms: seconds * 1000,
  source: { file: 'a.webm', offsetMs: 0 } as SessionFrame['source'],
});
const ids = (frames: SessionFrame[]) => frames.map((f) => (f.frame.faces ?? []).map((x) => x.track));

describe('multi-face tracks of a session', () => {
  it('keeps each person on one id while they move, across a skipped stretch, and gives a newcomer a new one', () => {
    const frames = [
      frame(0, 0, [face(0, 0), face(300, 0)]),
      frame(1, 0.1, [face(305, 2), face(4, 1)]),
      // The decoder skipped 20 s (calibration → research): the same two people, barely moved.
      frame(2, 20, [face(8, 0), face(310, 0)]),
      frame(3, 20.1, [face(10, 0), face(310, 4), face(600, 0)]),
    ];
    assignTracks(frames, 10);
    expect(ids(frames)).toEqual([
      [1, 2],
      [2, 1],
      [1, 2],
      [1, 2, 3],
    ]);
    // The main face carries its id too.
    expect(frames[1]?.frame.face?.track).toBe(2);
  });

  it('closes a track when the person is missing from a second of decoded frames', () => {
    const frames = [frame(0, 0, [face(0, 0)])];
    for (let i = 1; i <= 11; i++) frames.push(frame(i, i / 10, []));
    frames.push(frame(12, 1.2, [face(0, 0)]));
    assignTracks(frames, 10);
    expect(ids(frames)[0]).toEqual([1]);
    expect(ids(frames)[12]).toEqual([2]);
  });
});
