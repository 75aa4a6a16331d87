import { z } from 'zod';
import { MAX_REPORTED_FRAMES_PER_SECOND, respondentAnalysisSchema } from './analysis-site.ts';
import { sessionEndSchema } from './respondent.ts';

/**
 * The respondent's calls of privacy mode (issue 32; decision 064), under `/r/sessions/{id}` with the session's secret
 * like the others. Each is allowed only before the session's first chunk and repeats harmlessly.
 */

/** How many of these calls one session may make a minute (the page makes one or two). */
export const ANALYSIS_SITE_CALLS_PER_MINUTE = 20;

/**
 * POST /r/sessions/{id}/device-check — the full frames a second the device analysed during the face check, at the
 * session's analysis rate. At least its `minFramesPerSecond` (`minDeviceFramesPerSecond` of the rate): the analysis
 * stays on the device (`site: 'device'`); fewer: `undecided` (the page offers the upload or stops, per
 * `slowDeviceAction`). A repeat before the first chunk measures again. Answers the session's `analysis`.
 */
export const deviceCheckInput = z.strictObject({
  framesPerSecond: z.number().min(0).max(MAX_REPORTED_FRAMES_PER_SECOND),
});
export type DeviceCheckInput = z.infer<typeof deviceCheckInput>;

/**
 * POST /r/sessions/{id}/analysis-site — a device measured too slow, in a research that offers it: the respondent
 * chose to upload the video. The session becomes a video session (it fell back). Answers the session's `analysis`.
 */
export const analysisSiteInput = z.strictObject({ site: z.literal('server') });
export type AnalysisSiteInput = z.infer<typeof analysisSiteInput>;

/** What device-check and analysis-site answer: the session's `analysis`. */
export const analysisSiteOutput = respondentAnalysisSchema;

/**
 * POST /r/sessions/{id}/device-too-slow — no body: a device measured too slow stops politely. The session ends as
 * `device_too_slow` (told to the panel as a screen-out, never paid as a complete, holding no quota slot); the answer
 * is its end, what the page shows last and where it goes.
 */
export const deviceTooSlowOutput = sessionEndSchema;
