/**
 * The analysed frames of a session kept as columns while the recording is decoded (issue 10, memory): a frame
 * as `FrameData` objects costs ~2 KB, here it costs under 200 bytes (`FrameStore.BYTES_PER_FRAME`), so a worker's
 * memory stays flat over a long recording. The later passes read frames by index, materialising one frame (or a
 * small run of them) at a time.
 *
 * Precision: time (ms on the session clock), pose, expressions and eye features are Float64, as the analysis
 * computes them, because the summary, the series and the gaze fit read them at full precision. The box is
 * Float64 in multi-face mode (the session's tracker re-reads it) and Float32 otherwise, where only the frame
 * table (Float32 columns) reads it; the detection score and the brightness are Float32 (the frame table reads
 * the one, nothing in a session the other). Landmarks are not kept (a session never asks for them), nor the iris
 * diameter (the distance reads it as frames are decoded, decision 043); the action
 * units computed from them are, as Float32 (they are lengths in inter-ocular distances, read to 1e-4 at best).
 */
import { ACTION_UNITS, EXPRESSIONS, type FaceData, type FrameData, QUALITY_FLAGS } from './types.ts';

type Numbers = Float64Array | Float32Array | Uint32Array | Uint16Array | Uint8Array;
type NumbersType = new (length: number) => Numbers;

const CHUNK_BITS = 12;
const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

/**
 * A growable column in fixed chunks of 4096 values: appending never copies and at most one chunk stands partly
 * empty. A chunk is allocated on its first write, so a column never written (the multi-face columns of a
 * single-face session) costs nothing; unwritten values read as 0.
 */
class Column {
  private readonly chunks: (Numbers | undefined)[] = [];
  constructor(readonly type: NumbersType) {}

  get(i: number): number {
    return this.chunks[i >>> CHUNK_BITS]?.[i & MASK] ?? 0;
  }

  set(i: number, value: number): void {
    const c = i >>> CHUNK_BITS;
    let chunk = this.chunks[c];
    if (!chunk) {
      chunk = new this.type(CHUNK);
      this.chunks[c] = chunk;
    }
    chunk[i & MASK] = value;
  }

  /** A new column holding `order[k]`'s value at k. */
  permuted(order: ArrayLike<number>): Column {
    const out = new Column(this.type);
    for (let k = 0; k < order.length; k++) out.set(k, this.get(order[k] as number));
    return out;
  }

  get bytes(): number {
    return this.chunks.reduce((sum, c) => sum + (c?.byteLength ?? 0), 0);
  }
}

// Columns of a face, in this order: box x, y, width, height; score; yaw, pitch, roll; the 7 expressions; eyes
// left x, left y, right x, right y; the 8 action units, the eye aspect ratio and the mouth's width (NaN without one).
const SCORE = 4;
const POSE = 5;
const EXPR = 8;
const EYES = EXPR + EXPRESSIONS.length;
const UNITS = EYES + 4;
const EAR = UNITS + ACTION_UNITS.length;
const MOUTH = EAR + 1;

/** Whether a face has eyes and action units: bits of the frame (main face) or of the face table. */
const FACE_EYES = 1;
const FACE_UNITS = 2;

/** One face's numbers; whether it has eyes and units, and its track, live with the frame or the face table. */
class FaceColumns {
  constructor(readonly columns: Column[]) {}

  static create(boxType: NumbersType): FaceColumns {
    return new FaceColumns([
      ...Array.from({ length: 4 }, () => new Column(boxType)),
      new Column(Float32Array),
      ...Array.from({ length: 3 + EXPRESSIONS.length + 4 }, () => new Column(Float64Array)),
      ...Array.from({ length: ACTION_UNITS.length + 2 }, () => new Column(Float32Array)),
    ]);
  }

  /** Stores the face; returns its `FACE_EYES` / `FACE_UNITS` bits. */
  put(i: number, face: FaceData): number {
    const values = [
      face.box.x,
      face.box.y,
      face.box.width,
      face.box.height,
      face.score,
      face.pose.yaw,
      face.pose.pitch,
      face.pose.roll,
      ...EXPRESSIONS.map((e) => face.expressions[e]),
    ];
    for (const [k, v] of values.entries()) this.columns[k]?.set(i, v);
    let bits = 0;
    if (face.eyes) {
      bits |= FACE_EYES;
      const eyes = [face.eyes.left.x, face.eyes.left.y, face.eyes.right.x, face.eyes.right.y];
      for (const [k, v] of eyes.entries()) this.columns[EYES + k]?.set(i, v);
    }
    if (face.actionUnits) {
      bits |= FACE_UNITS;
      for (const [k, u] of ACTION_UNITS.entries()) this.columns[UNITS + k]?.set(i, face.actionUnits.units[u]);
      this.columns[EAR]?.set(i, face.actionUnits.eyeAspectRatio);
      this.columns[MOUTH]?.set(i, face.actionUnits.mouthWidth ?? Number.NaN);
    }
    return bits;
  }

  get(i: number, bits: number, track: number): FaceData {
    const v = (k: number) => this.columns[k]?.get(i) ?? 0;
    const expressions = {} as FaceData['expressions'];
    for (const [k, e] of EXPRESSIONS.entries()) expressions[e] = v(EXPR + k);
    const face: FaceData = {
      box: { x: v(0), y: v(1), width: v(2), height: v(3) },
      score: v(SCORE),
      landmarks: [],
      pose: { yaw: v(POSE), pitch: v(POSE + 1), roll: v(POSE + 2) },
      expressions,
      eyes:
        bits & FACE_EYES ? { left: { x: v(EYES), y: v(EYES + 1) }, right: { x: v(EYES + 2), y: v(EYES + 3) } } : null,
      actionUnits: null,
    };
    if (bits & FACE_UNITS) {
      const units = {} as Record<(typeof ACTION_UNITS)[number], number>;
      for (const [k, u] of ACTION_UNITS.entries()) units[u] = v(UNITS + k);
      const mouthWidth = v(MOUTH);
      face.actionUnits = { units, eyeAspectRatio: v(EAR), ...(Number.isFinite(mouthWidth) ? { mouthWidth } : {}) };
    }
    if (track > 0) face.track = track;
    return face;
  }

  permuted(order: ArrayLike<number>): FaceColumns {
    return new FaceColumns(this.columns.map((c) => c.permuted(order)));
  }
}

const HAS_FACE = 1 << 7;
/** The main face's `FACE_EYES` / `FACE_UNITS` bits, shifted by this. */
const MAIN_FACE_SHIFT = 8;
/** The frame carries a `faces` list (multi-face mode). */
const HAS_FACES = 1 << 10;

export interface FrameStoreOptions {
  /** Multi-face frames: boxes are kept at full precision for the session's tracker. */
  multiFace?: boolean;
}

/**
 * The frames of a session as columns, appended in decoding order, read back by index (`frame(i)`) after
 * `sortByTime`. In multi-face mode the main face sits in the frame's columns and the frame's other faces in a
 * face table (their order and the main face's place among them kept), each face with its track id.
 */
export class FrameStore {
  /** Bytes per frame of a single-face session (the frame columns). */
  static readonly BYTES_PER_FRAME = 8 + 4 + 2 + 2 + 4 + 4 * 4 + 4 + 3 * 8 + 7 * 8 + 4 * 8 + 10 * 4;
  length = 0;
  /** Faces in the frames' `faces` lists, the main faces included: the rows of the frame table's face table. */
  faceRows = 0;

  private ms = new Column(Float64Array);
  private index = new Column(Uint32Array);
  private faceCount = new Column(Uint16Array);
  private bits = new Column(Uint16Array);
  private brightness = new Column(Float32Array);
  private main: FaceColumns;
  // Multi-face: the main face's track (0 none), where the frame's other faces start in the face table, how many
  // faces the frame lists, and the main face's place among them plus one (0: not among them).
  private track = new Column(Uint16Array);
  private facesStart = new Column(Uint32Array);
  private facesTotal = new Column(Uint16Array);
  private mainAt = new Column(Uint16Array);
  private others: FaceColumns;
  private otherBits = new Column(Uint8Array);
  private otherTrack = new Column(Uint16Array);
  private othersLength = 0;

  constructor(options: FrameStoreOptions = {}) {
    const boxType = options.multiFace ? Float64Array : Float32Array;
    this.main = FaceColumns.create(boxType);
    this.others = FaceColumns.create(Float64Array);
  }

  /** Appends a frame at `ms` on the session clock (its `time` is not read: `frame(i).time` is `ms / 1000`). */
  push(frame: FrameData, ms: number): void {
    const i = this.length;
    this.ms.set(i, ms);
    this.index.set(i, frame.index);
    this.faceCount.set(i, frame.faceCount);
    this.brightness.set(i, frame.brightness);
    let bits = 0;
    for (const [k, flag] of QUALITY_FLAGS.entries()) if (frame.flags.includes(flag)) bits |= 1 << k;
    if (frame.face) {
      bits |= HAS_FACE | (this.main.put(i, frame.face) << MAIN_FACE_SHIFT);
      if (frame.face.track !== undefined) this.track.set(i, frame.face.track);
    }
    if (frame.faces) {
      bits |= HAS_FACES;
      const at = frame.face ? frame.faces.indexOf(frame.face) : -1;
      this.facesStart.set(i, this.othersLength);
      this.facesTotal.set(i, frame.faces.length);
      this.mainAt.set(i, at + 1);
      for (const [k, face] of frame.faces.entries()) {
        if (k === at) continue;
        const j = this.othersLength++;
        this.otherBits.set(j, this.others.put(j, face));
        if (face.track !== undefined) this.otherTrack.set(j, face.track);
      }
      this.faceRows += frame.faces.length;
    }
    this.bits.set(i, bits);
    this.length++;
  }

  /** ms on the session clock of frame `i`. */
  msAt(i: number): number {
    return this.ms.get(i);
  }

  /** Frame `i` as `FrameData` (a new object each call; `time` in seconds, `landmarks` empty). */
  frame(i: number): FrameData {
    if (!(i >= 0 && i < this.length)) throw new RangeError(`No frame ${i} of ${this.length}`);
    const bits = this.bits.get(i);
    const face =
      bits & HAS_FACE
        ? this.main.get(i, (bits >> MAIN_FACE_SHIFT) & (FACE_EYES | FACE_UNITS), this.track.get(i))
        : null;
    const frame: FrameData = {
      index: this.index.get(i),
      time: this.ms.get(i) / 1000,
      faceCount: this.faceCount.get(i),
      face,
      brightness: this.brightness.get(i),
      // In `QUALITY_FLAGS` order, which is `qualityFlags`' order.
      flags: QUALITY_FLAGS.filter((_, k) => bits & (1 << k)),
    };
    if (bits & HAS_FACES) {
      const total = this.facesTotal.get(i);
      const at = this.mainAt.get(i) - 1;
      let j = this.facesStart.get(i);
      const faces: FaceData[] = [];
      for (let k = 0; k < total; k++) {
        if (k === at && face) faces.push(face);
        else {
          faces.push(this.others.get(j, this.otherBits.get(j), this.otherTrack.get(j)));
          j++;
        }
      }
      frame.faces = faces;
    }
    return frame;
  }

  /** Frames `start` … `end - 1`, materialised. */
  frames(start: number, end: number): FrameData[] {
    const out: FrameData[] = [];
    for (let i = Math.max(0, start); i < Math.min(end, this.length); i++) out.push(this.frame(i));
    return out;
  }

  /** Frames `start` … `end - 1`, one at a time (nothing kept between them). */
  *iterate(start = 0, end = this.length): Generator<FrameData> {
    for (let i = Math.max(0, start); i < Math.min(end, this.length); i++) yield this.frame(i);
  }

  /** Writes back the `track` ids of a frame materialised from row `i` (after a tracker set them). */
  setTracks(i: number, frame: FrameData): void {
    if (frame.face) this.track.set(i, frame.face.track ?? 0);
    if (!frame.faces || !(this.bits.get(i) & HAS_FACES)) return;
    const at = this.mainAt.get(i) - 1;
    let j = this.facesStart.get(i);
    for (const [k, face] of frame.faces.entries()) {
      if (k === at && frame.face) continue;
      this.otherTrack.set(j++, face.track ?? 0);
    }
  }

  /** Orders the frames by time, stably (decoding order already is, unless segment files overlap). */
  sortByTime(): void {
    let sorted = true;
    for (let i = 1; i < this.length && sorted; i++) sorted = this.ms.get(i - 1) <= this.ms.get(i);
    if (sorted) return;
    const order = Array.from({ length: this.length }, (_, i) => i).sort(
      (a, b) => this.ms.get(a) - this.ms.get(b) || a - b,
    );
    const columns = [
      'ms',
      'index',
      'faceCount',
      'bits',
      'brightness',
      'track',
      'facesStart',
      'facesTotal',
      'mainAt',
    ] as const;
    for (const name of columns) this[name] = this[name].permuted(order);
    this.main = this.main.permuted(order);
  }

  /** The first frame at or after `ms` (frames sorted by time); `length` when none. */
  firstAtOrAfter(ms: number): number {
    return this.search((t) => t >= ms);
  }

  /** The first frame after `ms` (frames sorted by time); `length` when none. */
  firstAfter(ms: number): number {
    return this.search((t) => t > ms);
  }

  private search(past: (t: number) => boolean): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (past(this.ms.get(mid))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Bytes the columns hold (allocated chunks). */
  get bytes(): number {
    const columns = [
      this.ms,
      this.index,
      this.faceCount,
      this.bits,
      this.brightness,
      this.track,
      this.facesStart,
      this.facesTotal,
      this.mainAt,
      this.otherBits,
      this.otherTrack,
      ...this.main.columns,
      ...this.others.columns,
    ];
    return columns.reduce((sum, c) => sum + c.bytes, 0);
  }
}
