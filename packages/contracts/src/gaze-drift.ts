import { z } from 'zod';
import { pxToDegrees, roundedDegrees } from './gaze-degrees.ts';

/**
 * Drift per respondent (issue 31 item 4, decision 053): how far the gaze read from the drift checkpoint dots shown
 * during the content (between researches, or an overlay), the offset the engine took off the gaze between them. Null
 * in place of the whole object: the session had no checkpoint (short content, or processed before drift was
 * measured).
 */
export const gazeDriftSchema = z.object({
  /** Checkpoints whose offset was measured and used; 0: checkpoints shown, none measured on the gaze. */
  checkpoints: z.number().int(),
  /** Mean and largest offset of the checkpoints used, screen CSS px; null when none was used. */
  mean_px: z.number().nullable(),
  max_px: z.number().nullable(),
  /** The mean offset in % of the screen's diagonal. */
  mean_percent: z.number().nullable(),
  /** The mean offset in degrees of visual angle at the estimated distance (`pxToDegrees`); null without either. */
  mean_degrees: z.number().nullable(),
  /** Whether the content's gaze was corrected by the checkpoints. */
  corrected: z.boolean(),
});
export type GazeDrift = z.infer<typeof gazeDriftSchema>;

/** What a result stores of its drift (all null without a checkpoint). */
export interface StoredGazeDrift {
  drift_mean_px: number | null;
  drift_max_px: number | null;
  drift_mean_percent: number | null;
  drift_checkpoints: number | null;
  drift_corrected: boolean | null;
}

const rounded = (value: number | null, digits: number) =>
  value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits;

/** A stored drift as lists, reports and exports show it (px to 0.1, % to 0.01, degrees at `distanceCm`). */
export function gazeDriftOf(stored: StoredGazeDrift, distanceCm: number | null): GazeDrift | null {
  if (stored.drift_checkpoints === null) return null;
  return {
    checkpoints: stored.drift_checkpoints,
    mean_px: rounded(stored.drift_mean_px, 1),
    max_px: rounded(stored.drift_max_px, 1),
    mean_percent: rounded(stored.drift_mean_percent, 2),
    mean_degrees: roundedDegrees(pxToDegrees(stored.drift_mean_px, distanceCm)),
    corrected: stored.drift_corrected ?? false,
  };
}
