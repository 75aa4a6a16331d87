import { z } from 'zod';
import { msg } from './messages.ts';

/**
 * Reports (issue 13). The fixation filter's thresholds (design section 8: a documented velocity-threshold
 * filter, its thresholds adjustable within ranges): each bound refused with the spec's 'must be between
 * {first} and {second}'.
 */
export const FIXATION_LIMITS = {
  /** Content diagonals per second: at most this fast, a sample belongs to a fixation. */
  velocity: { min: 0.1, max: 5 },
  /** A fixation lasts at least this long (ms). */
  minDurationMs: { min: 50, max: 1000 },
  /** Fixations at most this far apart in time (ms) … */
  mergeGapMs: { min: 0, max: 500 },
  /** … and in space (content diagonals) are one. */
  mergeDistance: { min: 0, max: 0.2 },
} as const;

/**
 * Defaults for gaze from a webcam at 10 samples a second: a saccade moves the point by a tenth of the diagonal
 * or more between two samples (1 diagonal/s); two samples (200 ms) make the shortest fixation counted; a gap of
 * up to 150 ms (one lost sample) within 5% of the diagonal is no saccade.
 */
export const FIXATION_DEFAULTS = { velocity: 1, minDurationMs: 200, mergeGapMs: 150, mergeDistance: 0.05 } as const;

const within = (limits: { min: number; max: number }) =>
  z
    .number(msg('validation.number'))
    .min(limits.min, msg('validation.between', { first: limits.min, second: limits.max }))
    .max(limits.max, msg('validation.between', { first: limits.min, second: limits.max }));

export const fixationSettingsSchema = z.strictObject({
  velocity: within(FIXATION_LIMITS.velocity).default(FIXATION_DEFAULTS.velocity),
  minDurationMs: within(FIXATION_LIMITS.minDurationMs).default(FIXATION_DEFAULTS.minDurationMs),
  mergeGapMs: within(FIXATION_LIMITS.mergeGapMs).default(FIXATION_DEFAULTS.mergeGapMs),
  mergeDistance: within(FIXATION_LIMITS.mergeDistance).default(FIXATION_DEFAULTS.mergeDistance),
});
export type FixationSettings = z.infer<typeof fixationSettingsSchema>;
