/**
 * One phantom's measurement against its truth, per kind of phantom: gaze, expressions, blinks, head pose, quality.
 * The truth comes only from the truth file (what the generator put in); the measurement only from the engine's
 * result, read as the worker stores it.
 */
import { type Expression, type SessionResult, SMILE_THRESHOLD, smileEpisodes } from '@emolens/engine';
import type { ExpressionKind } from '../expressions.ts';
import type { FrameTruth } from '../render.ts';
import type { Script } from '../script.ts';
import type { MeasuredFrame, MeasuredGaze } from './run-engine.ts';
import {
  detect,
  detectEpisodes,
  errorStats,
  type GazeAccuracy,
  type GazeSample,
  gazeAccuracy,
  matchEvents,
  median,
  pearson,
  screenRegion,
} from './score.ts';
import type { PlannedSession } from './session-plan.ts';

/**
 * What the measurements read of a truth frame: a truth file's frames, or the same fields as the cabinet keeps them
 * for a phantom taken through an installation (session-truth.ts, decision 035).
 */
export type TruthFrame = Pick<FrameTruth, 'tMs' | 'expression' | 'head'> & {
  gaze: Pick<FrameTruth['gaze'], 'x' | 'y' | 'phase'>;
};
/** What of a planned session they read: its research window and its screen. */
type PlannedWindow = { research: Pick<PlannedSession['research'], 'start' | 'end'> };

/**
 * What the validation reads for each injected expression, and the reading at which it counts as detected. A smile is
 * the engine's smile index against the respondent's resting face (the frame table's `smile` column, the same signal
 * as the smile curve) at the engine's own `SMILE_THRESHOLD`; surprise and a frown (the brows' anger) are the
 * expression model's probabilities at 0.5.
 */
export const READ_AS: Record<ExpressionKind, { name: string; threshold: number; value: (f: MeasuredFrame) => number }> =
  {
    smile: { name: 'smile index', threshold: SMILE_THRESHOLD, value: (f) => f.smile },
    surprise: { name: 'surprise', threshold: 0.5, value: (f) => f.expressions.surprise },
    frown: { name: 'angry', threshold: 0.5, value: (f) => f.expressions.angry },
  };

/** The truth frame nearest to `t` (ms); truth frames are in time order at a fixed rate. */
export function truthAt<F extends Pick<FrameTruth, 'tMs'>>(frames: readonly F[], t: number): F {
  const first = frames[0];
  if (!first) throw new Error('a truth file without frames');
  const step = frames.length > 1 ? (frames[1] as F).tMs - first.tMs : 1;
  const i = Math.min(frames.length - 1, Math.max(0, Math.round((t - first.tMs) / step)));
  return frames[i] as F;
}

export interface GazeMeasurement {
  /** The engine's own validation-dot accuracy (what the cabinet shows), px and % of the diagonal. */
  calibration: { status: string; accuracyPx: number | null; accuracyPercent: number | null };
  overall: GazeAccuracy;
  byRegion: Record<string, GazeAccuracy>;
}

/** The eyes' settling after a jump, left out of the gaze scores (ms). */
const SETTLE_MS = 200;

/**
 * Gaze in the research window, scored on fixations (the first `SETTLE_MS` after each jump left out: the eye settling),
 * on the samples the reports read (`measuredGaze`).
 */
export function measureGaze(
  plan: PlannedWindow & Pick<PlannedSession, 'screen'>,
  frames: readonly MeasuredGaze[],
  truth: readonly TruthFrame[],
  result: Pick<SessionResult, 'summary'>,
): GazeMeasurement {
  const samples: (GazeSample & { region: string })[] = [];
  for (const f of frames) {
    if (f.t < plan.research.start || f.t > plan.research.end) continue;
    const tr = truthAt(truth, f.t);
    // Settled: the eyes have held this target for SETTLE_MS (a fixation on another target then is a jump since).
    const before = truthAt(truth, f.t - SETTLE_MS).gaze;
    const settled =
      tr.gaze.phase === 'fixation' && before.phase === 'fixation' && before.x === tr.gaze.x && before.y === tr.gaze.y;
    if (!settled) continue;
    samples.push({
      t: f.t,
      x: f.gazeX,
      y: f.gazeY,
      trueX: tr.gaze.x,
      trueY: tr.gaze.y,
      fixation: true,
      region: screenRegion(tr.gaze.x, tr.gaze.y, plan.screen),
    });
  }
  const regions = [...new Set(samples.map((s) => s.region))];
  const c = result.summary.calibration;
  return {
    calibration: { status: c.status, accuracyPx: c.accuracyPx, accuracyPercent: c.accuracyPercent },
    overall: gazeAccuracy(samples, plan.screen),
    byRegion: Object.fromEntries(
      regions.map((r) => [
        r,
        gazeAccuracy(
          samples.filter((s) => s.region === r),
          plan.screen,
        ),
      ]),
    ),
  };
}

export interface ExpressionMeasurement {
  kind: ExpressionKind;
  /** What was read (`READ_AS`): "smile index", "surprise", "angry". */
  measuredAs: string;
  injected: number;
  hits: number;
  onsetErrorsMs: number[];
  falseAlarms: number;
  neutralSeconds: number;
  /** Per frame: the measured value against the injected intensity. */
  correlation: number;
  /**
   * Surprise and a frown: the events of this kind during which the engine reported a smile (a smile episode detected
   * from half a second before the event's onset to half a second after its end, as a smile's hit is counted), and the
   * smile index's highest reading from the event's onset to its end. A smile's own reading has none.
   */
  readAsSmile?: { events: number; peak: number };
}

/**
 * Each expression the script injects (and, for a script with none, the false alarms of every kind), over the research
 * window (the frames a researcher's curves are made of; the calibration before it is the resting face).
 */
export function measureExpressions(
  script: Pick<Script, 'expressions'>,
  plan: PlannedWindow,
  allFrames: readonly MeasuredFrame[],
  truth: readonly TruthFrame[],
): ExpressionMeasurement[] {
  const frames = allFrames.filter((f) => f.t >= plan.research.start && f.t <= plan.research.end);
  const kinds = new Set(script.expressions.map((e) => e.kind));
  const all: ExpressionKind[] = kinds.size ? [...kinds] : ['smile', 'surprise', 'frown'];
  const t = frames.map((f) => f.t);
  const smile = frames.map(READ_AS.smile.value);
  // The smiles as the product reports them (the engine's episodes: detected at the threshold, the onset at a tenth of
  // the rise), for the smile's own reading and for a smile read during the other expressions.
  const smiles = smileEpisodes(
    t.map((ms) => ms / 1000),
    smile,
  ).map((p) => ({ start: p.start * 1000, detected: p.detected * 1000, end: p.end === null ? null : p.end * 1000 }));
  return all.map((kind) => {
    const read = READ_AS[kind];
    const events = script.expressions
      .filter((e) => e.kind === kind && e.intensity >= 0.4)
      .map((e) => ({ onset: e.onsetMs, apex: e.apexMs, offset: e.endMs, intensity: e.intensity }));
    const series = { t, v: kind === 'smile' ? smile : frames.map(read.value) };
    // Surprise and a frown by the first reading at the threshold.
    const d = kind === 'smile' ? detectEpisodes(events, smiles, t) : detect(events, series, read.threshold);
    const injected = frames.map((f) => truthAt(truth, f.t).expression[kind]);
    const during = (i: number) => events.some((e) => (t[i] as number) >= e.onset && (t[i] as number) <= e.offset);
    const readAsSmile =
      kind === 'smile' || events.length === 0
        ? undefined
        : {
            events: detectEpisodes(events, smiles, t).hits,
            peak: Math.max(0, ...smile.filter((v, i) => Number.isFinite(v) && during(i))),
          };
    return {
      kind,
      measuredAs: read.name,
      injected: d.injected,
      hits: d.hits,
      onsetErrorsMs: d.onsetErrorsMs,
      falseAlarms: d.falseAlarms,
      neutralSeconds: d.neutralSeconds,
      correlation: pearson(series.v, injected),
      ...(readAsSmile ? { readAsSmile } : {}),
    };
  });
}

/** The expression with the highest mean probability over the frames where `when` holds. */
export function topExpression(
  frames: readonly MeasuredFrame[],
  when: (f: MeasuredFrame) => boolean,
): Expression | null {
  const chosen = frames.filter((f) => when(f) && f.faceCount > 0);
  if (!chosen.length) return null;
  const keys = Object.keys(chosen[0]?.expressions ?? {}) as Expression[];
  let best: Expression | null = null;
  let bestMean = -1;
  for (const k of keys) {
    const values = chosen.map((f) => f.expressions[k]).filter(Number.isFinite);
    const mean = values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);
    if (mean > bestMean) {
      bestMean = mean;
      best = k;
    }
  }
  return best;
}

/**
 * Blink starts the script put in against the engine's (its per-second series counts starts per second, from the
 * research window's start).
 */
export function measureBlinks(script: Pick<Script, 'blinks'>, result: Pick<SessionResult, 'series' | 'summary'>) {
  const measured: number[] = [];
  const start = result.summary.windowMs.start;
  result.series.second.forEach((s, i) => {
    for (let k = 0; k < (result.series.blinks[i] ?? 0); k++) measured.push(start + s * 1000 + 500);
  });
  // Within the second the engine names, or the next (a start near a second's edge).
  return matchEvents(
    script.blinks.map((b) => b.startMs),
    measured,
    1000,
  );
}

/** The truth's head is at rest on every axis (within this, degrees) here and this long before (ms). */
const POSE_REST_DEGREES = 1;
const POSE_REST_SETTLED_MS = 200;

/**
 * Head pose per axis, over the frames where that axis is turned (|truth| ≥ 2°): the turn the engine read against the
 * turn put in, their correlation (a negative r is a sign convention that differs) and the read turn's gain (`slope`:
 * the least-squares factor from the turn put in to the turn read, below 1 when the turn is read short). The turn read is the engine's
 * angle less its own reading of the same recording where the truth's head is at rest (`rest`: the median over the
 * frames still on every axis, 0 with none): a phantom's rest is its photo warped to face the camera, and a 2-D warp
 * keeps the photo's shading, outline and hair, so what the picture shows there is not a known angle (decision 056).
 * `rest` itself is returned for the report: the reading at the phantom's 0, not an error of the engine's.
 */
export function measurePose(frames: readonly MeasuredFrame[], truth: readonly TruthFrame[]) {
  const tr = frames.map((f) => truthAt(truth, f.t).head);
  const still = (h: FrameTruth['head']) =>
    Math.max(Math.abs(h.yaw), Math.abs(h.pitch), Math.abs(h.roll)) < POSE_REST_DEGREES;
  const resting = frames.filter(
    (f, i) => still(tr[i] as FrameTruth['head']) && still(truthAt(truth, f.t - POSE_REST_SETTLED_MS).head),
  );
  const axis = (key: 'yaw' | 'pitch' | 'roll') => {
    const atRest = median(resting.map((f) => f[key]).filter(Number.isFinite));
    const rest = Number.isFinite(atRest) ? atRest : 0;
    const turned = frames.map((_, i) => Math.abs((tr[i] as FrameTruth['head'])[key]) >= 2);
    const measured = frames.filter((_, i) => turned[i]).map((f) => f[key] - rest);
    const injected = tr.filter((_, i) => turned[i]).map((h) => h[key]);
    return {
      ...errorStats(measured, injected),
      r: pearson(measured, injected),
      slope: gain(measured, injected),
      rest: atRest,
      restFrames: resting.length,
    };
  };
  return { yaw: axis('yaw'), pitch: axis('pitch'), roll: axis('roll') };
}

/** Least-squares factor k of read ≈ k · put (through 0: the read turn is already taken from the rest); NaN without a turn. */
function gain(read: readonly number[], put: readonly number[]): number {
  let sxy = 0;
  let sxx = 0;
  read.forEach((y, i) => {
    const x = put[i] as number;
    if (!Number.isFinite(y) || !Number.isFinite(x)) return;
    sxy += x * y;
    sxx += x * x;
  });
  return sxx > 0 ? sxy / sxx : Number.NaN;
}

/** Share of frames raising each quality flag, where the truth says the problem is there and where it is not. */
export function flagShares(frames: readonly MeasuredFrame[], problem: (f: MeasuredFrame) => boolean) {
  const flags = new Set(frames.flatMap((f) => f.flags));
  const on = frames.filter(problem);
  const off = frames.filter((f) => !problem(f));
  const share = (list: readonly MeasuredFrame[], flag: string) =>
    list.length ? list.filter((f) => (f.flags as string[]).includes(flag)).length / list.length : Number.NaN;
  return Object.fromEntries(
    [...flags].map((flag) => [flag, { withProblem: share(on, flag), without: share(off, flag) }]),
  );
}
