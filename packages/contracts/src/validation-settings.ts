import { z } from 'zod';
import { msg } from './messages.ts';

/**
 * A research's settings for the validation before the content (issue 31, item 3; decision 050): the largest
 * validation error a calibration may have, in % of the screen diagonal, and what a second failure does.
 */
export const VALIDATION_THRESHOLD = { default: 10, min: 3, max: 30 } as const;

/** The content whose processing needs gaze (a failed calibration excludes the session): the check runs for these. */
export const GAZE_CONTENT_TYPES = ['pictures', 'shelf', 'site'] as const;

/** What a research does when the calibration fails the check a second time. */
export const VALIDATION_FAILURE_BEHAVIOURS = ['end', 'continue_flag'] as const;
export type ValidationFailureBehaviour = (typeof VALIDATION_FAILURE_BEHAVIOURS)[number];

/**
 * What the session records of its calibration check (the analyst sees it where respondents are listed):
 * passed; failed twice and went on to the content (`flagged`, the research's `continue_flag`); failed twice and ended
 * (`failed`); the check could not run (engine down, timed out: the respondent went on, `not_checked`).
 */
export const CALIBRATION_CHECK_VERDICTS = ['passed', 'flagged', 'failed', 'not_checked'] as const;
export type CalibrationCheckVerdict = (typeof CALIBRATION_CHECK_VERDICTS)[number];

const between = msg('validation.between', { first: VALIDATION_THRESHOLD.min, second: VALIDATION_THRESHOLD.max });

/** The research settings' fields of the check (spread into `researchSettingsSchema`). */
export const validationSettingsFields = {
  /**
   * The check runs for a research whose processing needs gaze (pictures, shelf, site): there a failed calibration
   * would exclude the session afterwards. Off: the respondent goes on to the content unchecked.
   */
  validationBeforeContent: z.boolean().default(true),
  validationThresholdPercent: z
    .number()
    .min(VALIDATION_THRESHOLD.min, between)
    .max(VALIDATION_THRESHOLD.max, between)
    .default(VALIDATION_THRESHOLD.default),
  validationFailure: z.enum(VALIDATION_FAILURE_BEHAVIOURS).default('end'),
};
