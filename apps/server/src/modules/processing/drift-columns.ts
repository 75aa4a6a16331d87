import type { StoredGazeDrift } from '@emolens/contracts';
import type { SessionDrift } from '@emolens/engine';

/** The result's drift columns as lists and the report build select them. */
export const DRIFT_SELECT = [
  'r.drift_mean_px',
  'r.drift_max_px',
  'r.drift_mean_percent',
  'r.drift_checkpoints',
  'r.drift_corrected',
] as const;

/**
 * What a result stores of its `summary.drift` (decision 053): the mean and largest offset of the checkpoints used,
 * the mean in % of the diagonal, the checkpoints used and whether the gaze was corrected; all null without a
 * checkpoint.
 */
export function driftColumns(drift: SessionDrift | null | undefined): StoredGazeDrift {
  if (!drift) {
    return {
      drift_mean_px: null,
      drift_max_px: null,
      drift_mean_percent: null,
      drift_checkpoints: null,
      drift_corrected: null,
    };
  }
  return {
    drift_mean_px: drift.meanPx,
    drift_max_px: drift.maxPx,
    drift_mean_percent: drift.meanPercent,
    drift_checkpoints: drift.checkpoints.filter((c) => c.used && c.offset).length,
    drift_corrected: drift.corrected,
  };
}
