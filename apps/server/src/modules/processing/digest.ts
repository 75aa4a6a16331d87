import { REPORT_METRICS, type ReportMetric } from '@emolens/contracts';
import { decodeFramesTable, EXPRESSIONS, type Expression, FRAME_FLAGS, type PerSecondSeries } from '@emolens/engine';

/**
 * What a report reads of a result, kept beside it as raw float32 so a build neither decompresses frames nor parses
 * the per-second series' JSON (decision 015: those alone took longer than a whole build may):
 *  - the respondent's resting expressions: the mean of each over the good frames before the content (calibration);
 *  - the per-second buckets of the series with the report's metrics and the mean gaze, column by column;
 *  - every gaze sample on a content item.
 * Layout, little-endian float32 (NaN for a missing value):
 *
 *   version (2), resting frames, 7 resting means, buckets m, samples n,
 *   m items, m steps, m seconds, m values of each REPORT_METRICS metric in order, m gaze x, m gaze y,
 *   n × (t, item, x, y)
 *
 * t in session seconds; gaze in the item's natural pixels; a step is a website task's progress (steps reached).
 * Version 1 had no steps, version 2 no smile index: a result with an older digest gets a new one made at its next
 * report (`isCurrentDigest`).
 */
export const DIGEST_VERSION = 3;
const HEAD = 2 + EXPRESSIONS.length + 2;
const BUCKET_COLUMNS = 3 + REPORT_METRICS.length + 2;
/** The bytes of a digest's head — its version and resting means: all `isCurrentDigest` and `restingHappyOf` read. */
export const DIGEST_HEAD_BYTES = HEAD * 4;

/** Whether stored digest bytes are of the layout this code reads. */
export function isCurrentDigest(bytes: Uint8Array | null): bytes is Uint8Array {
  return (
    !!bytes &&
    bytes.byteLength >= 4 &&
    new DataView(bytes.buffer, bytes.byteOffset, 4).getFloat32(0, true) === DIGEST_VERSION
  );
}

/** Valid gaze samples, column by column, in time order: seconds and content pixels. */
export interface GazeTrack {
  length: number;
  t: ArrayLike<number>;
  x: ArrayLike<number>;
  y: ArrayLike<number>;
}

/** The per-second buckets (the series' order): item, step, second, each metric, mean gaze; NaN where none. */
export interface DigestBuckets {
  length: number;
  item: Float32Array;
  step: Float32Array;
  second: Float32Array;
  metrics: Record<ReportMetric, Float32Array>;
  gazeX: Float32Array;
  gazeY: Float32Array;
}

export interface ReportDigest {
  resting: Record<Expression, number | null>;
  buckets: DigestBuckets;
  /** Per item, its gaze samples in time order. */
  gaze: Map<number, GazeTrack>;
}

type SeriesPart = Pick<
  PerSecondSeries,
  'item' | 'step' | 'second' | 'engagement' | 'valence' | 'attention' | 'smile' | 'expressions' | 'gazeX' | 'gazeY'
>;

/** A metric's per-second values; a series stored before the engine had a smile index has none (all missing). */
const metricColumn = (series: SeriesPart, metric: ReportMetric): readonly (number | null)[] =>
  metric === 'engagement' || metric === 'valence' || metric === 'attention' || metric === 'smile'
    ? (series[metric] ?? [])
    : series.expressions[metric];

export function reportDigest(frames: Uint8Array, series: SeriesPart, contentStartMs: number): Uint8Array {
  const table = decodeFramesTable(frames);
  const c = table.columns;
  const start = contentStartMs / 1000;
  const sums = new Float64Array(EXPRESSIONS.length);
  let restingFrames = 0;
  const samples: number[] = [];
  for (let i = 0; i < table.rows; i++) {
    const time = c.time[i] as number;
    if (time < start) {
      const good = ((c.flags[i] as number) & FRAME_FLAGS.bad) === 0;
      if (good && Number.isFinite(c.happy[i] as number)) {
        restingFrames++;
        EXPRESSIONS.forEach((e, k) => {
          sums[k] = (sums[k] as number) + (c[e][i] as number);
        });
      }
      continue;
    }
    if (table.gaze) continue;
    const item = c.item[i] as number;
    const x = c.content_x[i] as number;
    const y = c.content_y[i] as number;
    if (item >= 0 && Number.isFinite(x) && Number.isFinite(y)) samples.push(time, item, x, y);
  }
  // The gaze track, when the session has one, holds every analysed frame's gaze (up to 30 Hz, decision 049); the
  // frame table's (10 Hz) serves sessions analysed before it.
  if (table.gaze) {
    const g = table.gaze.columns;
    for (let i = 0; i < table.gaze.rows; i++) {
      const time = g.time[i] as number;
      const item = g.item[i] as number;
      const x = g.content_x[i] as number;
      const y = g.content_y[i] as number;
      if (time >= start && item >= 0 && Number.isFinite(x) && Number.isFinite(y)) samples.push(time, item, x, y);
    }
  }
  const m = series.second.length;
  const out = new Float32Array(HEAD + m * BUCKET_COLUMNS + samples.length);
  out[0] = DIGEST_VERSION;
  out[1] = restingFrames;
  EXPRESSIONS.forEach((_, k) => {
    out[2 + k] = restingFrames ? (sums[k] as number) / restingFrames : Number.NaN;
  });
  out[HEAD - 2] = m;
  out[HEAD - 1] = samples.length / 4;
  const columns: readonly (readonly (number | null | undefined)[])[] = [
    series.item,
    series.step,
    series.second,
    ...REPORT_METRICS.map((metric) => metricColumn(series, metric)),
    series.gazeX,
    series.gazeY,
  ];
  columns.forEach((values, col) => {
    for (let k = 0; k < m; k++) out[HEAD + col * m + k] = values[k] ?? Number.NaN;
  });
  out.set(samples, HEAD + m * BUCKET_COLUMNS);
  return new Uint8Array(out.buffer);
}

const HAPPY = 2 + EXPRESSIONS.indexOf('happy');

/** The resting happy score alone (what the happy filter reads), from a current digest's bytes without reading it. */
export function restingHappyOf(bytes: Uint8Array): number | null {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getFloat32(HAPPY * 4, true);
  return Number.isFinite(v) ? v : null;
}

/**
 * The digest read. `own`: the bytes are the reader's to keep (the build's thread, which was handed them), so the
 * buckets are read in place where they are 4-byte aligned; otherwise from a copy on a fresh buffer (the driver's bytes
 * need not be aligned, nor stay as they are).
 */
export function readDigest(bytes: Uint8Array, options: { own?: boolean } = {}): ReportDigest {
  const f =
    options.own && bytes.byteOffset % 4 === 0 && bytes.byteLength % 4 === 0
      ? new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)
      : new Float32Array(new Uint8Array(bytes).buffer);
  if (f[0] !== DIGEST_VERSION) throw new Error(`unknown report digest version ${f[0]}`);
  const resting = Object.fromEntries(
    EXPRESSIONS.map((e, k) => {
      const v = f[2 + k] as number;
      return [e, Number.isFinite(v) ? v : null];
    }),
  ) as Record<Expression, number | null>;
  const m = f[HEAD - 2] as number;
  const n = f[HEAD - 1] as number;
  const col = (i: number) => f.subarray(HEAD + i * m, HEAD + (i + 1) * m);
  const buckets: DigestBuckets = {
    length: m,
    item: col(0),
    step: col(1),
    second: col(2),
    metrics: Object.fromEntries(REPORT_METRICS.map((metric, i) => [metric, col(3 + i)])) as Record<
      ReportMetric,
      Float32Array
    >,
    gazeX: col(3 + REPORT_METRICS.length),
    gazeY: col(4 + REPORT_METRICS.length),
  };
  // Per item, its samples copied into columns of their own (two passes: count, then fill). Samples come in blocks of
  // one item (frame order): the map is touched once a block, not once a sample.
  const base = HEAD + m * BUCKET_COLUMNS;
  const counts = new Map<number, number>();
  for (let i = 0; i < n; ) {
    const item = f[base + 4 * i + 1] as number;
    let end = i + 1;
    while (end < n && f[base + 4 * end + 1] === item) end++;
    counts.set(item, (counts.get(item) ?? 0) + end - i);
    i = end;
  }
  const gaze = new Map<number, GazeTrack & { t: Float32Array; x: Float32Array; y: Float32Array }>();
  for (const [item, count] of counts) {
    gaze.set(item, { length: 0, t: new Float32Array(count), x: new Float32Array(count), y: new Float32Array(count) });
  }
  // Samples come in blocks of one item (frame order): look the track up only when the item changes.
  let item = Number.NaN;
  let track: (GazeTrack & { t: Float32Array; x: Float32Array; y: Float32Array }) | undefined;
  for (let i = 0, at = base; i < n; i++, at += 4) {
    if (f[at + 1] !== item) {
      item = f[at + 1] as number;
      track = gaze.get(item);
    }
    if (!track) continue;
    const k = track.length++;
    track.t[k] = f[at] as number;
    track.x[k] = f[at + 2] as number;
    track.y[k] = f[at + 3] as number;
  }
  return { resting, buckets, gaze };
}

/**
 * The digest with its gaze (mean gaze per bucket and every sample) scaled per item by `scales` (x and y factors):
 * another research's items mapped onto a pooled report's (decision 019). Items without a factor keep their pixels.
 * The digest's arrays are its own (`readDigest` copies, or reads bytes that are its own), so they are scaled in place.
 */
export function rescaledGaze(
  digest: ReportDigest,
  scales: ReadonlyMap<number, { x: number; y: number }>,
): ReportDigest {
  const b = digest.buckets;
  for (let k = 0; k < b.length; k++) {
    const scale = scales.get(b.item[k] as number);
    if (!scale) continue;
    b.gazeX[k] = (b.gazeX[k] as number) * scale.x;
    b.gazeY[k] = (b.gazeY[k] as number) * scale.y;
  }
  for (const [item, track] of digest.gaze) {
    const scale = scales.get(item);
    if (!scale) continue;
    const { x, y } = track as GazeTrack & { x: Float32Array; y: Float32Array };
    for (let i = 0; i < track.length; i++) {
      x[i] = (x[i] as number) * scale.x;
      y[i] = (y[i] as number) * scale.y;
    }
  }
  return digest;
}
