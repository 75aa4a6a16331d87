import { beforeAll, describe, expect, it } from 'vitest';
import { PHOTOS, photoSequenceVideo, requirePhotos, stillVideo } from '../test/fixtures.ts';
import { analyzeFrames } from './node/analyze.ts';
import { createHuman, type HumanLike } from './node/human.ts';
import { FaceTracker, personTracks } from './tracks.ts';
import { EXPRESSIONS, type Expression, type FaceData, type FrameData } from './types.ts';

function face(x: number, y: number, size = 100, expressions: Partial<Record<Expression, number>> = {}): FaceData {
  const scores = Object.fromEntries(EXPRESSIONS.map((e) => [e, expressions[e] ?? 0])) as FaceData['expressions'];
  if (expressions.neutral === undefined) scores.neutral = 1 - EXPRESSIONS.reduce((s, e) => s + scores[e], 0);
  return {
    box: { x, y, width: size, height: size },
    score: 0.9,
    landmarks: [],
    pose: { yaw: 0, pitch: 0, roll: 0 },
    expressions: scores,
    eyes: null,
  };
}

function frame(index: number, time: number, faces: FaceData[]): FrameData {
  return {
    index,
    time,
    faceCount: faces.length,
    face: faces[0] ?? null,
    faces,
    brightness: 0.5,
    flags: faces.length ? [] : ['no_face'],
  };
}

describe('FaceTracker', () => {
  it('follows two people who move, whatever order the detector lists them in', () => {
    const tracker = new FaceTracker();
    const ids: number[][] = [];
    for (let i = 0; i < 30; i++) {
      const a = face(100 + i * 3, 100);
      const b = face(500 - i * 2, 120);
      ids.push(tracker.assign(i / 10, i % 2 ? [b, a] : [a, b]));
    }
    expect(ids.map((p, i) => (i % 2 ? [p[1], p[0]] : p))).toEqual(Array(30).fill([1, 2]));
  });

  it('keeps an id through a gap up to a second, a new one after a longer gap', () => {
    const tracker = new FaceTracker();
    expect(tracker.assign(0, [face(100, 100)])).toEqual([1]);
    expect(tracker.assign(0.1, [])).toEqual([]);
    expect(tracker.assign(0.9, [face(120, 100)])).toEqual([1]);
    expect(tracker.assign(2.5, [face(120, 100)])).toEqual([2]);
  });

  it('gives a new person a new id, and does not jump to someone far away', () => {
    const tracker = new FaceTracker();
    tracker.assign(0, [face(100, 100)]);
    expect(tracker.assign(0.1, [face(102, 100), face(600, 100)])).toEqual([1, 2]);
    // Person 1 left; a face appears where nobody was.
    expect(tracker.assign(0.2, [face(350, 300), face(600, 100)])).toEqual([3, 2]);
    // A face of a very different size at the same spot is someone else (nearer the camera).
    expect(tracker.assign(0.3, [face(600, 100, 260)])).toEqual([4]);
  });
});

describe('personTracks', () => {
  it('builds per-second curves and the strongest moments, at least 5 s apart, per person', () => {
    const frames: FrameData[] = [];
    const tracker = new FaceTracker();
    for (let i = 0; i < 200; i++) {
      const t = i / 10;
      const s = Math.floor(t);
      // Person A smiles broadly at second 3 and 4 (4 strongest) and again at 12; surprised at 17.
      const happy = s === 4 ? 0.9 : s === 3 ? 0.8 : s === 12 ? 0.7 : 0;
      const surprise = s === 17 ? 0.6 : 0;
      const faces = [face(100, 100, 100, { happy, surprise })];
      // Person B is there from second 5 to 9 only.
      if (s >= 5 && s < 10) faces.push(face(400, 100, 100, { sad: 0.3 }));
      tracker.assign(t, faces);
      frames.push(frame(i, t, faces));
    }
    const people = personTracks(frames, { smoothingSigmaSeconds: 0 });
    expect(people.map((p) => p.track)).toEqual([1, 2]);
    const [a, b] = people;
    expect(a?.frames).toBe(200);
    expect(a?.series.second).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(a?.series.engagement[4]).toBeCloseTo(0.9, 6);
    expect(a?.series.attention.every((v) => v === 1)).toBe(true);
    expect(a?.moments).toEqual([
      { second: 4, engagement: expect.closeTo(0.9, 6), expression: 'happy' },
      { second: 12, engagement: expect.closeTo(0.7, 6), expression: 'happy' },
      { second: 17, engagement: expect.closeTo(0.6, 6), expression: 'surprise' },
    ]);
    expect(b?.firstSeconds).toBeCloseTo(5, 6);
    expect(b?.lastSeconds).toBeCloseTo(9.9, 6);
    expect(b?.series.second).toEqual([5, 6, 7, 8, 9]);
    expect(b?.series.valence.every((v) => v !== null && Math.abs(v + 0.3) < 1e-6)).toBe(true);
    expect(b?.moments).toEqual([{ second: 5, engagement: expect.closeTo(0.3, 6), expression: 'sad' }]);
  });

  it('leaves out stray detections and counts a turned head as not attending', () => {
    const frames: FrameData[] = [];
    const tracker = new FaceTracker();
    for (let i = 0; i < 20; i++) {
      const main = face(100, 100);
      if (i >= 10) main.pose.yaw = 60;
      const faces = i === 3 ? [main, face(700, 400)] : [main];
      tracker.assign(i / 10, faces);
      frames.push(frame(i, i / 10, faces));
    }
    const people = personTracks(frames);
    expect(people).toHaveLength(1);
    expect(people[0]?.series.attention).toEqual([1, 0]);
    expect(people[0]?.series.goodFrames).toEqual([10, 0]);
    expect(people[0]?.series.engagement[1]).toBeNull();
  });
});

describe('tracking real faces (face-api demo photos)', () => {
  let human: HumanLike;
  beforeAll(async () => {
    requirePhotos();
    human = await createHuman();
  }, 120_000);

  async function tracked(file: string): Promise<FrameData[]> {
    const frames: FrameData[] = [];
    for await (const f of analyzeFrames(file, { human, maxWidth: 1280, multiFace: true, fps: 5 })) frames.push(f);
    return frames;
  }

  it('keeps the same four ids for three seconds of the same photo', async () => {
    const frames = await tracked(stillVideo(PHOTOS.fourPeople, 'four-people-3s.webm', { seconds: 3, width: 1280 }));
    expect(frames).toHaveLength(15);
    for (const f of frames) {
      expect((f.faces ?? []).map((x) => x.track).sort()).toEqual([1, 2, 3, 4]);
      expect(f.face?.track).toBeDefined();
    }
    const people = personTracks(frames);
    expect(people.map((p) => [p.track, p.frames])).toEqual([
      [1, 15],
      [2, 15],
      [3, 15],
      [4, 15],
    ]);
  }, 120_000);

  it('gives new ids to the people of the next photo after a cut', async () => {
    const file = photoSequenceVideo([PHOTOS.fourPeople, PHOTOS.fivePeople], 'four-then-five.webm', { secondsEach: 2 });
    const frames = await tracked(file);
    const before = new Set(frames.filter((f) => f.time < 1.95).flatMap((f) => (f.faces ?? []).map((x) => x.track)));
    const after = new Set(frames.filter((f) => f.time > 2.05).flatMap((f) => (f.faces ?? []).map((x) => x.track)));
    expect([...before].sort()).toEqual([1, 2, 3, 4]);
    expect([...after].sort()).toEqual([5, 6, 7, 8, 9]);
    expect(personTracks(frames)).toHaveLength(9);
  }, 120_000);
});
