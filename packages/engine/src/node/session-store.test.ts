import { beforeAll, describe, expect, it } from 'vitest';
import { calibratedPicturesTask, PHOTOS, photoSequenceVideo, requirePhotos } from '../../test/fixtures.ts';
import { FrameStore } from '../frame-store.ts';
import { ACTION_UNITS, type FaceData, type FrameActionUnits, type FrameData } from '../types.ts';
import { analyzeFrames } from './analyze.ts';
import { createHuman } from './human.ts';
import { analyzeSession } from './session.ts';

beforeAll(() => requirePhotos());

/**
 * Score, brightness and action units (with the eye aspect ratio and the mouth's width) come back at Float32 (only the
 * Float32 frame table reads the score, nothing the brightness; action units are read to 1e-4 at best); with `box32` (a
 * single-face store) the main face's box too; the iris diameter not at all.
 */
function asStored(frame: FrameData, box32 = false): FrameData {
  const units = (u: FrameActionUnits): FrameActionUnits => ({
    units: Object.fromEntries(ACTION_UNITS.map((k) => [k, Math.fround(u.units[k])])) as FrameActionUnits['units'],
    eyeAspectRatio: Math.fround(u.eyeAspectRatio),
    ...(u.mouthWidth === undefined ? {} : { mouthWidth: Math.fround(u.mouthWidth) }),
  });
  // The iris diameter is not kept: the distance reads it as frames are decoded (decision 043).
  const face = ({ irisPx: _, ...f }: FaceData): FaceData => ({
    ...f,
    score: Math.fround(f.score),
    actionUnits: f.actionUnits ? units(f.actionUnits) : null,
  });
  const box = (b: FaceData['box']): FaceData['box'] => ({
    x: Math.fround(b.x),
    y: Math.fround(b.y),
    width: Math.fround(b.width),
    height: Math.fround(b.height),
  });
  const main = frame.face ? { ...face(frame.face), ...(box32 ? { box: box(frame.face.box) } : {}) } : null;
  return {
    ...frame,
    face: main,
    brightness: Math.fround(frame.brightness),
    ...(frame.faces ? { faces: frame.faces.map((f) => (f === frame.face && main ? main : face(f))) } : {}),
  };
}

describe('a session keeps its frames in a frame store', () => {
  it('gives back real multi-face frames (a cut between two group photos) as the analysis made them', async () => {
    const file = photoSequenceVideo([PHOTOS.fourPeople, PHOTOS.fivePeople], 'four-then-five.webm', { secondsEach: 2 });
    const human = await createHuman();
    const single = new FrameStore();
    const multi = new FrameStore({ multiFace: true });
    const frames: FrameData[] = [];
    for await (const frame of analyzeFrames(file, { human, multiFace: true, keepLandmarks: false })) {
      frames.push(frame);
      multi.push(frame, frame.time * 1000);
      const { faces: _, ...mainOnly } = frame;
      single.push(mainOnly, frame.time * 1000);
    }
    expect(frames.length).toBeGreaterThan(30);
    expect(multi.faceRows).toBeGreaterThan(4 * frames.length);
    for (const [i, frame] of frames.entries()) {
      expect(multi.frame(i)).toEqual(asStored(frame));
      // Single-face boxes are Float32 (the frame table's precision); the mesh's fraction of a pixel is kept in them
      // to that (decision 046).
      const { faces: _, ...mainOnly } = frame;
      expect(single.frame(i)).toEqual(asStored(mainOnly, true));
    }
  }, 120_000);

  it('gives the same result however many frames are materialised at a time', async () => {
    // A calibrated pictures session (gaze, content coordinates, letterboxing, smoothing across block edges).
    const task = calibratedPicturesTask();
    // A fresh Human each time: Human reuses the previous frame's detection, so each run starts alike.
    const whole = await analyzeSession(task, { human: await createHuman() });
    const blocks = await analyzeSession(task, { human: await createHuman(), blockFrames: 5 });
    expect(whole.summary.calibration.status).toBe('calibrated');
    expect(whole.series.second.length).toBeGreaterThan(3);
    expect(blocks).toEqual(whole);
  }, 240_000);
});
