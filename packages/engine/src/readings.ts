/**
 * A segment's per-frame readings as the respondent's browser uploads them in privacy mode (issue 32, decision 063):
 * the features `readFrame` returns (keepLandmarks false) instead of the video they were read from. Shared by the page
 * (encode) and the server (decode): no Node-only imports.
 *
 * Single face only: the main face of each frame (`FrameData.face`); multi-face sessions are not in privacy mode and a
 * frame carrying a `faces` list is refused. Full frames keep the main face's box, score, pose, expressions, eye
 * features, action units with the mouth's width and the eye aspect ratio, and iris diameter; light frames (mesh and
 * iris, decision 036) keep what the analysis reads of them: pose, eye features, the eye aspect ratio and the iris
 * diameter. A decoded light frame's box and score are NaN and its action units other than the eye aspect ratio NaN
 * (not carried, nor the mouth's width); its expressions are 0, as `readFrame` gives them (not measured). `index` is not
 * carried: a full frame's is its place among the chunk's full frames, a light frame's the number of full frames before
 * it (no analysis reads it).
 *
 * Layout (little-endian): "EMLR", u8 format version, u8 n + n bytes ENGINE_VERSION (UTF-8), f64 fps, f64 gazeFps,
 * u16 width, u16 height, u32 full frames, u32 light frames, u32 body bytes, u32 compressed bytes; then the body,
 * zlib-deflated ('deflate' of CompressionStream, in every browser and in Node without a dependency; its Adler-32
 * catches corruption). The body is varints (LEB128 of the zigzagged value), column after column: for the full frames
 * time, face count, state (quality flags | face, eyes, units, iris bits), brightness, then the face columns over the
 * frames with a face, the eye columns over those with eyes, and so on; then the light frames likewise. Every numeric
 * column is quantised to a fixed step (`STEPS`) and stored as the difference from the column's previous value, so a
 * slowly changing value costs a byte or less after deflate.
 *
 * Decoding trusts nothing: the header's counts bound the body's size before anything is inflated, inflating stops at
 * that size (no bomb), and every value is checked (ranges, order of times, flags against the face).
 */
import {
  deflate,
  inflateAtMost,
  invalidReadings as invalid,
  MAX_VARINT_BYTES,
  putColumn,
  Reader,
  readColumn,
  type Spec,
  Writer,
} from './readings-columns.ts';
import {
  ACTION_UNITS,
  EXPRESSIONS,
  type ExpressionScores,
  type FaceData,
  type FrameData,
  QUALITY_FLAGS,
} from './types.ts';
import { ENGINE_VERSION } from './version.ts';

export interface ReadingsSampling {
  fps: number;
  gazeFps: number;
  width: number;
  height: number;
}

/**
 * One chunk of a segment's per-frame readings: `full` frames at `fps` (expressions, action units, pose…), `light`
 * frames between them (mesh+iris: eyes, pose, iris size), as readFrame returns them with keepLandmarks false; `time` is
 * seconds on the segment's own clock (as a video file's frame time), frames in time order.
 */
export interface FrameReadings {
  sampling: ReadingsSampling;
  full: FrameData[];
  light: FrameData[];
}

/** An upper bound the server enforces on one chunk (bytes, encoded). */
export const READINGS_MAX_CHUNK_BYTES = 1 << 20;
/** Frames (full and light) in one chunk at most: 15 minutes at 10 + 30 fps. */
export const READINGS_MAX_FRAMES = 36_000;
export const READINGS_FORMAT_VERSION = 2;

const MAGIC = [0x45, 0x4d, 0x4c, 0x52]; // "EMLR"
/** Seconds of a segment's clock a reading may lie at (24 h). */
const MAX_SECONDS = 24 * 3600;
const MAX_FPS = 120;
const MAX_SIDE = 8192;

/**
 * Quantisation steps, each from what the analysis reads (decision 063). Time: 0.1 ms, a tenth of the event log's
 * resolution. Box: 1/8 px (the frame table's box, a display figure). Score and brightness: 0.001 (read by nothing but
 * the frame table; the quality flags are computed before encoding). Pose: 0.01° (gaze features take yaw and pitch at
 * ~10 px a degree: 0.1 px). Expressions: 1e-4 (series and summary are means of them, shown to 0.1 %). Eye features:
 * 1e-4 eye widths (~1.6 px of gaze on a 1920 px screen, against an iris noise of ~50 times that). Action units and
 * the eye aspect ratio: 1e-4 (the frame store's "read to 1e-4 at best"). Iris diameter: 0.01 px.
 */
export const READINGS_STEPS = {
  time: 1e-4,
  box: 1 / 8,
  score: 1e-3,
  brightness: 1e-3,
  pose: 1e-2,
  expression: 1e-4,
  eye: 1e-4,
  unit: 1e-4,
  iris: 1e-2,
} as const;
const STEPS = READINGS_STEPS;

// The state column: the quality flags' bits (QUALITY_FLAGS order), then what the frame carries.
const HAS_FACE = 1 << 7;
const HAS_EYES = 1 << 8;
const HAS_UNITS = 1 << 9;
const HAS_IRIS = 1 << 10;
const FLAG_BITS = (1 << QUALITY_FLAGS.length) - 1;
const STATE_BITS = FLAG_BITS | HAS_FACE | HAS_EYES | HAS_UNITS | HAS_IRIS;
const NO_FACE = 1 << QUALITY_FLAGS.indexOf('no_face');
const SEVERAL = 1 << QUALITY_FLAGS.indexOf('several_faces');

/**
 * Values a frame may carry at most: time, count, state, brightness, box 4, score, pose 3, expressions, eyes 4, units,
 * mouth width, ear, iris.
 */
const FULL_VALUES = 4 + 4 + 1 + 3 + EXPRESSIONS.length + 4 + ACTION_UNITS.length + 1 + 1 + 1;
const LIGHT_VALUES = 4 + 3 + 4 + 1 + 1;
const FIXED_HEADER = 4 + 1 + 1 + 8 + 8 + 2 + 2 + 4 * 4;

/** The columns' specs for a frame size (the box and the iris are bounded by it). */
function specs(sampling: ReadingsSampling) {
  const side = Math.max(sampling.width, sampling.height);
  const spec = (step: number, lo: number, hi: number, what: string): Spec => ({ step, lo, hi, what });
  return {
    time: spec(STEPS.time, 0, MAX_SECONDS, 'time'),
    brightness: spec(STEPS.brightness, 0, 1, 'brightness'),
    boxAt: spec(STEPS.box, -side, 2 * side, 'box position'),
    boxSize: spec(STEPS.box, 0, 2 * side, 'box size'),
    score: spec(STEPS.score, 0, 1, 'score'),
    pose: spec(STEPS.pose, -360, 360, 'pose'),
    expression: spec(STEPS.expression, 0, 1, 'expression'),
    eye: spec(STEPS.eye, -100, 100, 'eye feature'),
    unit: spec(STEPS.unit, -1000, 1000, 'action unit'),
    iris: spec(STEPS.iris, 0, 2 * side, 'iris diameter'),
  };
}
type Specs = ReturnType<typeof specs>;

function stateOf(frame: FrameData): number {
  if (frame.faces !== undefined) throw invalid('multi-face frames are not carried (privacy mode is single-face)');
  let state = 0;
  for (const [k, flag] of QUALITY_FLAGS.entries()) if (frame.flags.includes(flag)) state |= 1 << k;
  const face = frame.face;
  if (face) {
    state |= HAS_FACE;
    if (face.eyes) state |= HAS_EYES;
    if (face.actionUnits) state |= HAS_UNITS;
    if (face.irisPx !== null && face.irisPx !== undefined) state |= HAS_IRIS;
  }
  checkState(state, frame.faceCount);
  return state;
}

function checkState(state: number, faceCount: number): void {
  if ((state & ~STATE_BITS) !== 0) throw invalid('unknown state bits');
  if (!Number.isInteger(faceCount) || faceCount < 0 || faceCount > 255) throw invalid('bad face count');
  const face = (state & HAS_FACE) !== 0;
  if (!face && (state & (HAS_EYES | HAS_UNITS | HAS_IRIS)) !== 0) throw invalid('features without a face');
  if (face !== faceCount > 0) throw invalid('the face count does not match the face');
  if (face === ((state & NO_FACE) !== 0)) throw invalid('the no_face flag does not match the face');
  if (faceCount > 1 !== ((state & SEVERAL) !== 0)) throw invalid('the several_faces flag does not match the count');
}

function checkSampling(s: ReadingsSampling): void {
  const ok =
    Number.isFinite(s?.fps) &&
    s.fps > 0 &&
    s.fps <= MAX_FPS &&
    Number.isFinite(s.gazeFps) &&
    s.gazeFps >= 0 &&
    s.gazeFps <= MAX_FPS &&
    Number.isInteger(s.width) &&
    Number.isInteger(s.height) &&
    s.width >= 1 &&
    s.width <= MAX_SIDE &&
    s.height >= 1 &&
    s.height <= MAX_SIDE;
  if (!ok) throw invalid('bad sampling');
}

/** Times in order (quantised, as they will be read back). */
function checkTimes(times: readonly number[], what: string): void {
  let previous = 0;
  for (const t of times) {
    if (t < previous) throw invalid(`${what} times go backwards`);
    previous = t;
  }
}

/** The columns of one kind of frame (full or light) into the body. */
function putFrames(w: Writer, frames: readonly FrameData[], light: boolean, spec: Specs): void {
  const kind = light ? 'light' : 'full';
  const times = frames.map((f) => f.time);
  putColumn(w, times, spec.time);
  checkTimes(
    times.map((t) => Math.round(t / STEPS.time)),
    kind,
  );
  const states = frames.map(stateOf);
  for (const f of frames) w.unsigned(f.faceCount);
  for (const s of states) w.unsigned(s);
  putColumn(
    w,
    frames.map((f) => f.brightness),
    spec.brightness,
  );
  const faces = frames.flatMap((f) => (f.face ? [f.face] : []));
  const column = (get: (face: FaceData) => number, of: Spec, rows: readonly FaceData[] = faces) =>
    putColumn(w, rows.map(get), of);
  if (!light) {
    column((f) => f.box.x, spec.boxAt);
    column((f) => f.box.y, spec.boxAt);
    column((f) => f.box.width, spec.boxSize);
    column((f) => f.box.height, spec.boxSize);
    column((f) => f.score, spec.score);
  }
  column((f) => f.pose.yaw, spec.pose);
  column((f) => f.pose.pitch, spec.pose);
  column((f) => f.pose.roll, spec.pose);
  if (!light) for (const e of EXPRESSIONS) column((f) => f.expressions[e], spec.expression);
  const withEyes = faces.filter((f) => f.eyes);
  column((f) => f.eyes?.left.x ?? 0, spec.eye, withEyes);
  column((f) => f.eyes?.left.y ?? 0, spec.eye, withEyes);
  column((f) => f.eyes?.right.x ?? 0, spec.eye, withEyes);
  column((f) => f.eyes?.right.y ?? 0, spec.eye, withEyes);
  const withUnits = faces.filter((f) => f.actionUnits);
  if (!light) for (const u of ACTION_UNITS) column((f) => f.actionUnits?.units[u] ?? 0, spec.unit, withUnits);
  if (!light) column((f) => f.actionUnits?.mouthWidth ?? 0, spec.unit, withUnits);
  column((f) => f.actionUnits?.eyeAspectRatio ?? 0, spec.unit, withUnits);
  column(
    (f) => f.irisPx ?? 0,
    spec.iris,
    faces.filter((f) => f.irisPx !== null && f.irisPx !== undefined),
  );
}

function readFrames(r: Reader, n: number, light: boolean, spec: Specs): FrameData[] {
  const times = readColumn(r, n, spec.time);
  checkTimes(times, light ? 'light' : 'full');
  const counts = Array.from({ length: n }, () => r.unsigned());
  const states = Array.from({ length: n }, () => r.unsigned());
  for (let i = 0; i < n; i++) checkState(states[i] as number, counts[i] as number);
  const brightness = readColumn(r, n, spec.brightness);
  const has = (bit: number) => states.filter((s) => s & bit).length;
  const nFaces = has(HAS_FACE);
  const filled = (m: number, value: number) => new Array<number>(m).fill(value);
  const box = light
    ? [0, 1, 2, 3].map(() => filled(nFaces, Number.NaN))
    : [spec.boxAt, spec.boxAt, spec.boxSize, spec.boxSize].map((of) => readColumn(r, nFaces, of));
  const score = light ? filled(nFaces, Number.NaN) : readColumn(r, nFaces, spec.score);
  const pose = [0, 1, 2].map(() => readColumn(r, nFaces, spec.pose));
  const expressions = EXPRESSIONS.map(() => (light ? filled(nFaces, 0) : readColumn(r, nFaces, spec.expression)));
  const nEyes = has(HAS_EYES);
  const eyes = [0, 1, 2, 3].map(() => readColumn(r, nEyes, spec.eye));
  const nUnits = has(HAS_UNITS);
  const units = ACTION_UNITS.map(() => (light ? filled(nUnits, Number.NaN) : readColumn(r, nUnits, spec.unit)));
  const mouth = light ? null : readColumn(r, nUnits, spec.unit);
  const ear = readColumn(r, nUnits, spec.unit);
  const iris = readColumn(r, has(HAS_IRIS), spec.iris);

  const frames: FrameData[] = [];
  const k = { face: 0, eyes: 0, units: 0, iris: 0 };
  const at = (c: number[][], q: number, m: number) => (c[q] as number[])[m] as number;
  for (let i = 0; i < n; i++) {
    const state = states[i] as number;
    let face: FaceData | null = null;
    if (state & HAS_FACE) {
      const j = k.face++;
      const scores = {} as ExpressionScores;
      for (const [q, e] of EXPRESSIONS.entries()) scores[e] = at(expressions, q, j);
      face = {
        box: { x: at(box, 0, j), y: at(box, 1, j), width: at(box, 2, j), height: at(box, 3, j) },
        score: score[j] as number,
        landmarks: [],
        pose: { yaw: at(pose, 0, j), pitch: at(pose, 1, j), roll: at(pose, 2, j) },
        expressions: scores,
        eyes: null,
        actionUnits: null,
        irisPx: null,
      };
      if (state & HAS_EYES) {
        const m = k.eyes++;
        face.eyes = { left: { x: at(eyes, 0, m), y: at(eyes, 1, m) }, right: { x: at(eyes, 2, m), y: at(eyes, 3, m) } };
      }
      if (state & HAS_UNITS) {
        const m = k.units++;
        const values = {} as Record<(typeof ACTION_UNITS)[number], number>;
        for (const [q, u] of ACTION_UNITS.entries()) values[u] = at(units, q, m);
        face.actionUnits = {
          units: values,
          eyeAspectRatio: ear[m] as number,
          ...(mouth ? { mouthWidth: mouth[m] as number } : {}),
        };
      }
      if (state & HAS_IRIS) face.irisPx = iris[k.iris++] as number;
    }
    frames.push({
      index: i,
      time: times[i] as number,
      faceCount: counts[i] as number,
      face,
      brightness: brightness[i] as number,
      flags: QUALITY_FLAGS.filter((_, b) => state & (1 << b)),
    });
  }
  return frames;
}

/** Light frames' `index`: the full frames before each (as the server's light frames carry it). */
function indexLight(full: readonly FrameData[], light: FrameData[], base = 0): void {
  let k = 0;
  for (const f of light) {
    while (k < full.length && (full[k] as FrameData).time < f.time) k++;
    f.index = base + k;
  }
}

/** The chunk's bytes (async: compression is a stream in browsers). Throws `invalid_readings` on what cannot be carried. */
export async function encodeReadings(r: FrameReadings): Promise<Uint8Array> {
  checkSampling(r.sampling);
  if (!Array.isArray(r.full) || !Array.isArray(r.light)) throw invalid('no frame lists');
  if (r.full.length + r.light.length > READINGS_MAX_FRAMES) {
    throw invalid(`more than ${READINGS_MAX_FRAMES} frames in one chunk`);
  }
  const w = new Writer();
  const spec = specs(r.sampling);
  putFrames(w, r.full, false, spec);
  putFrames(w, r.light, true, spec);
  const body = w.result();
  const compressed = await deflate(body);
  const version = new TextEncoder().encode(ENGINE_VERSION);
  const out = new Uint8Array(FIXED_HEADER + version.length + compressed.length);
  if (out.length > READINGS_MAX_CHUNK_BYTES) throw invalid(`a chunk above ${READINGS_MAX_CHUNK_BYTES} bytes`);
  const view = new DataView(out.buffer);
  out.set(MAGIC, 0);
  let at = 4;
  view.setUint8(at++, READINGS_FORMAT_VERSION);
  view.setUint8(at++, version.length);
  out.set(version, at);
  at += version.length;
  view.setFloat64(at, r.sampling.fps, true);
  view.setFloat64(at + 8, r.sampling.gazeFps, true);
  view.setUint16(at + 16, r.sampling.width, true);
  view.setUint16(at + 18, r.sampling.height, true);
  view.setUint32(at + 20, r.full.length, true);
  view.setUint32(at + 24, r.light.length, true);
  view.setUint32(at + 28, body.length, true);
  view.setUint32(at + 32, compressed.length, true);
  out.set(compressed, at + 36);
  return out;
}

/**
 * A chunk back into frames (async: inflating is a stream in browsers). Throws `invalid_readings` on any malformed,
 * truncated, oversized or other-engine-version input; the work is bounded by `READINGS_MAX_CHUNK_BYTES` and
 * `READINGS_MAX_FRAMES`.
 */
export async function decodeReadings(bytes: Uint8Array): Promise<FrameReadings> {
  if (!(bytes instanceof Uint8Array)) throw invalid('not bytes');
  if (bytes.length > READINGS_MAX_CHUNK_BYTES) throw invalid(`a chunk above ${READINGS_MAX_CHUNK_BYTES} bytes`);
  if (bytes.length < FIXED_HEADER || MAGIC.some((b, i) => bytes[i] !== b)) throw invalid('not a readings chunk');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint8(4) !== READINGS_FORMAT_VERSION) throw invalid(`format version ${view.getUint8(4)} is not known`);
  const n = view.getUint8(5);
  if (bytes.length < FIXED_HEADER + n) throw invalid('the header ends early');
  let version: string;
  try {
    version = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(6, 6 + n));
  } catch {
    throw invalid('the engine version is not text');
  }
  if (version !== ENGINE_VERSION) throw invalid(`read by engine ${version}, this is ${ENGINE_VERSION}`);
  const at = 6 + n;
  const sampling: ReadingsSampling = {
    fps: view.getFloat64(at, true),
    gazeFps: view.getFloat64(at + 8, true),
    width: view.getUint16(at + 16, true),
    height: view.getUint16(at + 18, true),
  };
  checkSampling(sampling);
  const nFull = view.getUint32(at + 20, true);
  const nLight = view.getUint32(at + 24, true);
  const bodyLength = view.getUint32(at + 28, true);
  const compressedLength = view.getUint32(at + 32, true);
  if (nFull + nLight > READINGS_MAX_FRAMES) throw invalid('too many frames');
  if (bodyLength > (nFull * FULL_VALUES + nLight * LIGHT_VALUES) * MAX_VARINT_BYTES) {
    throw invalid('the body is larger than its frames can be');
  }
  if (compressedLength !== bytes.length - at - 36) throw invalid('the body is truncated or followed by other bytes');
  const compressed = bytes.subarray(at + 36);
  const body = await inflateAtMost(compressed, bodyLength);
  if (body.length !== bodyLength) throw invalid('the body is not its stated size');
  // Bytes after the deflate stream's end are not an error to every inflater (Node's is lenient): without its last
  // byte a well-formed stream no longer inflates, a stream followed by other bytes still does.
  if (
    compressed.length > 0 &&
    (await inflateAtMost(compressed.subarray(0, compressed.length - 1), bodyLength).then(
      () => true,
      () => false,
    ))
  ) {
    throw invalid('the body is followed by other bytes');
  }
  const r = new Reader(body);
  const spec = specs(sampling);
  const full = readFrames(r, nFull, false, spec);
  const light = readFrames(r, nLight, true, spec);
  if (!r.done) throw invalid('the body holds more than its frames');
  indexLight(full, light);
  return { sampling, full, light };
}

const sameSampling = (a: ReadingsSampling, b: ReadingsSampling) =>
  a.fps === b.fps && a.gazeFps === b.gazeFps && a.width === b.width && a.height === b.height;

/**
 * One segment's chunks, in order, as one: the same sampling throughout (else `invalid_readings`), each chunk's times
 * at or after the previous chunk's; frame indices run on across the chunks.
 */
export function mergeReadings(chunks: FrameReadings[]): FrameReadings {
  const first = chunks[0];
  if (!first) throw invalid('no chunks to merge');
  const full: FrameData[] = [];
  const light: FrameData[] = [];
  for (const chunk of chunks) {
    if (!sameSampling(chunk.sampling, first.sampling)) throw invalid('the chunks differ in sampling');
    for (const [kind, out, frames] of [
      ['full', full, chunk.full],
      ['light', light, chunk.light],
    ] as const) {
      let previous = out.at(-1)?.time ?? Number.NEGATIVE_INFINITY;
      for (const f of frames) {
        if (!(f.time >= previous)) throw invalid(`${kind} times go backwards`);
        previous = f.time;
        out.push(f);
      }
    }
  }
  const merged = {
    sampling: { ...first.sampling },
    full: full.map((f, i) => ({ ...f, index: i })),
    light: light.map((f) => ({ ...f })),
  };
  indexLight(merged.full, merged.light);
  return merged;
}
