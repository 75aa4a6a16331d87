import { describe, expect, it } from 'vitest';
import { FrameStore } from './frame-store.ts';
import { prng } from './random.ts';
import { ACTION_UNITS, type ActionUnits, EXPRESSIONS, type FaceData, type FrameData, QUALITY_FLAGS } from './types.ts';

const rand = prng(11);
const value = (scale = 1) => (rand() - 0.5) * scale;

function face(track?: number): FaceData {
  const expressions = Object.fromEntries(EXPRESSIONS.map((e) => [e, rand()])) as FaceData['expressions'];
  const out: FaceData = {
    box: { x: value(640), y: value(480), width: 20 + rand() * 300, height: 20 + rand() * 300 },
    score: rand(),
    landmarks: [],
    pose: { yaw: value(90), pitch: value(60), roll: value(40) },
    expressions,
    eyes: rand() < 0.8 ? { left: { x: rand(), y: value(0.3) }, right: { x: rand(), y: value(0.3) } } : null,
    actionUnits:
      rand() < 0.8
        ? {
            units: Object.fromEntries(ACTION_UNITS.map((u) => [u, value(0.4)])) as ActionUnits,
            eyeAspectRatio: rand() * 0.4,
          }
        : null,
  };
  if (track !== undefined) out.track = track;
  return out;
}

/** Frames as the analysis makes them: `face` one of `faces` in multi-face mode, flags in `qualityFlags`' order. */
function frames(count: number, multiFace: boolean): { frame: FrameData; ms: number }[] {
  return Array.from({ length: count }, (_, i) => {
    const n = Math.floor(rand() * 4);
    const faces = Array.from({ length: n }, (_, k) => face(rand() < 0.9 ? 1 + k + Math.floor(rand() * 3) : undefined));
    const main = n > 0 ? faces[Math.floor(rand() * n)] : undefined;
    const ms = 1234.5 + i * 100 + value(1e-3);
    const frame: FrameData = {
      index: i,
      time: ms / 1000,
      faceCount: n,
      face: multiFace ? (main ?? null) : n > 0 ? face() : null,
      brightness: rand(),
      flags: QUALITY_FLAGS.filter(() => rand() < 0.3),
    };
    if (multiFace) frame.faces = faces;
    return { frame, ms };
  });
}

/** The frame as a store holds it: box, score, brightness and action units at Float32 where the store keeps them so. */
function asStored(frame: FrameData, boxes: 'f32' | 'f64'): FrameData {
  const f32 = Math.fround;
  const stored = (face: FaceData, mainBox: boolean): FaceData => ({
    ...face,
    box:
      mainBox && boxes === 'f32'
        ? { x: f32(face.box.x), y: f32(face.box.y), width: f32(face.box.width), height: f32(face.box.height) }
        : face.box,
    score: f32(face.score),
    actionUnits: face.actionUnits
      ? {
          units: Object.fromEntries(ACTION_UNITS.map((u) => [u, f32(face.actionUnits?.units[u] ?? 0)])) as ActionUnits,
          eyeAspectRatio: f32(face.actionUnits.eyeAspectRatio),
        }
      : null,
  });
  const main = frame.face ? stored(frame.face, true) : null;
  const out: FrameData = { ...frame, face: main, brightness: f32(frame.brightness) };
  if (frame.faces) out.faces = frame.faces.map((f) => (f === frame.face && main ? main : stored(f, false)));
  return out;
}

describe('the frame store', () => {
  it('gives back single-face frames as they were pushed (Float32 only where the frame table reads Float32)', () => {
    const input = frames(5000, false);
    const store = new FrameStore();
    for (const { frame, ms } of input) store.push(frame, ms);
    expect(store.length).toBe(5000);
    for (const [i, { frame, ms }] of input.entries()) {
      expect(store.msAt(i)).toBe(ms);
      expect(store.frame(i)).toEqual(asStored(frame, 'f32'));
    }
    // Every value a session's outputs read at double precision is exact.
    const some = input[17]?.frame as FrameData;
    expect(store.frame(17).face?.expressions).toStrictEqual(some.face?.expressions);
    expect(store.frame(17).face?.pose).toStrictEqual(some.face?.pose);
    expect(store.frame(17).time).toBe(some.time);
    expect(() => store.frame(5000)).toThrow(RangeError);
  });

  it('gives back multi-face frames: every face in its place, the main face one of them, tracks kept', () => {
    const input = frames(3000, true);
    const store = new FrameStore({ multiFace: true });
    for (const { frame, ms } of input) store.push(frame, ms);
    expect(store.faceRows).toBe(input.reduce((s, f) => s + (f.frame.faces?.length ?? 0), 0));
    for (const [i, { frame }] of input.entries()) {
      const back = store.frame(i);
      expect(back).toEqual(asStored(frame, 'f64'));
      if (back.face) expect(back.faces?.includes(back.face)).toBe(true);
      expect(back.faces?.map((f) => f.track)).toEqual(frame.faces?.map((f) => f.track));
    }
  });

  it('writes tracks back, sorts by time stably and finds windows by time', () => {
    const store = new FrameStore({ multiFace: true });
    const input = frames(10, true);
    // Out of order, with a tie: 5 before 2 at the same time.
    const order = [0, 1, 3, 2, 4, 6, 5, 7, 8, 9];
    const msOf = [0, 100, 300, 200, 400, 300, 500, 600, 700, 800];
    for (const k of order) store.push((input[k] as { frame: FrameData }).frame, msOf[k] as number);
    const frame = store.frame(3);
    for (const [k, f] of (frame.faces ?? []).entries()) f.track = 40 + k;
    store.setTracks(3, frame);
    expect(store.frame(3).faces?.map((f) => f.track)).toEqual(frame.faces?.map((f) => f.track));
    expect(store.frame(3).face?.track).toBe(frame.face?.track);

    store.sortByTime();
    expect(Array.from({ length: 10 }, (_, i) => store.msAt(i))).toEqual([
      0, 100, 200, 300, 300, 400, 500, 600, 700, 800,
    ]);
    expect(store.frame(2).index).toBe(3);
    // Stable: of the two frames at 300 ms, the one pushed first (frame 2, with the tracks set) comes first.
    expect(store.frame(3).index).toBe(2);
    expect(store.frame(4).index).toBe(5);
    expect(store.frame(3).faces?.map((f) => f.track)).toEqual(frame.faces?.map((f) => f.track));
    expect(store.frame(7)).toEqual({ ...asStored((input[7] as { frame: FrameData }).frame, 'f64'), time: 0.6 });
    expect([store.firstAtOrAfter(300), store.firstAfter(300), store.firstAtOrAfter(900), store.firstAfter(-1)]).toEqual(
      [3, 5, 10, 0],
    );
    expect([...store.iterate(8)].map((f) => f.index)).toEqual([8, 9]);
    expect(store.frames(8, 20).map((f) => f.index)).toEqual([8, 9]);
  });

  it('grows by its columns only: under 200 bytes a single-face frame (192), nothing for multi-face columns it never uses', () => {
    const store = new FrameStore();
    const input = frames(40_960, false);
    for (const { frame, ms } of input) store.push(frame, ms);
    expect(FrameStore.BYTES_PER_FRAME).toBeLessThanOrEqual(200);
    expect(store.bytes / store.length).toBeLessThanOrEqual(FrameStore.BYTES_PER_FRAME);
    expect(store.bytes / store.length).toBeGreaterThan(FrameStore.BYTES_PER_FRAME * 0.9);
  });
});
