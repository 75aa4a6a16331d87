import type { GazeDrift } from '@emolens/contracts';

/**
 * What the drift figure shows of a respondent's drift (decision 053): `none` without a checkpoint (short content, or
 * a result stored before drift was measured), `unmeasured` when checkpoints were shown but none measured on the gaze,
 * else the mean offset in px, % of the diagonal and degrees (null without a distance) with its largest, the
 * checkpoints used and whether the gaze was corrected.
 */
export type DriftView =
  | { state: 'none' }
  | { state: 'unmeasured' }
  | {
      state: 'measured';
      px: number;
      percent: number | null;
      degrees: number | null;
      maxPx: number | null;
      checkpoints: number;
      corrected: boolean;
    };

export function driftView(drift: GazeDrift | null | undefined, distanceCm: number | null | undefined): DriftView {
  if (!drift) return { state: 'none' };
  if (drift.checkpoints === 0 || drift.mean_px === null) return { state: 'unmeasured' };
  return {
    state: 'measured',
    px: drift.mean_px,
    percent: drift.mean_percent,
    degrees: distanceCm === null || distanceCm === undefined ? null : drift.mean_degrees,
    maxPx: drift.max_px,
    checkpoints: drift.checkpoints,
    corrected: drift.corrected,
  };
}
