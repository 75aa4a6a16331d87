import { DRIFT_CHECKPOINT_TIMING, VALIDATION_POINTS } from '@emolens/contracts';

/**
 * When the drift checkpoints during the content come (issue 31, item 4; decision 055). One clock per page counts the
 * content shown since the calibration or the last checkpoint; a natural break (the start of a research, between two
 * pictures, shelf images or site tasks) shows a dot when the clock has reached the interval and the research keeps
 * the checkpoints on; a playing video with the overlay on shows one over it at the same point. Each dot goes to the
 * next of `VALIDATION_POINTS`, so consecutive checkpoints are at different places.
 */
export interface DriftClock {
  /** Content ms counted since the calibration or the last checkpoint. */
  sinceMs: number;
  /** Checkpoints shown on this page so far: the next one's place. */
  shown: number;
}

export interface ScreenPoint {
  x: number;
  y: number;
}

export const DRIFT_INTERVAL_MS = DRIFT_CHECKPOINT_TIMING.everySeconds * 1000;

export function newDriftClock(): DriftClock {
  return { sinceMs: 0, shown: 0 };
}

/** Counts `ms` of content shown (negative or not finite: nothing). */
export function countContent(clock: DriftClock, ms: number): void {
  if (Number.isFinite(ms) && ms > 0) clock.sinceMs += ms;
}

/** A checkpoint is due: the research keeps them on and the content has run the interval since the last one. */
export function checkpointDue(clock: DriftClock, enabled: boolean): boolean {
  return enabled && clock.sinceMs >= DRIFT_INTERVAL_MS;
}

/** The place of checkpoint number `n` (from 0) on a `width` × `height` screen, CSS px as the validation dots. */
export function checkpointPlace(n: number, width: number, height: number): ScreenPoint {
  const count = VALIDATION_POINTS.length;
  const [fx, fy] = VALIDATION_POINTS[((n % count) + count) % count] ?? VALIDATION_POINTS[0];
  return { x: Math.round(fx * width), y: Math.round(fy * height) };
}

/** The checkpoint shown now: its place, and the clock counts again from zero. */
export function takeCheckpoint(clock: DriftClock, width: number, height: number): ScreenPoint {
  const place = checkpointPlace(clock.shown, width, height);
  clock.shown += 1;
  clock.sinceMs = 0;
  return place;
}

/**
 * A video's playback between two time reports, ms: the media time it moved forward (a seek back or a jump of more
 * than `maxStepMs`, a seek forward, counts nothing).
 */
export function playedMs(previousSeconds: number, currentSeconds: number, maxStepMs = 1000): number {
  const ms = (currentSeconds - previousSeconds) * 1000;
  return Number.isFinite(ms) && ms > 0 && ms <= maxStepMs ? ms : 0;
}
