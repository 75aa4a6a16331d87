/**
 * The per-frame data of a session as the server stores it (design section 7): binary columns, little-endian,
 * gzip. Layout before compression:
 *
 *   "EMLF"  u32 header length  header (UTF-8 JSON)  column bytes, in header order
 *
 * The header names every column with its type and the row counts: `{ format, version, rows, columns,
 * faces: { rows, columns } | null, gaze?: { rows, columns } | null }`: the frame table, the multi-face table and the
 * gaze track (every analysed frame's gaze, at the recording's rate up to 30 fps, decision 049; absent in data
 * written before it, whose gaze is the frame table's). Each f32 column is stored byte-planed (all first bytes of the column,
 * then all second bytes, …): the sign/exponent bytes of slowly changing values then sit together and gzip
 * finds the repeats (`planes: true` in the header). Decoding reads only what the header says, so columns can
 * be added in later versions without breaking old readers of old data.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { EXPRESSIONS, type Expression, type QualityFlag } from './types.ts';

export const FRAMES_FORMAT = 'emolens-frames';
export const FRAMES_VERSION = 1;
const MAGIC = 'EMLF';

export type ColumnType = 'f32' | 'u8' | 'i16' | 'u16' | 'u32';
type ColumnArray = Float32Array | Uint8Array | Int16Array | Uint16Array | Uint32Array;

const EXPRESSION_COLUMNS = EXPRESSIONS.map((e) => [e, 'f32'] as const);

/** One face's reading, in the frame table (the main face) and in the face table alike. */
const FACE_READING_COLUMNS = [
  ['box_x', 'f32'],
  ['box_y', 'f32'],
  ['box_w', 'f32'],
  ['box_h', 'f32'],
  ['score', 'f32'],
  ['yaw', 'f32'],
  ['pitch', 'f32'],
  ['roll', 'f32'],
  ...EXPRESSION_COLUMNS,
] as const;

/** Where a frame's gaze fell, in the frame table and the gaze track alike. */
const GAZE_READING_COLUMNS = [
  /** Screen CSS pixels; NaN without gaze. */
  ['gaze_x', 'f32'],
  ['gaze_y', 'f32'],
  /** Content item index on screen; -1 none (calibration, between items). */
  ['item', 'i16'],
  /** Gaze in the item's natural pixels; NaN without gaze or item. */
  ['content_x', 'f32'],
  ['content_y', 'f32'],
] as const;

/** The frame table: one row per analysed frame. */
export const FRAME_COLUMNS = [
  /** Seconds on the session clock. */
  ['time', 'f32'],
  ['face_count', 'u8'],
  /** `FRAME_FLAGS` bits. */
  ['flags', 'u8'],
  /** The main face's box, analysis-frame pixels; NaN without a face (likewise score, pose, expressions). */
  ...FACE_READING_COLUMNS,
  /**
   * The smile index (`frameSmile`: smoothed, against the respondent's resting face), 0..1; NaN outside the research
   * window and on frames without a reading.
   */
  ['smile', 'f32'],
  ...GAZE_READING_COLUMNS,
] as const satisfies readonly (readonly [string, ColumnType])[];

/** Multi-face: one row per face per frame. */
export const FACE_COLUMNS = [
  /** Row of the frame table. */
  ['frame', 'u32'],
  ['track', 'u16'],
  ...FACE_READING_COLUMNS,
] as const satisfies readonly (readonly [string, ColumnType])[];

/**
 * The gaze track: one row per analysed frame, full and light (the frame table holds the full frames only), in time
 * order. The full frames' rows repeat their gaze columns.
 */
export const GAZE_COLUMNS = [
  /** Seconds on the session clock. */
  ['time', 'f32'],
  ...GAZE_READING_COLUMNS,
] as const satisfies readonly (readonly [string, ColumnType])[];

export type FrameColumn = (typeof FRAME_COLUMNS)[number][0];
export type FaceColumn = (typeof FACE_COLUMNS)[number][0];
export type GazeColumn = (typeof GAZE_COLUMNS)[number][0];

export const FRAME_FLAGS = {
  no_face: 1,
  several_faces: 2,
  head_turned: 4,
  too_dark: 8,
  bad: 16,
  face_cut: 32,
  face_small: 64,
  too_bright: 128,
} as const;

export interface FramesTable {
  rows: number;
  columns: Record<FrameColumn, ColumnArray>;
  faces: { rows: number; columns: Record<FaceColumn, ColumnArray> } | null;
  /** The gaze track; null in data written before it (decision 049) and in sessions without one. */
  gaze: { rows: number; columns: Record<GazeColumn, ColumnArray> } | null;
}

/** One row of the gaze track. */
export interface GazeRow {
  time: number;
  gaze: { x: number; y: number } | null;
  item: number;
  content: { x: number; y: number } | null;
}

/** One frame as the session analysis hands it over; missing values are NaN / null. */
export interface FrameRow {
  time: number;
  faceCount: number;
  flags: readonly QualityFlag[];
  bad: boolean;
  face: {
    box: { x: number; y: number; width: number; height: number };
    score: number;
    pose: { yaw: number; pitch: number; roll: number };
    expressions: Record<Expression, number>;
  } | null;
  /** The smile index (`frameSmile`); null or absent without one. */
  smile?: number | null;
  gaze: { x: number; y: number } | null;
  item: number;
  content: { x: number; y: number } | null;
}

export interface FaceRow {
  frame: number;
  track: number;
  face: NonNullable<FrameRow['face']>;
}

const ARRAYS: Record<ColumnType, new (n: number) => ColumnArray> = {
  f32: Float32Array,
  u8: Uint8Array,
  i16: Int16Array,
  u16: Uint16Array,
  u32: Uint32Array,
};

function allocate<C extends string>(spec: readonly (readonly [C, ColumnType])[], rows: number): Record<C, ColumnArray> {
  return Object.fromEntries(spec.map(([name, type]) => [name, new ARRAYS[type](rows)])) as Record<C, ColumnArray>;
}

function putFace(columns: Record<string, ColumnArray>, i: number, face: FrameRow['face']): void {
  const set = (name: string, value: number) => {
    (columns[name] as ColumnArray)[i] = value;
  };
  set('box_x', face?.box.x ?? Number.NaN);
  set('box_y', face?.box.y ?? Number.NaN);
  set('box_w', face?.box.width ?? Number.NaN);
  set('box_h', face?.box.height ?? Number.NaN);
  set('score', face?.score ?? Number.NaN);
  set('yaw', face?.pose.yaw ?? Number.NaN);
  set('pitch', face?.pose.pitch ?? Number.NaN);
  set('roll', face?.pose.roll ?? Number.NaN);
  for (const e of EXPRESSIONS) set(e, face?.expressions[e] ?? Number.NaN);
}

/** Rows into columns. */
export function framesTable(
  frames: readonly FrameRow[],
  faces: readonly FaceRow[] | null = null,
  gaze: readonly GazeRow[] | null = null,
): FramesTable {
  const table = emptyFramesTable(frames.length, faces ? faces.length : null, gaze ? gaze.length : null);
  for (const [i, f] of frames.entries()) putFrameRow(table, i, f);
  for (const [i, f] of (faces ?? []).entries()) putFaceRow(table, i, f);
  for (const [i, g] of (gaze ?? []).entries()) putGazeRow(table, i, g);
  return table;
}

/**
 * A table of `rows` frames (and `faceRows` faces, `gazeRows` gaze samples, or no such table) to fill row by row with
 * `putFrameRow`, `putFaceRow` and `putGazeRow`.
 */
export function emptyFramesTable(
  rows: number,
  faceRows: number | null = null,
  gazeRows: number | null = null,
): FramesTable {
  return {
    rows,
    columns: allocate(FRAME_COLUMNS, rows),
    faces: faceRows === null ? null : { rows: faceRows, columns: allocate(FACE_COLUMNS, faceRows) },
    gaze: gazeRows === null ? null : { rows: gazeRows, columns: allocate(GAZE_COLUMNS, gazeRows) },
  };
}

export function putFrameRow(table: FramesTable, i: number, f: FrameRow): void {
  const { columns } = table;
  columns.time[i] = f.time;
  columns.face_count[i] = Math.min(255, f.faceCount);
  let flags = f.bad ? FRAME_FLAGS.bad : 0;
  for (const flag of f.flags) flags |= FRAME_FLAGS[flag];
  columns.flags[i] = flags;
  putFace(columns, i, f.face);
  columns.smile[i] = f.smile ?? Number.NaN;
  putGazeReading(columns, i, f);
}

export function putFaceRow(table: FramesTable, i: number, f: FaceRow): void {
  const fc = table.faces?.columns;
  if (!fc) throw new RangeError('The frames table has no face table');
  fc.frame[i] = f.frame;
  fc.track[i] = f.track;
  putFace(fc, i, f.face);
}

export function putGazeRow(table: FramesTable, i: number, g: GazeRow): void {
  const gc = table.gaze?.columns;
  if (!gc) throw new RangeError('The frames table has no gaze track');
  gc.time[i] = g.time;
  putGazeReading(gc, i, g);
}

function putGazeReading(
  columns: Record<GazeColumn, ColumnArray>,
  i: number,
  g: Pick<GazeRow, 'gaze' | 'item' | 'content'>,
): void {
  columns.gaze_x[i] = g.gaze?.x ?? Number.NaN;
  columns.gaze_y[i] = g.gaze?.y ?? Number.NaN;
  columns.item[i] = g.item;
  columns.content_x[i] = g.content?.x ?? Number.NaN;
  columns.content_y[i] = g.content?.y ?? Number.NaN;
}

interface Header {
  format: string;
  version: number;
  planes: boolean;
  rows: number;
  columns: [string, ColumnType][];
  faces: { rows: number; columns: [string, ColumnType][] } | null;
  gaze?: { rows: number; columns: [string, ColumnType][] } | null;
}

/** Bytes of one column, little-endian; f32 byte-planed. */
function columnBytes(array: ColumnArray, type: ColumnType): Uint8Array {
  const view = new DataView(new ArrayBuffer(array.length * array.BYTES_PER_ELEMENT));
  array.forEach((v, i) => {
    if (type === 'f32') view.setFloat32(i * 4, v, true);
    else if (type === 'u8') view.setUint8(i, v);
    else if (type === 'i16') view.setInt16(i * 2, v, true);
    else if (type === 'u16') view.setUint16(i * 2, v, true);
    else view.setUint32(i * 4, v, true);
  });
  const bytes = new Uint8Array(view.buffer);
  if (type !== 'f32') return bytes;
  const n = array.length;
  const planed = new Uint8Array(bytes.length);
  for (let i = 0; i < n; i++) for (let b = 0; b < 4; b++) planed[b * n + i] = bytes[i * 4 + b] as number;
  return planed;
}

function readColumn(bytes: Uint8Array, offset: number, rows: number, type: ColumnType, planes: boolean): ColumnArray {
  const size = new ARRAYS[type](0).BYTES_PER_ELEMENT;
  const length = rows * size;
  if (offset + length > bytes.length) throw new RangeError('The frames data is truncated');
  let raw = bytes.subarray(offset, offset + length);
  if (type === 'f32' && planes) {
    const unplaned = new Uint8Array(length);
    for (let i = 0; i < rows; i++) for (let b = 0; b < 4; b++) unplaned[i * 4 + b] = raw[b * rows + i] as number;
    raw = unplaned;
  }
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const out = new ARRAYS[type](rows);
  for (let i = 0; i < rows; i++) {
    if (type === 'f32') out[i] = view.getFloat32(i * 4, true);
    else if (type === 'u8') out[i] = view.getUint8(i);
    else if (type === 'i16') out[i] = view.getInt16(i * 2, true);
    else if (type === 'u16') out[i] = view.getUint16(i * 2, true);
    else out[i] = view.getUint32(i * 4, true);
  }
  return out;
}

/** The table as gzip-compressed binary columns. */
export function encodeFrames(table: FramesTable): Uint8Array {
  const header: Header = {
    format: FRAMES_FORMAT,
    version: FRAMES_VERSION,
    planes: true,
    rows: table.rows,
    columns: FRAME_COLUMNS.map(([n, t]) => [n, t]),
    faces: table.faces ? { rows: table.faces.rows, columns: FACE_COLUMNS.map(([n, t]) => [n, t]) } : null,
    gaze: table.gaze ? { rows: table.gaze.rows, columns: GAZE_COLUMNS.map(([n, t]) => [n, t]) } : null,
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const parts: Uint8Array[] = [new TextEncoder().encode(MAGIC)];
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, json.length, true);
  parts.push(length, json);
  for (const [name, type] of FRAME_COLUMNS) parts.push(columnBytes(table.columns[name], type));
  if (table.faces) for (const [name, type] of FACE_COLUMNS) parts.push(columnBytes(table.faces.columns[name], type));
  if (table.gaze) for (const [name, type] of GAZE_COLUMNS) parts.push(columnBytes(table.gaze.columns[name], type));
  return new Uint8Array(gzipSync(Buffer.concat(parts), { level: 9 }));
}

/** `encodeFrames`' bytes back into columns. Throws a RangeError on data that is not a frames table. */
export function decodeFramesTable(data: Uint8Array): FramesTable {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(gunzipSync(data));
  } catch (error) {
    throw new RangeError('The frames data is not gzip', { cause: error });
  }
  if (new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC || bytes.length < 8) {
    throw new RangeError('The frames data has no EMLF header');
  }
  const headerLength = new DataView(bytes.buffer, bytes.byteOffset + 4, 4).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength))) as Header;
  if (header.format !== FRAMES_FORMAT || header.version > FRAMES_VERSION) {
    throw new RangeError(`Unsupported frames data: ${header.format} version ${header.version}`);
  }
  let offset = 8 + headerLength;
  const read = <C extends string>(
    spec: [string, ColumnType][],
    rows: number,
    wanted: readonly (readonly [C, ColumnType])[],
  ) => {
    const found: Record<string, ColumnArray> = {};
    for (const [name, type] of spec) {
      const column = readColumn(bytes, offset, rows, type, header.planes);
      offset += column.byteLength;
      found[name] = column;
    }
    // Columns a newer writer left out (or an older one did not have) read as missing values.
    for (const [name, type] of wanted)
      if (!found[name]) found[name] = new ARRAYS[type](rows).fill(type === 'f32' ? Number.NaN : 0);
    return found as Record<C, ColumnArray>;
  };
  const columns = read(header.columns, header.rows, FRAME_COLUMNS);
  const faces = header.faces
    ? { rows: header.faces.rows, columns: read(header.faces.columns, header.faces.rows, FACE_COLUMNS) }
    : null;
  const gaze = header.gaze
    ? { rows: header.gaze.rows, columns: read(header.gaze.columns, header.gaze.rows, GAZE_COLUMNS) }
    : null;
  return { rows: header.rows, columns, faces, gaze };
}

const FLAG_NAMES = Object.keys(FRAME_FLAGS) as (keyof typeof FRAME_FLAGS)[];

/** The names of a frame's `flags` bits, in `FRAME_FLAGS` order. */
export function frameFlagNames(bits: number): (keyof typeof FRAME_FLAGS)[] {
  return FLAG_NAMES.filter((f) => bits & FRAME_FLAGS[f]);
}

function cell(value: number, type: ColumnType): string {
  if (type !== 'f32') return String(value);
  return Number.isNaN(value) ? '' : String(Math.round(value * 1e4) / 1e4);
}

/**
 * One table as CSV: the frames (flags spelled out), the faces (multi-face) or the gaze track; empty cells for missing
 * values. An empty string for a table the session does not have.
 */
export function framesToCsv(input: Uint8Array | FramesTable, which: 'frames' | 'faces' | 'gaze' = 'frames'): string {
  const table = input instanceof Uint8Array ? decodeFramesTable(input) : input;
  if (which !== 'frames') {
    const part = which === 'faces' ? table.faces : table.gaze;
    if (!part) return '';
    const spec: readonly (readonly [string, ColumnType])[] = which === 'faces' ? FACE_COLUMNS : GAZE_COLUMNS;
    const columns = part.columns as Record<string, ColumnArray>;
    const lines = [spec.map(([n]) => n).join(',')];
    for (let i = 0; i < part.rows; i++) {
      lines.push(spec.map(([name, type]) => cell(columns[name]?.[i] as number, type)).join(','));
    }
    return `${lines.join('\n')}\n`;
  }
  const lines: string[] = [FRAME_COLUMNS.map(([n]) => n).join(',')];
  for (let i = 0; i < table.rows; i++) {
    lines.push(
      FRAME_COLUMNS.map(([name, type]) => {
        const value = table.columns[name][i] as number;
        if (name === 'flags') return frameFlagNames(value).join(' ');
        return cell(value, type);
      }).join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The table as JSON-ready objects: one per frame (flags as names, null for missing values), faces and gaze apart. */
export function framesToJson(input: Uint8Array | FramesTable): {
  frames: Record<string, number | string[] | null>[];
  faces: Record<string, number | null>[];
  gaze: Record<string, number | null>[];
} {
  const table = input instanceof Uint8Array ? decodeFramesTable(input) : input;
  const value = (v: number) => (Number.isNaN(v) ? null : v);
  const frames = Array.from({ length: table.rows }, (_, i) =>
    Object.fromEntries(
      FRAME_COLUMNS.map(([name]) => {
        const v = table.columns[name][i] as number;
        return [name, name === 'flags' ? frameFlagNames(v) : value(v)];
      }),
    ),
  );
  const faces = table.faces
    ? Array.from({ length: table.faces.rows }, (_, i) =>
        Object.fromEntries(FACE_COLUMNS.map(([name]) => [name, value(table.faces?.columns[name][i] as number)])),
      )
    : [];
  const gaze = table.gaze
    ? Array.from({ length: table.gaze.rows }, (_, i) =>
        Object.fromEntries(GAZE_COLUMNS.map(([name]) => [name, value(table.gaze?.columns[name][i] as number)])),
      )
    : [];
  return { frames, faces, gaze };
}
