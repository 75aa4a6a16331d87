import type { GuidanceProblem, GuidanceState } from '@emolens/contracts';
import type { FaceCheckResult } from '@emolens/engine/browser';
import type { Phase } from './journey-plan.ts';

/**
 * Live guidance (issue 31, item 7; decision 045): during calibration and content a small notice tells the respondent
 * what is wrong with their face in the picture and how to fix it; the event log records each change of the notice.
 */

/** The phases guided (a later stage of the same kind joins this list). */
export const GUIDED_PHASES: readonly Phase['name'][] = ['calibration', 'resume', 'checkpoint', 'content'];
/** The phases whose dots the eyes follow: the notice keeps to the strip above the dots' margin. */
export const DOT_PHASES: readonly Phase['name'][] = ['calibration', 'checkpoint'];

/**
 * A check at most this often (ms from one check's end to the next one's start): about 3 Hz, a third of what the face
 * check before the calibration runs, so the recorder and the content keep the main thread.
 */
export const GUIDANCE_INTERVAL_MS = 300;
/** The checks take at most this share of the main thread: a slow device checks less often, never more. */
export const GUIDANCE_MAX_SHARE = 0.2;

/** The wait after a check that took `durationMs`: the interval, or longer so the checks keep within their share. */
export function nextCheckDelay(durationMs: number): number {
  return Math.max(GUIDANCE_INTERVAL_MS, Math.round(durationMs * (1 / GUIDANCE_MAX_SHARE - 1)));
}

/**
 * The notice changes once this many checks in a row agree (0.6 s or more apart at 3 Hz): no flicker on one odd frame,
 * and a slow device, which checks less often, still changes it after two checks.
 */
export const GUIDANCE_STEADY_CHECKS = 2;

/** The one problem to tell of a check, the most basic first (`GUIDANCE_PROBLEMS`' order); null when all is well. */
export function guidanceProblem(
  r: Pick<FaceCheckResult, 'flags' | 'faceCount' | 'distance' | 'faceCut'>,
): GuidanceProblem | null {
  if (r.flags.includes('too_dark')) return 'too_dark';
  if (r.faceCount === 0 || r.flags.includes('no_face')) return 'no_face';
  if (r.faceCut) return 'face_cut';
  if (r.distance === 'too_far') return 'too_far';
  if (r.distance === 'too_near') return 'too_near';
  if (r.flags.includes('head_turned')) return 'head_turned';
  return null;
}

/**
 * What the notice shows from the checks' problems: the first check's at once, a change once it holds for
 * `GUIDANCE_STEADY_CHECKS` checks. `next` returns the new state when the notice changes (to be logged), else null.
 */
export class GuidanceNotice {
  private shown: GuidanceState = 'off';
  private candidate: GuidanceState | null = null;
  private run = 0;

  get state(): GuidanceState {
    return this.shown;
  }

  next(problem: GuidanceProblem | null): GuidanceState | null {
    const state: GuidanceState = problem ?? 'ok';
    if (state === this.shown) {
      this.candidate = null;
      this.run = 0;
      return null;
    }
    this.run = state === this.candidate ? this.run + 1 : 1;
    this.candidate = state;
    if (this.shown !== 'off' && this.run < GUIDANCE_STEADY_CHECKS) return null;
    return this.set(state);
  }

  /** The guidance stops (its stage is over, the page is hidden): null when it was off already. */
  stop(): GuidanceState | null {
    return this.shown === 'off' ? null : this.set('off');
  }

  private set(state: GuidanceState): GuidanceState {
    this.shown = state;
    this.candidate = null;
    this.run = 0;
    return state;
  }
}

/** The checks' cost: their time on the main thread over the time guided (a share of one core). */
export class CheckCost {
  private busy = 0;
  private checks = 0;
  private started: number | null = null;

  add(durationMs: number, now: number): void {
    this.started ??= now - durationMs;
    this.busy += durationMs;
    this.checks += 1;
  }

  summary(now: number): { checks: number; elapsedMs: number; meanMs: number; rate: number; share: number } {
    const elapsed = this.started === null ? 0 : now - this.started;
    return {
      checks: this.checks,
      elapsedMs: elapsed,
      meanMs: this.checks ? this.busy / this.checks : 0,
      rate: elapsed > 0 ? (this.checks * 1000) / elapsed : 0,
      share: elapsed > 0 ? this.busy / elapsed : 0,
    };
  }
}
