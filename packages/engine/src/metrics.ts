/**
 * Per-respondent metrics (design section 4, "Series" and "Quality"): smoothing, emotional engagement, valence,
 * attention, bad frames, baseline correction and a session summary. Formulas are in each function's comment.
 */
import {
  type Distraction,
  type EventLog,
  EXPRESSIONS,
  type ExpressionScores,
  type FrameData,
  type FrameGaze,
} from './types.ts';

/** Default Gaussian smoothing width, seconds. */
export const DEFAULT_SMOOTHING_SIGMA_SECONDS = 0.3;
/** Default allowed share of bad frames before a session is excluded (spec: "Bad frames allowed default 25%"). */
export const DEFAULT_ALLOWED_BAD_FRAME_SHARE = 0.25;

/**
 * Gaussian-kernel smoothing on irregular timestamps (seconds, any order). For every index i:
 *
 *   ŝ_i = Σ_j w_ij · v_j / Σ_j w_ij,   w_ij = exp(−(t_j − t_i)² / (2σ²)),
 *
 * summed over the j with a finite v_j (nulls are missing frames) and |t_j − t_i| ≤ 3σ. ŝ_i is null when no
 * such j exists, so gaps longer than 6σ stay gaps and a missing frame between valid ones is filled. The kernel is
 * renormalised, so the ends of the series are not pulled towards zero. σ ≤ 0 (or not finite) returns the values
 * unsmoothed. Cost O(n·k) for k frames per window (O(n log n) more when the times are not sorted).
 */
export function smoothSeries(
  times: number[],
  values: (number | null)[],
  sigmaSeconds: number = DEFAULT_SMOOTHING_SIGMA_SECONDS,
): (number | null)[] {
  if (times.length !== values.length) {
    throw new RangeError(`smoothSeries: ${times.length} times but ${values.length} values`);
  }
  const n = times.length;
  const valid = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);
  if (!(sigmaSeconds > 0) || !Number.isFinite(sigmaSeconds)) return values.map((v) => (valid(v) ? v : null));

  // Visit the samples in time order; `order[k]` is the original index of the k-th earliest sample. Samples
  // without a finite time are left out (their result is null).
  const order = Array.from({ length: n }, (_, i) => i).filter((i) => Number.isFinite(times[i]));
  const sorted = order.every((i, k) => k === 0 || (times[i] as number) >= (times[order[k - 1] as number] as number));
  if (!sorted) order.sort((a, b) => (times[a] as number) - (times[b] as number));
  const m = order.length;
  const t = order.map((i) => times[i] as number);
  const v = order.map((i) => values[i]);

  const reach = 3 * sigmaSeconds;
  const twoSigma2 = 2 * sigmaSeconds * sigmaSeconds;
  const out: (number | null)[] = new Array(n).fill(null);
  let lo = 0;
  let hi = 0; // exclusive end of the window
  for (let k = 0; k < m; k++) {
    const tk = t[k] as number;
    while ((t[lo] as number) < tk - reach) lo++;
    while (hi < m && (t[hi] as number) <= tk + reach) hi++;
    let weights = 0;
    let sum = 0;
    for (let j = lo; j < hi; j++) {
      const vj = v[j];
      if (!valid(vj)) continue;
      const d = (t[j] as number) - tk;
      const w = Math.exp(-(d * d) / twoSigma2);
      weights += w;
      sum += w * vj;
    }
    out[order[k] as number] = weights > 0 ? sum / weights : null;
  }
  return out;
}

export interface QualityOptions {
  /** Multi-face mode: several faces in the frame do not make it bad. */
  multiFace?: boolean;
}

export type BadFrameReason = 'no_face' | 'several_faces' | 'head_turned';

/**
 * Why a frame is bad, or null when it is good. Bad: no face (no main face, faceCount 0 or flag 'no_face'),
 * several faces (faceCount > 1 or flag 'several_faces') unless multi-face mode, or head turned away (flag
 * 'head_turned', set by the extractor when the pose is out of range). 'too_dark' alone does not make a frame bad.
 */
export function badFrameReason(frame: FrameData, options: QualityOptions = {}): BadFrameReason | null {
  if (!frame.face || frame.faceCount === 0 || frame.flags.includes('no_face')) return 'no_face';
  if (!options.multiFace && (frame.faceCount > 1 || frame.flags.includes('several_faces'))) return 'several_faces';
  if (frame.flags.includes('head_turned')) return 'head_turned';
  return null;
}

export function isBadFrame(frame: FrameData, options: QualityOptions = {}): boolean {
  return badFrameReason(frame, options) !== null;
}

/** bad frames / all frames; 1 for a recording without frames (nothing usable). */
export function badFrameShare(frames: FrameData[], options: QualityOptions = {}): number {
  if (frames.length === 0) return 1;
  return frames.filter((f) => isBadFrame(f, options)).length / frames.length;
}

/**
 * The main face's expression scores of each frame, smoothed over time with `smoothSeries` (σ seconds), taking
 * only good frames as input (`isBadFrame`, and frames whose scores are not all finite) and not the frames `unread`
 * says (`i`: the frame's place in `frames`; the head turning fast, `FaceSignals.fast`). Those stay null so that the
 * share of valid data is not overstated. Every expression is smoothed with the same weights, so the smoothed scores of
 * a frame still sum to the same total as the inputs (≈ 1).
 */
export function smoothExpressions(
  frames: FrameData[],
  sigmaSeconds: number = DEFAULT_SMOOTHING_SIGMA_SECONDS,
  options: QualityOptions = {},
  unread: (i: number) => boolean = () => false,
): (ExpressionScores | null)[] {
  const raw = frames.map((f, i) => (unread(i) ? null : usableExpressions(f, options)));
  const times = frames.map((f) => f.time);
  const smoothed = EXPRESSIONS.map((e) =>
    smoothSeries(
      times,
      raw.map((s) => (s ? s[e] : null)),
      sigmaSeconds,
    ),
  );
  return frames.map((_, i) => {
    if (!raw[i]) return null;
    const scores = {} as ExpressionScores;
    for (const [k, e] of EXPRESSIONS.entries()) {
      const value = smoothed[k]?.[i];
      if (typeof value !== 'number') return null;
      scores[e] = value;
    }
    return scores;
  });
}

/** The main face's scores when the frame is good and every score is finite, else null. */
export function usableExpressions(frame: FrameData, options: QualityOptions = {}): ExpressionScores | null {
  if (isBadFrame(frame, options) || !frame.face) return null;
  const scores = frame.face.expressions;
  return EXPRESSIONS.every((e) => Number.isFinite(scores?.[e])) ? scores : null;
}

const clip = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Emotional engagement: how far the face moves away from neutral.
 *
 *   engagement = clip(1 − neutral, 0, 1)
 *
 * Every non-neutral expression, surprise included, counts.
 */
export function engagement(scores: ExpressionScores): number {
  return clip(1 - scores.neutral, 0, 1);
}

/**
 * Valence: positive minus negative expression.
 *
 *   valence = clip(happy − (sad + angry + disgust + fear), −1, 1)
 *
 * Surprise counts for engagement but is neither positive nor negative; neutral is neither.
 */
export function valence(scores: ExpressionScores): number {
  return clip(scores.happy - (scores.sad + scores.angry + scores.disgust + scores.fear), -1, 1);
}

/** `engagement` per frame; null stays null. */
export function engagementSeries(scores: (ExpressionScores | null)[]): (number | null)[] {
  return scores.map((s) => (s ? engagement(s) : null));
}

/** `valence` per frame; null stays null. */
export function valenceSeries(scores: (ExpressionScores | null)[]): (number | null)[] {
  return scores.map((s) => (s ? valence(s) : null));
}

/**
 * Attention of one frame, 0 or 1:
 *
 *   attention = 1 when a face is present, its head is not turned away ('head_turned'), the frame is not
 *               distracted (`distraction` of motion.ts: the eyes closed for over 1 s, or the head turned away) and,
 *               when the frame has a gaze point, that point is on the screen; else 0.
 *
 * A frame without a gaze point (no calibrated model, or the eyes were not found, e.g. during a blink) is judged
 * on face and head alone; without `distraction` (no action units) the eyes' closure is not judged.
 */
export function attention(frame: FrameData, gaze?: FrameGaze | null, distraction?: Distraction | null): 0 | 1 {
  if (!frame.face || frame.faceCount === 0 || frame.flags.includes('no_face')) return 0;
  if (distraction) return 0;
  if (frame.flags.includes('head_turned')) return 0;
  if (gaze?.point && !gaze.onScreen) return 0;
  return 1;
}

/**
 * `attention` per frame. `gaze`, when given, is `applyGaze`'s output for the same frames (same order and length);
 * without it (calibration failed) attention rests on face and head alone.
 */
export function attentionSeries(frames: FrameData[], gaze?: FrameGaze[] | null): (0 | 1)[] {
  if (gaze && gaze.length !== frames.length) {
    throw new RangeError(`attentionSeries: ${frames.length} frames but ${gaze.length} gaze points`);
  }
  return frames.map((f, i) => attention(f, gaze?.[i]));
}

/** A time window, seconds on the recording's clock, both ends included. */
export interface TimeWindow {
  start: number;
  end: number;
}

/**
 * The calibration segment of a log, in seconds: from calibration_start (else the first calibration_dot) to
 * calibration_end (else the last calibration event). Null when the log has no calibration events.
 */
export function calibrationWindow(log: EventLog): TimeWindow | null {
  const events = Array.isArray(log?.events) ? log.events : [];
  const calibration = events.filter(
    (e) => typeof e?.type === 'string' && e.type.startsWith('calibration_') && Number.isFinite(e.t),
  );
  if (calibration.length === 0) return null;
  const ts = calibration.map((e) => e.t);
  const startEvent = calibration.find((e) => e.type === 'calibration_start');
  const endEvent = calibration.find((e) => e.type === 'calibration_end');
  const start = startEvent ? startEvent.t : Math.min(...ts);
  const end = endEvent ? endEvent.t : Math.max(...ts);
  return end >= start ? { start: start / 1000, end: end / 1000 } : null;
}

export interface BaselineCorrection {
  values: (number | null)[];
  /** The subtracted mean, or null when the window held no valid value. */
  baseline: number | null;
  /** Valid values inside the window. */
  baselineCount: number;
  /** False when the window held no valid value and the series is returned unchanged. */
  corrected: boolean;
}

/**
 * Baseline correction ("calibration-subtraction" reports):
 *
 *   b = mean of v_j over the valid v_j with start ≤ t_j ≤ end          (the respondent's calibration mean)
 *   v'_i = v_i − b                                                     (null stays null)
 *
 * When the window holds no valid value the series comes back unchanged with `corrected: false`.
 */
export function baselineCorrect(series: (number | null)[], times: number[], window: TimeWindow): BaselineCorrection {
  if (times.length !== series.length) {
    throw new RangeError(`baselineCorrect: ${times.length} times but ${series.length} values`);
  }
  let sum = 0;
  let count = 0;
  series.forEach((v, i) => {
    const t = times[i] as number;
    if (typeof v === 'number' && Number.isFinite(v) && t >= window.start && t <= window.end) {
      sum += v;
      count++;
    }
  });
  if (count === 0) return { values: [...series], baseline: null, baselineCount: 0, corrected: false };
  const baseline = sum / count;
  return {
    values: series.map((v) => (typeof v === 'number' ? v - baseline : null)),
    baseline,
    baselineCount: count,
    corrected: true,
  };
}

export interface SummaryOptions extends QualityOptions {
  /** `applyGaze` output for the same frames, when calibration succeeded. */
  gaze?: FrameGaze[] | null;
  /** Default 0.25. */
  allowedBadFrameShare?: number;
}

export interface SessionSummary {
  frames: number;
  /** Seconds from the first to the last frame. */
  durationSeconds: number;
  goodFrames: number;
  badFrames: number;
  /** badFrames / frames (1 without frames). */
  badFrameShare: number;
  badFramesByReason: Record<BadFrameReason, number>;
  allowedBadFrameShare: number;
  /** badFrameShare > allowedBadFrameShare: left out of reports, fills no quota. */
  excluded: boolean;
  /** Good frames with finite expression scores: the frames behind the means below. */
  expressionFrames: number;
  /** Mean raw (unsmoothed) score per expression over those frames; null without any. */
  meanExpressions: ExpressionScores | null;
  /** Mean of the per-frame `engagement`; null without expression frames. */
  meanEngagement: number | null;
  /** Mean of the per-frame `valence`; null without expression frames. */
  meanValence: number | null;
  /** Frames with `attention` 1. */
  attentiveFrames: number;
  /** attentiveFrames / frames, over all frames (bad ones count as inattentive); null without frames. */
  attentionShare: number | null;
  /** Frames with a gaze point, and the share of them on screen (null without gaze). */
  gazeFrames: number;
  gazeOnScreenShare: number | null;
}

/**
 * One respondent's session in numbers, with the counts behind every share:
 *
 *   badFrameShare   = bad frames / frames
 *   meanExpressions = per expression, mean of the raw scores over the good frames
 *   meanEngagement  = mean over good frames of clip(1 − neutral, 0, 1)
 *   meanValence     = mean over good frames of clip(happy − (sad + angry + disgust + fear), −1, 1)
 *   attentionShare  = Σ attention / frames
 *   excluded        = badFrameShare > allowedBadFrameShare
 */
export function summarise(frames: FrameData[], options: SummaryOptions = {}): SessionSummary {
  if (options.gaze && options.gaze.length !== frames.length) {
    throw new RangeError(`attentionSeries: ${frames.length} frames but ${options.gaze.length} gaze points`);
  }
  const summary = new SummaryAccumulator(options);
  for (const [i, frame] of frames.entries()) summary.add(frame, options.gaze?.[i]);
  return summary.result();
}

/**
 * `summarise` one frame at a time, for frames that are not all held at once (a long session): `add` each frame
 * with its gaze (when calibrated) in order, then `result`. Sums run in the same order as over an array, so the
 * figures are the same to the last bit.
 */
export class SummaryAccumulator {
  private readonly quality: QualityOptions;
  private readonly allowedBadFrameShare: number;
  private frames = 0;
  private badFrames = 0;
  private readonly badFramesByReason: Record<BadFrameReason, number> = { no_face: 0, several_faces: 0, head_turned: 0 };
  private scored = 0;
  private readonly expressionSums = Object.fromEntries(EXPRESSIONS.map((e) => [e, 0])) as ExpressionScores;
  private engagementSum = 0;
  private valenceSum = 0;
  private attentive = 0;
  private gazeFrames = 0;
  private gazeOnScreen = 0;
  private minTime = Number.POSITIVE_INFINITY;
  private maxTime = Number.NEGATIVE_INFINITY;

  constructor(options: Omit<SummaryOptions, 'gaze'> = {}) {
    this.quality = { multiFace: options.multiFace };
    this.allowedBadFrameShare = options.allowedBadFrameShare ?? DEFAULT_ALLOWED_BAD_FRAME_SHARE;
  }

  add(frame: FrameData, gaze?: FrameGaze | null, distraction?: Distraction | null): void {
    this.frames++;
    const reason = badFrameReason(frame, this.quality);
    if (reason) {
      this.badFrames++;
      this.badFramesByReason[reason]++;
    }
    const scores = usableExpressions(frame, this.quality);
    if (scores) {
      this.scored++;
      for (const e of EXPRESSIONS) this.expressionSums[e] += scores[e];
      this.engagementSum += engagement(scores);
      this.valenceSum += valence(scores);
    }
    this.attentive += attention(frame, gaze, distraction);
    if (gaze && gaze.point !== null) {
      this.gazeFrames++;
      if (gaze.onScreen) this.gazeOnScreen++;
    }
    if (Number.isFinite(frame.time)) {
      this.minTime = Math.min(this.minTime, frame.time);
      this.maxTime = Math.max(this.maxTime, frame.time);
    }
  }

  result(): SessionSummary {
    const { frames, badFrames, scored } = this;
    const share = frames === 0 ? 1 : badFrames / frames;
    let meanExpressions: ExpressionScores | null = null;
    if (scored > 0) {
      meanExpressions = {} as ExpressionScores;
      for (const e of EXPRESSIONS) meanExpressions[e] = this.expressionSums[e] / scored;
    }
    return {
      frames,
      durationSeconds: this.maxTime >= this.minTime ? this.maxTime - this.minTime : 0,
      goodFrames: frames - badFrames,
      badFrames,
      badFrameShare: share,
      badFramesByReason: { ...this.badFramesByReason },
      allowedBadFrameShare: this.allowedBadFrameShare,
      excluded: share > this.allowedBadFrameShare,
      expressionFrames: scored,
      meanExpressions,
      meanEngagement: scored > 0 ? this.engagementSum / scored : null,
      meanValence: scored > 0 ? this.valenceSum / scored : null,
      attentiveFrames: this.attentive,
      attentionShare: frames > 0 ? this.attentive / frames : null,
      gazeFrames: this.gazeFrames,
      gazeOnScreenShare: this.gazeFrames > 0 ? this.gazeOnScreen / this.gazeFrames : null,
    };
  }
}
