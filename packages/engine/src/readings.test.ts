import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { EngineError } from './errors.ts';
import { gaussian, prng } from './random.ts';
import {
  decodeReadings,
  encodeReadings,
  type FrameReadings,
  mergeReadings,
  READINGS_FORMAT_VERSION,
  READINGS_MAX_CHUNK_BYTES,
  READINGS_MAX_FRAMES,
  READINGS_STEPS,
  type ReadingsSampling,
} from './readings.ts';
import { ACTION_UNITS, EXPRESSIONS, type Expression, type FaceData, type FrameData, QUALITY_FLAGS } from './types.ts';
import { ENGINE_VERSION } from './version.ts';

const SAMPLING: ReadingsSampling = { fps: 10, gazeFps: 30, width: 640, height: 480 };

/**
 * A respondent as `readFrame` reads one (keepLandmarks false): the head wanders, expressions drift, the eyes move, a
 * face is sometimes lost or turned, the iris is sometimes not read. Full frames at 10 fps, light ones at 30 between.
 */
function syntheticReadings(seconds: number, seed = 3, start = 0): FrameReadings {
  const rand = prng(seed);
  const walk = { x: 220, y: 140, yaw: 0, pitch: 0, roll: 0, ex: 0.5, ey: 0.05, luma: 0.5 };
  const level = Object.fromEntries(EXPRESSIONS.map((e) => [e, e === 'neutral' ? 2 : 0])) as Record<Expression, number>;
  const full: FrameData[] = [];
  const light: FrameData[] = [];
  const frames = Math.round(seconds * 30);
  for (let i = 0; i < frames; i++) {
    const isFull = i % 3 === 0;
    walk.x += gaussian(rand) * 0.7;
    walk.y += gaussian(rand) * 0.4;
    walk.yaw += gaussian(rand) * 0.5 - walk.yaw * 0.02;
    walk.pitch += gaussian(rand) * 0.4 - walk.pitch * 0.02;
    walk.roll += gaussian(rand) * 0.2 - walk.roll * 0.02;
    walk.ex = 0.5 + (walk.ex - 0.5) * 0.95 + gaussian(rand) * 0.01;
    walk.ey = walk.ey * 0.95 + gaussian(rand) * 0.005;
    walk.luma = Math.min(0.9, Math.max(0.1, walk.luma + gaussian(rand) * 0.003));
    for (const e of EXPRESSIONS) level[e] += gaussian(rand) * 0.05 - (level[e] - (e === 'neutral' ? 2 : 0)) * 0.01;
    const raw = EXPRESSIONS.map((e) => Math.exp(level[e] + gaussian(rand) * 0.1));
    const total = raw.reduce((a, b) => a + b, 0);
    const lost = rand() < 0.03;
    const turned = rand() < 0.05;
    const two = !lost && rand() < 0.01;
    const face: FaceData | null = lost
      ? null
      : {
          box: { x: walk.x, y: walk.y, width: 180 + gaussian(rand), height: 205 + gaussian(rand) },
          score: 0.9 + rand() * 0.09,
          landmarks: [],
          pose: {
            yaw: walk.yaw + (turned ? 40 : 0) + gaussian(rand) * 0.3,
            pitch: walk.pitch + gaussian(rand) * 0.3,
            roll: walk.roll + gaussian(rand) * 0.3,
          },
          expressions: Object.fromEntries(
            EXPRESSIONS.map((e, k) => [e, isFull ? (raw[k] as number) / total : 0]),
          ) as Record<Expression, number>,
          eyes:
            rand() < 0.02
              ? null
              : {
                  left: { x: walk.ex + gaussian(rand) * 0.01, y: walk.ey + gaussian(rand) * 0.01 },
                  right: { x: 1 - walk.ex + gaussian(rand) * 0.01, y: walk.ey + gaussian(rand) * 0.01 },
                },
          actionUnits:
            rand() < 0.02
              ? null
              : {
                  units: Object.fromEntries(ACTION_UNITS.map((u) => [u, 0.3 + gaussian(rand) * 0.05])) as Record<
                    (typeof ACTION_UNITS)[number],
                    number
                  >,
                  eyeAspectRatio: 0.34 + gaussian(rand) * 0.02,
                  mouthWidth: 0.85 + gaussian(rand) * 0.03,
                },
          irisPx: rand() < 0.05 ? null : 22 + gaussian(rand) * 0.5,
        };
    const flags: FrameData['flags'] = [];
    if (!face) flags.push('no_face');
    if (two) flags.push('several_faces');
    if (turned) flags.push('head_turned');
    if (walk.luma < 0.15) flags.push('too_dark');
    const frame: FrameData = {
      index: full.length,
      time: start + i / 30,
      faceCount: face ? (two ? 2 : 1) : 0,
      face,
      brightness: walk.luma,
      flags,
    };
    (isFull ? full : light).push(frame);
  }
  return { sampling: { ...SAMPLING }, full, light };
}

async function code(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'no error';
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
    return error.code;
  }
}

const near = (a: number, b: number, step: number) => Math.abs(a - b) <= step / 2 + 1e-9 * Math.max(1, Math.abs(b));

function expectWithinSteps(decoded: FrameData, original: FrameData, light: boolean): void {
  const S = READINGS_STEPS;
  expect(near(decoded.time, original.time, S.time)).toBe(true);
  expect(near(decoded.brightness, original.brightness, S.brightness)).toBe(true);
  expect(decoded.faceCount).toBe(original.faceCount);
  expect(decoded.flags).toEqual(original.flags);
  const [a, b] = [decoded.face, original.face];
  if (!b) {
    expect(a).toBeNull();
    return;
  }
  if (!a) throw new Error('face lost');
  for (const k of ['yaw', 'pitch', 'roll'] as const) expect(near(a.pose[k], b.pose[k], S.pose)).toBe(true);
  if (light) {
    expect(a.box.x).toBeNaN();
    expect(a.score).toBeNaN();
    for (const e of EXPRESSIONS) expect(a.expressions[e]).toBe(0);
  } else {
    for (const k of ['x', 'y', 'width', 'height'] as const) expect(near(a.box[k], b.box[k], S.box)).toBe(true);
    expect(near(a.score, b.score, S.score)).toBe(true);
    for (const e of EXPRESSIONS) expect(near(a.expressions[e], b.expressions[e], S.expression)).toBe(true);
  }
  expect(a.eyes === null).toBe(b.eyes === null);
  if (a.eyes && b.eyes) {
    for (const side of ['left', 'right'] as const) {
      expect(near(a.eyes[side].x, b.eyes[side].x, S.eye)).toBe(true);
      expect(near(a.eyes[side].y, b.eyes[side].y, S.eye)).toBe(true);
    }
  }
  expect(a.actionUnits === null).toBe(!b.actionUnits);
  if (a.actionUnits && b.actionUnits) {
    expect(near(a.actionUnits.eyeAspectRatio, b.actionUnits.eyeAspectRatio, S.unit)).toBe(true);
    // The mouth's width rides with the full frames' action units; a light frame carries none.
    if (light) expect(a.actionUnits.mouthWidth).toBeUndefined();
    else expect(near(a.actionUnits.mouthWidth as number, b.actionUnits.mouthWidth as number, S.unit)).toBe(true);
    for (const u of ACTION_UNITS) {
      if (light) expect(a.actionUnits.units[u]).toBeNaN();
      else expect(near(a.actionUnits.units[u], b.actionUnits.units[u], S.unit)).toBe(true);
    }
  }
  expect(a.irisPx === null).toBe(b.irisPx === null);
  if (a.irisPx !== null && a.irisPx !== undefined) expect(near(a.irisPx, b.irisPx as number, S.iris)).toBe(true);
  expect(a.landmarks).toEqual([]);
}

/** A chunk written by hand: the header `encodeReadings` writes, with any of its fields and any body. */
function chunk(
  body: Uint8Array,
  o: Partial<{
    magic: string;
    format: number;
    engine: string;
    sampling: ReadingsSampling;
    full: number;
    light: number;
    bodyLength: number;
    compressed: Uint8Array;
    compressedLength: number;
  }> = {},
): Uint8Array {
  const engine = new TextEncoder().encode(o.engine ?? ENGINE_VERSION);
  const compressed = o.compressed ?? new Uint8Array(deflateSync(body));
  const out = new Uint8Array(4 + 2 + engine.length + 36 + compressed.length);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(o.magic ?? 'EMLR'), 0);
  view.setUint8(4, o.format ?? READINGS_FORMAT_VERSION);
  view.setUint8(5, engine.length);
  out.set(engine, 6);
  const at = 6 + engine.length;
  const s = o.sampling ?? SAMPLING;
  view.setFloat64(at, s.fps, true);
  view.setFloat64(at + 8, s.gazeFps, true);
  view.setUint16(at + 16, s.width, true);
  view.setUint16(at + 18, s.height, true);
  view.setUint32(at + 20, o.full ?? 1, true);
  view.setUint32(at + 24, o.light ?? 0, true);
  view.setUint32(at + 28, o.bodyLength ?? body.length, true);
  view.setUint32(at + 32, o.compressedLength ?? compressed.length, true);
  out.set(compressed, at + 36);
  return out;
}

/** Varints as the body holds them (zigzag for signed values). */
const signed = (v: number) => (v < 0 ? -2 * v - 1 : 2 * v);
function varints(values: number[]): Uint8Array {
  const out: number[] = [];
  for (let v of values) {
    while (v >= 0x80) {
      out.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    out.push(v);
  }
  return new Uint8Array(out);
}
/** One full frame without a face at time `t` (0.1 ms units): time, count, state, brightness. */
const noFaceFrame = (t: number, state = 1, count = 0, luma = 500) => [signed(t), count, state, signed(luma)];

describe('readings codec', () => {
  it('round-trips every value within its quantisation step', async () => {
    const r = syntheticReadings(20);
    const decoded = await decodeReadings(await encodeReadings(r));
    expect(decoded.sampling).toEqual(r.sampling);
    expect(decoded.full).toHaveLength(r.full.length);
    expect(decoded.light).toHaveLength(r.light.length);
    for (const [i, f] of decoded.full.entries()) {
      expectWithinSteps(f, r.full[i] as FrameData, false);
      expect(f.index).toBe(i);
    }
    for (const [i, f] of decoded.light.entries()) expectWithinSteps(f, r.light[i] as FrameData, true);
    // A light frame's index: the full frames before it (as the server's light frames carry it).
    expect(decoded.light[0]?.index).toBe(1);
    // Covered: faces lost, eyes / units / iris missing, several faces, turned heads.
    expect(r.full.some((f) => f.face === null)).toBe(true);
    expect(r.light.some((f) => f.face && f.face.eyes === null)).toBe(true);
    expect([...r.full, ...r.light].some((f) => f.flags.includes('several_faces'))).toBe(true);
  });

  it('round-trips an empty chunk and a chunk of light frames only', async () => {
    const empty = await decodeReadings(await encodeReadings({ sampling: SAMPLING, full: [], light: [] }));
    expect(empty).toEqual({ sampling: SAMPLING, full: [], light: [] });
    const r = syntheticReadings(2);
    const onlyLight = await decodeReadings(await encodeReadings({ ...r, full: [] }));
    expect(onlyLight.light).toHaveLength(r.light.length);
  });

  it('keeps a minute at 10 + 30 fps of a synthetic respondent well under 50 KB', async () => {
    // The figure for real recordings is the bench's (`npm run bench:privacy-mode`); this one guards the layout.
    const bytes = await encodeReadings(syntheticReadings(60));
    expect(bytes.length).toBeLessThan(50_000);
  });

  it('refuses what it cannot carry', async () => {
    const r = syntheticReadings(1);
    const first = r.full[0] as FrameData;
    const multi = { ...r, full: [{ ...first, faces: first.face ? [first.face] : [] }] };
    expect(await code(() => encodeReadings(multi))).toBe('invalid_readings');
    const nan = { ...r, full: [{ ...first, brightness: Number.NaN }] };
    expect(await code(() => encodeReadings(nan))).toBe('invalid_readings');
    const backwards = { ...r, full: [...r.full].reverse() };
    expect(await code(() => encodeReadings(backwards))).toBe('invalid_readings');
    const badSampling = { ...r, sampling: { ...SAMPLING, fps: 0 } };
    expect(await code(() => encodeReadings(badSampling))).toBe('invalid_readings');
    const noFlag = { ...r, full: [{ ...first, flags: [], face: null, faceCount: 0 }] };
    expect(await code(() => encodeReadings(noFlag))).toBe('invalid_readings');
    const tooMany = { ...r, light: new Array<FrameData>(READINGS_MAX_FRAMES).fill(r.light[0] as FrameData) };
    expect(await code(() => encodeReadings(tooMany))).toBe('invalid_readings');
  });

  it('rejects every malformed header with invalid_readings', async () => {
    const good = varints(noFaceFrame(1000));
    expect((await decodeReadings(chunk(good))).full[0]?.time).toBeCloseTo(0.1, 9);
    const cases: [string, Uint8Array][] = [
      ['empty', new Uint8Array(0)],
      ['short', chunk(good).subarray(0, 20)],
      ['magic', chunk(good, { magic: 'EMLF' })],
      ['format version', chunk(good, { format: READINGS_FORMAT_VERSION + 1 })],
      ['engine version', chunk(good, { engine: '0.0.1' })],
      ['engine version not text', chunk(good, { engine: '\uFFFF' }).fill(0xff, 6, 9)],
      ['fps 0', chunk(good, { sampling: { ...SAMPLING, fps: 0 } })],
      ['fps NaN', chunk(good, { sampling: { ...SAMPLING, fps: Number.NaN } })],
      ['fps 1000', chunk(good, { sampling: { ...SAMPLING, fps: 1000 } })],
      ['gazeFps negative', chunk(good, { sampling: { ...SAMPLING, gazeFps: -1 } })],
      ['width 0', chunk(good, { sampling: { ...SAMPLING, width: 0 } })],
      ['too many frames', chunk(good, { full: READINGS_MAX_FRAMES, light: 1 })],
      ['count overflow', chunk(good, { full: 0xffffffff, light: 0xffffffff })],
      ['body larger than its frames', chunk(good, { bodyLength: 10_000 })],
      ['compressed length', chunk(good, { compressedLength: 3 })],
      ['truncated', chunk(good).subarray(0, chunk(good).length - 2)],
      ['trailing bytes', new Uint8Array([...chunk(good), 0])],
      ['oversized', new Uint8Array(READINGS_MAX_CHUNK_BYTES + 1)],
    ];
    for (const [name, bytes] of cases)
      expect([name, await code(() => decodeReadings(bytes))]).toEqual([name, 'invalid_readings']);
  });

  it('rejects every malformed body with invalid_readings', async () => {
    const good = noFaceFrame(1000);
    const deflated = new Uint8Array(deflateSync(varints(good)));
    const cases: [string, Uint8Array][] = [
      ['not deflate', chunk(varints(good), { compressed: new Uint8Array([1, 2, 3, 4, 5, 6]) })],
      ['corrupt deflate', chunk(varints(good), { compressed: deflated.map((b, i) => (i === 5 ? b ^ 0xff : b)) })],
      [
        'bytes after the deflate stream',
        chunk(varints(good), { compressed: new Uint8Array([...deflated, ...deflateSync(new Uint8Array(3))]) }),
      ],
      ['body shorter than stated', chunk(varints(good), { bodyLength: 3 })],
      ['body longer than its frames', chunk(varints([...good, 0]), { bodyLength: 5 })],
      ['body ends early', chunk(varints(good.slice(0, 3)))],
      ['varint too long', chunk(new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0, 1, 0]))],
      ['time negative', chunk(varints(noFaceFrame(-5)))],
      ['time past a day', chunk(varints(noFaceFrame(24 * 3600 * 10_000 + 1)))],
      ['times backwards', chunk(varints([signed(1000), signed(-1), 0, 0, 1, 1, signed(0), signed(0)]), { full: 2 })],
      ['unknown state bit', chunk(varints(noFaceFrame(1000, 1 | (1 << 12))))],
      ['no face without no_face', chunk(varints(noFaceFrame(1000, 0)))],
      ['face count without a face', chunk(varints(noFaceFrame(1000, 1, 1)))],
      ['face count 300', chunk(varints(noFaceFrame(1000, 1, 300)))],
      ['eyes without a face', chunk(varints(noFaceFrame(1000, 1 | (1 << 8))))],
      ['brightness 2', chunk(varints(noFaceFrame(1000, 1, 0, 2000)))],
    ];
    for (const [name, bytes] of cases)
      expect([name, await code(() => decodeReadings(bytes))]).toEqual([name, 'invalid_readings']);
  });

  it('rejects out-of-range face values', async () => {
    const r = syntheticReadings(0.2);
    const f = r.full[0] as FrameData;
    const face = f.face as FaceData;
    const bad: FaceData[] = [
      { ...face, expressions: { ...face.expressions, happy: 1.5 } },
      { ...face, score: 2 },
      { ...face, pose: { ...face.pose, yaw: 400 } },
      { ...face, box: { ...face.box, width: -3 } },
      { ...face, irisPx: -1 },
    ];
    for (const b of bad)
      expect(await code(() => encodeReadings({ ...r, full: [{ ...f, face: b }] }))).toBe('invalid_readings');
  });

  it('refuses an inflation bomb without inflating it', async () => {
    // 50 MB of zeros deflate to ~50 KB; the header states a body its one frame could hold.
    const bomb = new Uint8Array(deflateSync(new Uint8Array(50_000_000)));
    const started = performance.now();
    expect(await code(() => decodeReadings(chunk(new Uint8Array(0), { compressed: bomb, bodyLength: 20 })))).toBe(
      'invalid_readings',
    );
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('throws only invalid_readings on damaged chunks (fuzz)', async () => {
    const bytes = await encodeReadings(syntheticReadings(3));
    const rand = prng(11);
    let rejected = 0;
    for (let k = 0; k < 300; k++) {
      const damaged = bytes.slice();
      const kind = k % 3;
      const at = Math.floor(rand() * damaged.length);
      if (kind === 0) damaged[at] = (damaged[at] as number) ^ (1 + Math.floor(rand() * 255));
      const cut = kind === 1 ? damaged.subarray(0, Math.floor(rand() * damaged.length)) : damaged;
      if (kind === 2)
        for (let j = 0; j < 8; j++) damaged[Math.floor(rand() * damaged.length)] = Math.floor(rand() * 256);
      const outcome = await code(() => decodeReadings(cut));
      expect(['no error', 'invalid_readings']).toContain(outcome);
      if (outcome === 'invalid_readings') rejected++;
    }
    // Deflate's checksum catches nearly every change to the body; a changed header field mostly fails its checks.
    expect(rejected).toBeGreaterThan(250);
  });
});

describe('mergeReadings', () => {
  it('joins a segment’s chunks in order, indices running on', async () => {
    const a = syntheticReadings(2, 1);
    const b = syntheticReadings(2, 2, 2);
    const merged = mergeReadings([
      await decodeReadings(await encodeReadings(a)),
      await decodeReadings(await encodeReadings(b)),
    ]);
    expect(merged.full).toHaveLength(a.full.length + b.full.length);
    expect(merged.full.map((f) => f.index)).toEqual(merged.full.map((_, i) => i));
    expect(merged.light.at(-1)?.index).toBe(merged.full.length);
    expect(merged.full[a.full.length]?.time).toBeCloseTo(2, 4);
  });

  it('refuses chunks whose sampling differs or whose times go backwards', () => {
    const a = syntheticReadings(2, 1);
    const b = syntheticReadings(2, 2, 2);
    expect(() => mergeReadings([a, { ...b, sampling: { ...SAMPLING, fps: 15 } }])).toThrow(EngineError);
    expect(() => mergeReadings([b, a])).toThrow(/invalid_readings|backwards/);
    expect(() => mergeReadings([])).toThrow(EngineError);
    try {
      mergeReadings([b, a]);
    } catch (error) {
      expect((error as EngineError).code).toBe('invalid_readings');
    }
  });

  it('flags are written in QUALITY_FLAGS order', async () => {
    const r = syntheticReadings(1);
    const f = r.full.find((x) => x.face && x.faceCount === 1) as FrameData;
    const all = { ...f, flags: [...QUALITY_FLAGS].filter((q) => q !== 'no_face' && q !== 'several_faces') };
    const decoded = await decodeReadings(await encodeReadings({ ...r, full: [all], light: [] }));
    expect(decoded.full[0]?.flags).toEqual(all.flags);
  });
});
