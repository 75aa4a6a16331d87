import { GAZE_CONTENT_TYPES, researchSettingsSchema, type ValidationFailureBehaviour } from '@emolens/contracts';
import type { ResearchRow } from '../../db/types.ts';

export interface CheckRules {
  /** A gaze research of the session asks for the check. */
  enabled: boolean;
  /** The strictest threshold of those researches, % of the screen diagonal. */
  thresholdPercent: number;
  /** `end` when any of them ends the session on a second failure. */
  onFailure: ValidationFailureBehaviour;
}

/**
 * What the check before the content (decision 050) holds a session to. Only researches whose processing needs gaze
 * count (pictures, shelf, site: there a failed calibration excludes the session afterwards), and of those the ones
 * that keep the check on; several such researches in one session: the strictest threshold, and `end` when any ends.
 */
export function checkRules(researches: Pick<ResearchRow, 'settings' | 'content_type'>[]): CheckRules {
  const settings = researches
    .filter((r) => (GAZE_CONTENT_TYPES as readonly string[]).includes(r.content_type))
    .map((r) => {
      const parsed = researchSettingsSchema.safeParse(r.settings ?? {});
      return parsed.success ? parsed.data : researchSettingsSchema.parse({});
    })
    .filter((s) => s.validationBeforeContent);
  const defaults = researchSettingsSchema.parse({});
  if (!settings.length) {
    return { enabled: false, thresholdPercent: defaults.validationThresholdPercent, onFailure: 'end' };
  }
  return {
    enabled: true,
    thresholdPercent: Math.min(...settings.map((s) => s.validationThresholdPercent)),
    onFailure: settings.some((s) => s.validationFailure === 'end') ? 'end' : 'continue_flag',
  };
}
