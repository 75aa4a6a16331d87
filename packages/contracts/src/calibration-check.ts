import { z } from 'zod';
import { PROCESS_ERROR_CODES } from './processing.ts';
import { sentRecordingFields, sessionEndSchema } from './respondent.ts';

/**
 * Validation before the content (issue 31, item 3; decision 050): after the calibration's validation dots the
 * respondent's page asks the server to measure the calibration's accuracy on what it has uploaded so far. Above the
 * research's threshold the calibration runs once more; a second failure ends the session as "calibration failed"
 * (or, when the research says so, goes on to the content with the session flagged).
 */

export const CALIBRATION_CHECK_LIMITS = {
  /** A first check and, after a failure, one more. */
  attempts: 2,
  /**
   * Frames analysed per second: the respondent waits for the answer, so the dot test's rate (the five
   * validation dots still give ~35 frames at 1.5 s each).
   */
  fps: 5,
  /** The page stops waiting after this long and goes on (the check "could not run"). */
  pageTimeoutMs: 120_000,
  /** Check starts one respondent may ask for a minute (each is idempotent per attempt). */
  startsPerMinute: 10,
} as const;

/** The outcome of one check as stored and shown. */
export const CALIBRATION_CHECK_STATUSES = ['queued', 'processing', 'passed', 'failed', 'error'] as const;
export type CalibrationCheckStatus = (typeof CALIBRATION_CHECK_STATUSES)[number];

/** POST /r/sessions/{id}/calibration-checks — everything through this attempt's validation_end is sent. */
export const calibrationCheckInput = z.strictObject({
  attempt: z.number().int().min(1).max(CALIBRATION_CHECK_LIMITS.attempts),
  /** What is sent so far: what the server must hold before it looks. */
  ...sentRecordingFields,
});
export type CalibrationCheckInput = z.infer<typeof calibrationCheckInput>;

export const calibrationCheckParams = z.strictObject({
  id: z.string().max(64),
  attempt: z.coerce.number().int().min(1).max(CALIBRATION_CHECK_LIMITS.attempts),
});

/**
 * One check as the page polls it. `next` says what the page does once the check is over: `content` (passed, or the
 * check could not run), `repeat` (the calibration once more), `end` (the session ended: `end` is its end), or
 * `continue_flagged` (failed twice, the research goes on with the session flagged); null while it runs.
 */
export const calibrationCheckState = z.object({
  attempt: z.number(),
  status: z.enum(CALIBRATION_CHECK_STATUSES),
  progress: z.number(),
  threshold_percent: z.number(),
  /** The validation's median error, % of the screen diagonal; null until measured (or when no gaze was found). */
  accuracy_percent: z.number().nullable(),
  error: z.enum(PROCESS_ERROR_CODES).nullable(),
  next: z.enum(['content', 'repeat', 'end', 'continue_flagged']).nullable(),
  end: sessionEndSchema.nullable(),
});
export type CalibrationCheckState = z.infer<typeof calibrationCheckState>;
