import { beforeAll, describe, expect, it } from 'vitest';
import { PHOTOS, photoSequenceVideo, requirePhotos, rollingHeadVideo } from '../../test/fixtures.ts';
import { FrameStore } from '../frame-store.ts';
import type { SessionEvent, SessionTask } from '../session-types.ts';
import type { FaceData, FrameData } from '../types.ts';
import { analyzeFrames } from './analyze.ts';
import { createHuman } from './human.ts';
import { analyzeSession } from './session.ts';

beforeAll(() => requirePhotos());

/** Score and brightness come back at Float32 (only the Float32 frame table reads the one, nothing the other). */
function asStored(frame: FrameData): FrameData {
  const face = (f: FaceData): FaceData => ({ ...f, score: Math.fround(f.score) });
  const main = frame.face ? face(frame.face) : null;
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
      // Single-face boxes are Float32; Human's are whole pixels, so they come back exact too.
      const { faces: _, ...mainOnly } = frame;
      expect(single.frame(i)).toEqual(asStored(mainOnly));
    }
  }, 120_000);

  it('gives the same result however many frames are materialised at a time', async () => {
    // A calibrated pictures session (gaze, content coordinates, letterboxing, smoothing across block edges).
    const video = rollingHeadVideo();
    const ms = (segment: number) => segment * video.segmentSeconds * 1000;
    const events: SessionEvent[] = [
      { type: 'screen', t: 0, width: 1920, height: 1080, device_pixel_ratio: 1 },
      { type: 'calibration_start', t: 0 },
      ...video.calibrationX.slice(0, 7).map((x, i) => ({ type: 'calibration_dot', t: ms(i), x, y: 540 })),
      { type: 'calibration_end', t: ms(7) },
      ...video.calibrationX.slice(7).map((x, i) => ({ type: 'validation_dot', t: ms(7 + i), x, y: 540 })),
      { type: 'validation_end', t: ms(9) },
      { type: 'research_start', t: ms(9), campaign_id: 'p1', index: 0 },
      { type: 'picture_shown', t: ms(9), index: 0, image: 'i0' },
      { type: 'content_rect', t: ms(9) + 20, x: 920, y: 40, width: 1000, height: 1000 },
      { type: 'picture_shown', t: ms(10.5), index: 1, image: 'i1' },
      { type: 'research_end', t: ms(12), campaign_id: 'p1' },
    ];
    const task: SessionTask = {
      sources: [{ file: video.file, offsetMs: 0 }],
      events,
      research: {
        campaignId: 'p1',
        kind: 'pictures',
        items: [
          { width: 2000, height: 2000 },
          { width: 1920, height: 1080 },
        ],
        durationSeconds: null,
      },
    };
    // A fresh Human each time: Human reuses the previous frame's detection, so each run starts alike.
    const whole = await analyzeSession(task, { human: await createHuman() });
    const blocks = await analyzeSession(task, { human: await createHuman(), blockFrames: 5 });
    expect(whole.summary.calibration.status).toBe('calibrated');
    expect(whole.series.second.length).toBeGreaterThan(3);
    expect(blocks).toEqual(whole);
  }, 240_000);
});
