/**
 * Privacy mode's equivalence (issue 32, item 4; decision 070): the same recording analysed on the server (its video,
 * `analyzeSession`, as the worker analyses a respondent) and in the respondent's browser (the page's readings,
 * `analyzeReadings`), per-second series against per-second series, within decision 070's tolerance.
 *
 * A slow page drops frames (decision 065: dropped, never queued), and a per-second mean over fewer frames is another
 * mean; so the tolerance is enforced on what both read: the browser's series against the series of the server's
 * analysis of the video with its engine run on the very frames the browser read, in the same order (`readOnServer`'s
 * `only`). The browser against the whole video is measured too (decision 070).
 */
import {
  ACTION_UNITS,
  analyzeReadings,
  analyzeSession,
  createHuman,
  decodeReadings,
  EXPRESSIONS,
  encodeReadings,
  type FaceEngine,
  type FrameData,
  type FrameReadings,
  type PerSecondSeries,
  probeVideo,
  type SessionResult,
  type SessionTask,
} from '@emolens/engine';
import { DEFAULT_GAZE_FPS } from '@emolens/engine/browser/onnx';
import { captureReadings } from '../../../engine/test/readings-capture.ts';
import type { EquivalencePhantom } from './equivalence-phantom.ts';
import { pictureOf, readCode } from './frame-codes.ts';
import { phantomTask } from './run-engine.ts';

/**
 * The per-second series the report reads, each with its largest allowed difference on the frames both read (decision
 * 070, where the measured differences and their causes are). The expression model reads a face crop and agrees to
 * 1e-4; everything computed from the mesh's geometry (pose, the iris in the eye, action units, the smile index, gaze)
 * moves with the sub-pixel differences of Chromium's and ffmpeg's pictures, and a second holds 3–6 of the device's
 * frames on a loaded machine.
 */
export const EQUIVALENCE_TOLERANCE = {
  /** Expression scores, engagement, valence: 0..1 (valence −1..1). Measured ≤ 1.6e-4. */
  score: 1e-3,
  /** The smile index, 0..1. Measured ≤ 0.038. */
  smile: 0.08,
  /** Attention: a frame's gaze on or off the screen, frames of a second's 3–6 flipping. Measured ≤ 0.4. */
  attention: 0.6,
  /** Distracted and good frames' shares (the quality flags). Measured 0. */
  quality: 0.2,
  /** Gaze, screen px (1280 × 720): two calibrations on 25–45 frames each. Measured ≤ 303. */
  gazePx: 500,
  /** Action units and their changes, inter-ocular distances. Measured ≤ 0.018. */
  unit: 0.04,
  /** Head motion, degrees a second. Measured ≤ 0.85. */
  degreesPerSecond: 2.5,
  /** Blinks starting in a second: equal. */
  blinks: 0,
} as const;

type ToleranceKind = keyof typeof EQUIVALENCE_TOLERANCE;

/** A reading's time as a key (the readings' step, 0.1 ms). */
const timeKey = (t: number) => Math.round(t * 1e4);

/**
 * Per analysed frame, the browser's readings against the server's of the same slot showing the same picture (decision
 * 070). The per-second series cannot tell everything: a mirrored picture, say, is calibrated away in the gaze.
 */
export const FRAME_TOLERANCE = {
  /**
   * Head pose, degrees. With the page's engine starting afresh where the server's does (decision 073), measured
   * ≤ 0.0051 where the page keeps up (the readings' 0.01° step); a camera frame the page misses moves the tracking
   * until the detector's next run: ≤ 3.2 measured on a loaded machine before that (decision 070).
   */
  degrees: 5,
  /** The iris in the eye, eye widths. Measured ≤ 5.3e-5 (the readings' 1e-4 step); ≤ 0.021 as for the pose. */
  eyes: 0.04,
  /** Expression scores, 0..1. Measured ≤ 5e-5 (the readings' 1e-4 step); ≤ 5e-4 as for the pose. */
  score: 5e-3,
  /**
   * Mean luma, 0..1, of the same picture: the page converts the camera's planes as the server's decoder (decision
   * 073), so only the readings' 0.001 step is left (measured ≤ 0.0005; a canvas's conversion gave 0.0056).
   */
  brightness: 0.001,
} as const;

/**
 * The median per-frame difference: the tracking state the two share (decision 073). Measured 0.0023–0.0025° and
 * 2.4–2.6e-5 eye widths; without the page's restarts 0.088–0.13° and 0.0016–0.0022. Taken over the frames `SETTLED_SECONDS`
 * or more after the last slot where the two read different pictures: the tracked box carries over from frame to frame
 * (decision 078), so a picture read differently moves the two apart for a few frames (measured on a loaded machine,
 * over every frame: 0.105° and 0.0023).
 */
export const FRAME_MEDIAN_TOLERANCE = { pose: 0.05, eyes: 0.001 } as const;
/** How long after a slot read from different pictures the medians leave the frames out (`FRAME_MEDIAN_TOLERANCE`). */
export const SETTLED_SECONDS = 1;

/** Every per-second series of `PerSecondSeries` the report reads, by name, with its tolerance. */
export function reportSeries(s: PerSecondSeries): { name: string; kind: ToleranceKind; values: (number | null)[] }[] {
  const goodShare = s.frames.map((n, i) => (n > 0 ? (s.goodFrames[i] as number) / n : null));
  return [
    { name: 'engagement', kind: 'score', values: s.engagement },
    { name: 'valence', kind: 'score', values: s.valence },
    ...EXPRESSIONS.map((e) => ({ name: `expressions.${e}`, kind: 'score' as const, values: s.expressions[e] })),
    { name: 'smile', kind: 'smile', values: s.smile },
    { name: 'attention', kind: 'attention', values: s.attention },
    { name: 'distracted', kind: 'quality', values: s.distracted },
    { name: 'goodShare', kind: 'quality', values: goodShare },
    { name: 'gazeX', kind: 'gazePx', values: s.gazeX },
    { name: 'gazeY', kind: 'gazePx', values: s.gazeY },
    ...ACTION_UNITS.map((u) => ({ name: `actionUnits.${u}`, kind: 'unit' as const, values: s.actionUnits[u] })),
    ...ACTION_UNITS.map((u) => ({
      name: `actionUnitChanges.${u}`,
      kind: 'unit' as const,
      values: s.actionUnitChanges[u],
    })),
    { name: 'headMotion', kind: 'degreesPerSecond', values: s.headMotion },
    { name: 'blinks', kind: 'blinks', values: s.blinks },
  ];
}

export interface SeriesDifference {
  name: string;
  tolerance: number;
  /** Buckets where both have a value. */
  compared: number;
  /** Buckets where one has a value and the other none. */
  oneSided: number;
  max: number;
  /** The mean absolute difference over the compared buckets. */
  mean: number;
  /** The bucket (second) of the largest difference. */
  worstSecond: number | null;
}

/** Each report series of `a` against `b`; different bucket lists are an error (the windows differ). */
export function seriesDifferences(a: PerSecondSeries, b: PerSecondSeries): SeriesDifference[] {
  if (a.second.length !== b.second.length || a.second.some((s, i) => s !== b.second[i] || a.item[i] !== b.item[i]))
    throw new Error(`the two series have different buckets: ${a.second.join(',')} against ${b.second.join(',')}`);
  const bs = new Map(reportSeries(b).map((s) => [s.name, s.values]));
  return reportSeries(a).map(({ name, kind, values }) => {
    const other = bs.get(name) ?? [];
    let compared = 0;
    let oneSided = 0;
    let max = 0;
    let sum = 0;
    let worstSecond: number | null = null;
    for (const [i, x] of values.entries()) {
      const y = other[i] ?? null;
      if (x === null && y === null) continue;
      if (x === null || y === null) {
        oneSided++;
        continue;
      }
      const d = Math.abs(x - y);
      compared++;
      sum += d;
      if (d > max || worstSecond === null) {
        max = Math.max(max, d);
        if (d === max) worstSecond = a.second[i] ?? null;
      }
    }
    return {
      name,
      tolerance: EQUIVALENCE_TOLERANCE[kind],
      compared,
      oneSided,
      max,
      mean: compared ? sum / compared : 0,
      worstSecond,
    };
  });
}

/** The differences over their tolerance (or with a bucket one side has and the other not), as lines to print. */
export function overTolerance(diffs: SeriesDifference[]): string[] {
  return diffs
    .filter((d) => d.oneSided > 0 || !(d.max <= d.tolerance))
    .map(
      (d) =>
        `${d.name}: largest difference ${d.max.toPrecision(3)} at second ${d.worstSecond} (tolerance ${d.tolerance})` +
        (d.oneSided ? `, ${d.oneSided} seconds with a value on one side only` : ''),
    );
}

export interface FrameDifferences {
  /** Frames compared (same slot, same picture, a face on both sides). */
  compared: number;
  /** Of the browser's frames: at a slot the server read too; there showing the same picture; one side only a face. */
  matched: number;
  samePicture: number;
  faceOnOneSide: number;
  /**
   * The browser's picture less the server's at the same slot, frames by that step: 0, or another for a full frame at a
   * slot whose own camera frame the page never saw (the reader takes the frame before it, or after it when it draws on
   * a canvas: decisions 065, 073); `unexplained`: frames with any other step, a clock gone wrong.
   */
  pictureSteps: { full: Record<string, number>; light: Record<string, number> };
  unexplained: { kind: 'full' | 'light'; time: number; browser: number; server: number }[];
  /** Largest and median absolute differences. */
  largest: Record<keyof typeof FRAME_DIFFERENCE_KIND, number>;
  /** Over the frames `SETTLED_SECONDS` or more after the last slot read from different pictures. */
  median: Record<keyof typeof FRAME_DIFFERENCE_KIND, number>;
  /** The frames the medians are taken over. */
  settled: number;
}

const FRAME_DIFFERENCE_KIND = {
  pose: 'degrees',
  eyes: 'eyes',
  expressions: 'score',
  brightness: 'brightness',
} as const satisfies Record<string, keyof typeof FRAME_TOLERANCE>;

/** The browser's full and light frames against the server's at the same slots (both pictured: `pictures`). */
export function frameDifferences(
  browser: { readings: FrameReadings; pictures: { full: number[]; light: number[] }; seen: readonly number[] },
  server: { readings: FrameReadings; pictures: { full: number[]; light: number[] } },
): FrameDifferences {
  const differences = () => ({
    pose: [] as number[],
    eyes: [] as number[],
    expressions: [] as number[],
    brightness: [] as number[],
  });
  const values = differences();
  const settledValues = differences();
  let settled = 0;
  // The server's frame at each slot, per kind.
  const slots = {
    full: new Map(server.readings.full.map((f, i) => [timeKey(f.time), i])),
    light: new Map(server.readings.light.map((f, i) => [timeKey(f.time), i])),
  };
  // The slots, full or light, where the two read different pictures: the tracking state parts there (decision 078).
  const parted = (['full', 'light'] as const).flatMap((kind) =>
    browser.readings[kind].flatMap((f, i) => {
      const j = slots[kind].get(timeKey(f.time));
      return j !== undefined && browser.pictures[kind][i] !== server.pictures[kind][j] ? [f.time] : [];
    }),
  );
  let matched = 0;
  let samePicture = 0;
  let faceOnOneSide = 0;
  const pictureSteps = { full: {} as Record<string, number>, light: {} as Record<string, number> };
  const unexplained: FrameDifferences['unexplained'] = [];
  const seen = new Set(browser.seen);
  for (const kind of ['full', 'light'] as const) {
    for (const [i, f] of browser.readings[kind].entries()) {
      const j = slots[kind].get(timeKey(f.time));
      if (j === undefined) continue;
      matched++;
      const p = browser.pictures[kind][i] as number;
      const q = server.pictures[kind][j] as number;
      pictureSteps[kind][p - q] = (pictureSteps[kind][p - q] ?? 0) + 1;
      const unseen = (from: number, to: number) =>
        Array.from({ length: to - from }, (_, k) => from + k).every((k) => !seen.has(k));
      // A full slot whose own camera frame the page never saw is read from the picture before it (the planes) or
      // after it (a canvas): allowed where every picture between that one and the server's went unseen.
      const jumpedOver = kind === 'full' && (p > q ? unseen(q, p) : unseen(p + 1, q + 1));
      if (p !== q && !jumpedOver) unexplained.push({ kind, time: f.time, browser: p, server: q });
      if (p !== q) continue;
      samePicture++;
      const isSettled = !parted.some((t) => t <= f.time && f.time - t < SETTLED_SECONDS);
      if (isSettled) settled++;
      const push = (k: keyof typeof values, v: number) => {
        values[k].push(v);
        if (isSettled) settledValues[k].push(v);
      };
      const g = server.readings[kind][j] as FrameData;
      push('brightness', Math.abs(f.brightness - g.brightness));
      if (!f.face !== !g.face) faceOnOneSide++;
      if (!f.face || !g.face) continue;
      const a = f.face;
      const b = g.face;
      for (const k of ['yaw', 'pitch', 'roll'] as const) push('pose', Math.abs(a.pose[k] - b.pose[k]));
      if (a.eyes && b.eyes)
        for (const side of ['left', 'right'] as const)
          for (const k of ['x', 'y'] as const) push('eyes', Math.abs(a.eyes[side][k] - b.eyes[side][k]));
      else if (!a.eyes !== !b.eyes) faceOnOneSide++;
      if (kind === 'full')
        for (const e of EXPRESSIONS) push('expressions', Math.abs(a.expressions[e] - b.expressions[e]));
    }
  }
  const stat = (from: typeof values, pick: (v: number[]) => number) =>
    Object.fromEntries(
      Object.entries(from).map(([k, v]) => [k, v.length ? pick(v) : 0]),
    ) as FrameDifferences['largest'];
  return {
    compared: values.brightness.length,
    matched,
    samePicture,
    faceOnOneSide,
    pictureSteps,
    unexplained,
    largest: stat(values, (v) => Math.max(...v)),
    median: stat(settledValues, (v) => [...v].sort((x, y) => x - y)[Math.floor(v.length / 2)] as number),
    settled,
  };
}

/** The per-frame differences over `FRAME_TOLERANCE`, as lines to print. */
export function framesOverTolerance(d: FrameDifferences): string[] {
  const over = Object.entries(FRAME_DIFFERENCE_KIND)
    .filter(([k, t]) => !(d.largest[k as keyof typeof FRAME_DIFFERENCE_KIND] <= FRAME_TOLERANCE[t]))
    .map(
      ([k, t]) =>
        `per frame ${k}: largest difference ${d.largest[k as keyof typeof FRAME_DIFFERENCE_KIND].toPrecision(3)} (tolerance ${FRAME_TOLERANCE[t]})`,
    );
  for (const [k, t] of Object.entries(FRAME_MEDIAN_TOLERANCE)) {
    const median = d.median[k as keyof typeof FRAME_MEDIAN_TOLERANCE];
    if (!(median <= t)) over.push(`per frame ${k}: median difference ${median.toPrecision(3)} (tolerance ${t})`);
  }
  if (d.faceOnOneSide) over.push(`${d.faceOnOneSide} frames with a face (or eyes) on one side only`);
  if (d.unexplained.length) {
    const first = d.unexplained
      .slice(0, 3)
      .map((u) => `${u.kind} frame at ${u.time.toFixed(2)} s shows picture ${u.browser}, the server's ${u.server}`);
    over.push(
      `${d.unexplained.length} frames show another picture than the server's at their time: ${first.join('; ')}`,
    );
  }
  return over;
}

export interface ServerReading {
  task: SessionTask;
  /** The video's session, as the worker makes it. */
  result: SessionResult;
  /** Every frame the analysis read, as privacy mode's readings (keepLandmarks false), on the file's clock. */
  readings: FrameReadings;
  /** The picture (the recording's frame number) each of those frames showed. */
  pictures: { full: number[]; light: number[] };
}

/**
 * The worker's task for the phantom: its research a picture filling the screen (so the per-second gaze is in screen
 * pixels: a contentless research has no gaze series), read at the respondent page's rates.
 */
export function equivalenceTask(
  phantom: Pick<EquivalencePhantom, 'video' | 'plan'>,
  rates: { fps: number; gazeFps: number },
): SessionTask {
  const { plan } = phantom;
  const shown = plan.research.start;
  const { width, height } = plan.screen;
  const events = [
    ...plan.events,
    { type: 'picture_shown', t: shown, index: 0, image: 'screen' },
    { type: 'content_rect', t: shown, x: 0, y: 0, width, height },
  ].sort((a, b) => a.t - b.t);
  return {
    ...phantomTask(phantom.video, plan, rates.fps),
    events,
    research: { researchId: plan.research.id, kind: 'pictures', items: [{ width, height }], durationSeconds: null },
    gazeFps: rates.gazeFps,
  };
}

/**
 * The server's analysis of a numbered recording (the task's one video), every frame it read captured as readings. `only`: the engine runs
 * on these frames alone (full frames at `only.full`'s times, light ones at `only.light`'s) and the others are left
 * unread, so it sees the frames the browser read in the browser's order (the engine tracks the face from frame to
 * frame: a frame's crop comes from the last frame analysed); the readings are then those frames' only.
 */
export async function readOnServer(task: SessionTask, only?: FrameReadings): Promise<ServerReading> {
  const video = task.sources[0]?.file;
  if (!video || task.sources.length !== 1) throw new Error('readOnServer reads one video');
  const inner = await createHuman();
  const { startTime } = await probeVideo(video);
  const wanted = only && {
    full: new Set(only.full.map((f) => timeKey(f.time))),
    light: new Set(only.light.map((f) => timeKey(f.time))),
  };
  const pictures = { full: [] as number[], light: [] as number[] };
  const numbered: FaceEngine = {
    runtime: inner.runtime,
    reset: () => inner.reset(),
    async detect(raw, options) {
      const time = (raw as typeof raw & { time: number }).time - startTime;
      const kind = options?.light ? 'light' : 'full';
      if (wanted && !wanted[kind].has(timeKey(time))) return [];
      pictures[kind].push(pictureOf(readCode(raw.data, raw.width, 3)));
      return inner.detect(raw, options);
    },
  };
  const capture = captureReadings(numbered);
  const result = await analyzeSession(task, { human: capture.engine });
  const all = capture.readings(result.sampling, task.gazeFps ?? DEFAULT_GAZE_FPS, startTime);
  const readings = wanted
    ? {
        ...all,
        full: all.full.filter((f) => wanted.full.has(timeKey(f.time))),
        light: all.light.filter((f) => wanted.light.has(timeKey(f.time))),
      }
    : all;
  return { task, result, readings, pictures };
}

/**
 * Readings as the device sends them: through the readings codec (decision 063's quantisation), which the server's
 * own readings of the video skip.
 */
export async function throughCodec(readings: FrameReadings): Promise<FrameReadings> {
  return decodeReadings(await encodeReadings(readings));
}

export function sessionFromReadings(task: SessionTask, readings: FrameReadings): Promise<SessionResult> {
  return analyzeReadings({ ...task, sources: [{ offsetMs: 0, readings }] });
}
