import { z } from 'zod';

/**
 * The research settings' fields of the drift checkpoints during the content (issue 31, item 4; decision 055; the
 * timing is `DRIFT_CHECKPOINT_TIMING`), spread into `researchSettingsSchema`.
 */
export const driftSettingsFields = {
  /** A still dot at the natural breaks of content that runs longer than a checkpoint's interval. */
  driftCheckpoints: z.boolean().default(true),
  /** Also a dot over a playing video each interval of playback (the video keeps playing). */
  driftOverlay: z.boolean().default(false),
};
