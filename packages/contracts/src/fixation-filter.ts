import { z } from 'zod';
import { msg } from './messages.ts';

/**
 * The fixation filter of reports (issue 31, item 6; decision 042): the Tobii I-VT filter as Olsen (2012, "The Tobii
 * I-VT Fixation Filter") describes it — gap fill-in, noise reduction, a velocity over a window centred on each
 * sample, the velocity threshold, merging adjacent fixations, discarding short ones — with defaults for webcam gaze
 * at 30 samples a second. Angles are degrees of visual angle under `VIEWING` (`degreesPerContentPixel`).
 */
export const FIXATION_FILTER = { id: 'ivt-olsen-2012', name: 'I-VT (Olsen 2012)' } as const;

export const FIXATION_NOISE = ['none', 'median', 'average'] as const;
export type FixationNoise = (typeof FIXATION_NOISE)[number];

/** Each setting's bounds, refused with the spec's 'must be between {first} and {second}'. */
export const FIXATION_LIMITS = {
  /** Gap fill-in: a stretch without gaze at most this long (ms) is interpolated; a longer one ends a fixation. */
  gapFillMs: { min: 0, max: 250 },
  /** Noise reduction's window (samples, odd), when `noise` is not 'none'. */
  noiseWindow: { min: 3, max: 9 },
  /** The velocity calculator's window (ms), centred on the sample; it always reaches one sample on each side. */
  velocityWindowMs: { min: 20, max: 200 },
  /** The I-VT classifier: at most this fast (degrees/s), a sample is a fixation sample. */
  velocityThreshold: { min: 2, max: 300 },
  /** Merge adjacent fixations at most this far apart in time (ms) … */
  mergeGapMs: { min: 0, max: 500 },
  /** … and in visual angle (degrees). */
  mergeAngle: { min: 0, max: 10 },
  /** Discard fixations shorter than this (ms; 0 keeps them all). */
  minDurationMs: { min: 0, max: 1000 },
} as const;

/**
 * Defaults for webcam gaze at 30 samples a second (decision 042): Olsen's gap fill-in (75 ms, two lost samples at
 * 30 Hz, never a blink), threshold (30°/s), merge time (75 ms) and discard (60 ms); a moving median of 3 samples
 * against a webcam's single-sample outliers; a velocity window of 67 ms (one sample each side at 30 Hz, where
 * Olsen's 20 ms would hold no neighbour); a merge angle of 1.5° (Olsen's 0.5° is below a webcam's noise).
 */
export const FIXATION_DEFAULTS = {
  gapFillMs: 75,
  noise: 'median',
  noiseWindow: 3,
  velocityWindowMs: 67,
  velocityThreshold: 30,
  mergeGapMs: 75,
  mergeAngle: 1.5,
  minDurationMs: 60,
} as const satisfies Record<string, number | FixationNoise>;

/**
 * The viewing geometry degrees assume until a respondent's distance is known: the validation's conditions
 * (docs/validation.md) — eyes 60 cm from a 15.6-inch laptop screen of 34.5 × 19.4 cm — with the content letterboxed
 * into the screen, as the engine maps gaze when the event log gives no content box.
 */
export const VIEWING = { distanceCm: 60, screenCm: { width: 34.5, height: 19.4 } } as const;

/**
 * Degrees of visual angle per pixel of a content item `size` px large, letterboxed into the screen, seen from
 * `distanceCm` (at the screen's centre). The one place content pixels become degrees.
 */
export function degreesPerContentPixel(
  size: { width: number; height: number },
  distanceCm: number = VIEWING.distanceCm,
): number {
  const cmPerPixel = Math.min(VIEWING.screenCm.width / size.width, VIEWING.screenCm.height / size.height);
  return (2 * Math.atan(cmPerPixel / 2 / distanceCm) * 180) / Math.PI;
}

/** A screen diagonal under `VIEWING` in degrees (small angle): what a content diagonal meant before decision 042. */
export const SCREEN_DIAGONAL_DEGREES =
  (Math.hypot(VIEWING.screenCm.width, VIEWING.screenCm.height) / VIEWING.distanceCm) * (180 / Math.PI);

/**
 * Settings saved before decision 042 (`velocity` in content diagonals/s, `mergeDistance` in diagonals, with
 * `minDurationMs` and `mergeGapMs`) in today's terms: a diagonal is the screen's under `VIEWING` (content that
 * fills the screen), the durations as they were, the steps the old filter lacked at their defaults. Anything
 * else is returned as it came.
 */
export function upgradeFixationSettings(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const old = value as Record<string, unknown>;
  if (!('velocity' in old || 'mergeDistance' in old) || 'velocityThreshold' in old || 'mergeAngle' in old) return value;
  const { velocity, mergeDistance, ...rest } = old;
  const degrees = (v: unknown) => (typeof v === 'number' ? Math.round(v * SCREEN_DIAGONAL_DEGREES * 10) / 10 : v);
  return {
    ...rest,
    ...(velocity === undefined ? {} : { velocityThreshold: degrees(velocity) }),
    ...(mergeDistance === undefined ? {} : { mergeAngle: degrees(mergeDistance) }),
  };
}

const within = (limits: { min: number; max: number }) =>
  z
    .number(msg('validation.number'))
    .min(limits.min, msg('validation.between', { first: limits.min, second: limits.max }))
    .max(limits.max, msg('validation.between', { first: limits.min, second: limits.max }));

export const fixationSettingsSchema = z.strictObject({
  gapFillMs: within(FIXATION_LIMITS.gapFillMs).default(FIXATION_DEFAULTS.gapFillMs),
  noise: z.enum(FIXATION_NOISE, msg('validation.choice')).default(FIXATION_DEFAULTS.noise),
  noiseWindow: within(FIXATION_LIMITS.noiseWindow)
    .refine((n) => Number.isInteger(n) && n % 2 === 1, msg('validation.invalid'))
    .default(FIXATION_DEFAULTS.noiseWindow),
  velocityWindowMs: within(FIXATION_LIMITS.velocityWindowMs).default(FIXATION_DEFAULTS.velocityWindowMs),
  velocityThreshold: within(FIXATION_LIMITS.velocityThreshold).default(FIXATION_DEFAULTS.velocityThreshold),
  mergeGapMs: within(FIXATION_LIMITS.mergeGapMs).default(FIXATION_DEFAULTS.mergeGapMs),
  mergeAngle: within(FIXATION_LIMITS.mergeAngle).default(FIXATION_DEFAULTS.mergeAngle),
  minDurationMs: within(FIXATION_LIMITS.minDurationMs).default(FIXATION_DEFAULTS.minDurationMs),
});
/**
 * The settings as a request (or a stored definition) may give them: today's, or the earlier ones read by
 * `upgradeFixationSettings`. Input only: a response is `fixationSettingsSchema` (a preprocess cannot be encoded).
 */
export const fixationSettingsInput = z.preprocess(upgradeFixationSettings, fixationSettingsSchema);
export type FixationSettings = z.infer<typeof fixationSettingsSchema>;

/** What a built report records of the filter that made its fixations. */
export const fixationFilterUsedSchema = z.object({
  name: z.string(),
  settings: fixationSettingsSchema,
  /** The viewing distance the degrees assumed, cm. */
  distance_cm: z.number(),
});
export type FixationFilterUsed = z.infer<typeof fixationFilterUsedSchema>;
