/**
 * A phantom respondent's session as the respondent page would log it: the screen, the calibration's moving dot, the
 * validation dots, then a research window. The gaze the phantom must show follows the same plan, so the engine gets
 * a recording and an event log that agree exactly as a real respondent's do (the page's timing comes from the
 * contracts, `CALIBRATION_TIMING`, `calibrationPathAt`, `VALIDATION_POINTS`).
 */
import {
  CALIBRATION_TIMING,
  calibrationPathAt,
  DRIFT_CHECKPOINT_TIMING,
  RESPONDENT_LIMITS,
  VALIDATION_POINTS,
} from '@emolens/contracts';
import type { SessionEvent } from '@emolens/engine';

/** The screen a validation session is watched on, and how far the eyes are from it. */
export interface ScreenGeometry {
  /** CSS pixels (device pixel ratio 1). */
  width: number;
  height: number;
  /** The visible area's physical size. */
  widthCm: number;
  heightCm: number;
  /** Eyes to screen. */
  distanceCm: number;
}

/** A 15.6-inch 16:9 laptop screen at 1280×720 CSS px, watched from 60 cm: the assumed distance. */
export const LAPTOP_SCREEN: ScreenGeometry = {
  width: 1280,
  height: 720,
  widthCm: 34.5,
  heightCm: 19.4,
  distanceCm: 60,
};

/** Where the phantom looks at `t` ms on the recording clock, screen CSS px; `hold` marks a still target. */
export interface GazeKey {
  t: number;
  x: number;
  y: number;
}

export interface PlannedSession {
  screen: ScreenGeometry;
  events: SessionEvent[];
  /** The gaze the phantom shows, piecewise linear between keys. */
  gaze: GazeKey[];
  calibration: { start: number; end: number };
  validation: { start: number; end: number; dots: GazeKey[] };
  research: { id: string; start: number; end: number };
  /** The recording's whole length, ms. */
  durationMs: number;
}

export interface PlanOptions {
  screen?: ScreenGeometry;
  /** Before the calibration starts (the page's intro and countdown), ms. */
  leadInMs?: number;
  /** The moving dot's length: the old flow's 12 s by default. */
  calibrationSeconds?: number;
  /** What the phantom looks at during the research, ms from the research's start; the research lasts `researchMs`. */
  content: GazeKey[];
  researchMs: number;
  researchId?: string;
  /**
   * Drift checkpoint dots during the research (ms from its start, screen px), logged as the page logs its overlay dot
   * over a playing video: `checkpoint_dot`, then a `video_time` as the dot goes `DRIFT_CHECKPOINT_TIMING.overlayDotMs`
   * later (what ends the dot for the engine); `content` must look at them for that long.
   */
  checkpoints?: GazeKey[];
  /** After the research ends, ms. */
  tailMs?: number;
  /** A saccade's length between still targets, ms. */
  saccadeMs?: number;
  /** Validation dots, the first of `VALIDATION_POINTS` (the page's `RESPONDENT_LIMITS.validationPoints` by default). */
  validationDots?: number;
}

const SACCADE_MS = 50;

export function planSession(options: PlanOptions): PlannedSession {
  const screen = options.screen ?? LAPTOP_SCREEN;
  const saccade = options.saccadeMs ?? SACCADE_MS;
  const researchId = options.researchId ?? 'phantom-research';
  const events: SessionEvent[] = [];
  const gaze: GazeKey[] = [];
  const centre = { x: screen.width / 2, y: screen.height / 2 };
  const look = (t: number, p: { x: number; y: number }) => gaze.push({ t, x: p.x, y: p.y });

  events.push({ type: 'segment_start', t: 0, segment: 0 });
  events.push({ type: 'screen', t: 0, width: screen.width, height: screen.height, device_pixel_ratio: 1 });
  const calStart = options.leadInMs ?? 1000;
  look(0, centre);

  // The moving dot: logged every dotLogMs, the eyes on it (smooth pursuit).
  const total = (options.calibrationSeconds ?? 12) * 1000;
  events.push({ type: 'calibration_start', t: calStart });
  const first = calibrationPathAt(0, screen.width, screen.height);
  look(Math.max(0, calStart - saccade), centre);
  look(calStart, first);
  for (let e = 0; e < total; e += CALIBRATION_TIMING.dotLogMs) {
    const p = calibrationPathAt(e / total, screen.width, screen.height);
    const x = Math.round(p.x);
    const y = Math.round(p.y);
    events.push({ type: 'calibration_dot', t: calStart + e, x, y });
    look(calStart + e, { x, y });
  }
  const calEnd = calStart + total;
  events.push({ type: 'calibration_end', t: calEnd });

  // The still validation dots: a saccade to each, then a fixation for stillDotMs.
  const dots: GazeKey[] = [];
  let t = calEnd;
  for (const [fx, fy] of VALIDATION_POINTS.slice(0, options.validationDots ?? RESPONDENT_LIMITS.validationPoints)) {
    const dot = { t, x: Math.round(fx * screen.width), y: Math.round(fy * screen.height) };
    events.push({ type: 'validation_dot', t, x: dot.x, y: dot.y });
    dots.push(dot);
    look(t + saccade, dot);
    look(t + CALIBRATION_TIMING.stillDotMs, dot);
    t += CALIBRATION_TIMING.stillDotMs;
  }
  events.push({ type: 'validation_end', t });
  const validation = { start: calEnd, end: t, dots };

  // The research: the content's own gaze plan, shifted onto the session clock.
  const researchStart = t + 500;
  events.push({ type: 'research_start', t: researchStart, campaign_id: researchId, index: 0 });
  look(researchStart, options.content[0] ?? centre);
  for (const key of options.content) look(researchStart + key.t, key);
  for (const dot of options.checkpoints ?? []) {
    events.push({ type: 'checkpoint_dot', t: researchStart + dot.t, x: dot.x, y: dot.y });
    const gone = dot.t + DRIFT_CHECKPOINT_TIMING.overlayDotMs;
    if (gone < options.researchMs) events.push({ type: 'video_time', t: researchStart + gone, time: gone / 1000 });
  }
  const researchEnd = researchStart + options.researchMs;
  events.push({ type: 'research_end', t: researchEnd, campaign_id: researchId });
  const durationMs = researchEnd + (options.tailMs ?? 500);
  look(durationMs, gaze.at(-1) ?? centre);

  return {
    screen,
    events,
    gaze: normalised(gaze),
    calibration: { start: calStart, end: calEnd },
    validation,
    research: { id: researchId, start: researchStart, end: researchEnd },
    durationMs,
  };
}

/** Keys in time order; of keys at the same moment the last wins. */
function normalised(keys: GazeKey[]): GazeKey[] {
  const sorted = keys.map((k, i) => ({ k, i })).sort((a, b) => a.k.t - b.k.t || a.i - b.i);
  const out: GazeKey[] = [];
  for (const { k } of sorted) {
    if (out.length && out[out.length - 1]?.t === k.t) out[out.length - 1] = k;
    else out.push(k);
  }
  return out;
}

/** The planned gaze at `t` ms (piecewise linear between keys, held before the first and after the last). */
export function gazeAt(keys: readonly GazeKey[], t: number): { x: number; y: number } {
  const first = keys[0];
  if (!first) throw new Error('a gaze plan needs at least one key');
  if (t <= first.t) return { x: first.x, y: first.y };
  for (let i = 1; i < keys.length; i++) {
    const b = keys[i] as GazeKey;
    if (t <= b.t) {
      const a = keys[i - 1] as GazeKey;
      const f = b.t === a.t ? 1 : (t - a.t) / (b.t - a.t);
      return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
    }
  }
  const last = keys[keys.length - 1] as GazeKey;
  return { x: last.x, y: last.y };
}

/**
 * Fixations on a grid of the screen (cols × rows, inset by `inset` of each side), each held `holdMs` after a
 * `saccadeMs` jump: the research part of a gaze-accuracy phantom. Ms from the research's start.
 */
export function gridFixations(
  screen: ScreenGeometry,
  { cols = 3, rows = 3, inset = 0.1, holdMs = 1500, saccadeMs = SACCADE_MS } = {},
): { keys: GazeKey[]; durationMs: number; targets: (GazeKey & { end: number })[] } {
  const keys: GazeKey[] = [];
  const targets: (GazeKey & { end: number })[] = [];
  let t = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = Math.round((inset + ((1 - 2 * inset) * c) / Math.max(1, cols - 1)) * screen.width);
      const y = Math.round((inset + ((1 - 2 * inset) * r) / Math.max(1, rows - 1)) * screen.height);
      keys.push({ t: t + saccadeMs, x, y }, { t: t + holdMs, x, y });
      targets.push({ t: t + saccadeMs, x, y, end: t + holdMs });
      t += holdMs;
    }
  }
  return { keys, durationMs: t, targets };
}

/**
 * A session without calibration whose research window is the whole recording: for the phantoms that test
 * expressions, blinks, pose and quality (their gaze is the script's own and is not scored).
 */
export function plainSession(
  durationMs: number,
  screen: ScreenGeometry = LAPTOP_SCREEN,
  researchId = 'phantom-research',
): PlannedSession {
  const centre = { t: 0, x: screen.width / 2, y: screen.height / 2 };
  return {
    screen,
    events: [
      { type: 'segment_start', t: 0, segment: 0 },
      { type: 'screen', t: 0, width: screen.width, height: screen.height, device_pixel_ratio: 1 },
      { type: 'research_start', t: 0, campaign_id: researchId, index: 0 },
      { type: 'research_end', t: durationMs, campaign_id: researchId },
    ],
    gaze: [centre, { ...centre, t: durationMs }],
    calibration: { start: 0, end: 0 },
    validation: { start: 0, end: 0, dots: [] },
    research: { id: researchId, start: 0, end: durationMs },
    durationMs,
  };
}
