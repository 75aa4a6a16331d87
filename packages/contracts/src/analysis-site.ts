import { z } from 'zod';
import type { MessageKey } from './messages.ts';

/**
 * Privacy mode (issue 32; decision 064): a research may keep the respondent's video on their device. The respondent
 * page then runs the face engine itself and uploads its per-frame readings instead of the video, in the same chunks.
 */

/** What happens when the respondent's device analyses too few frames a second: video upload offered, or a polite stop. */
export const SLOW_DEVICE_ACTIONS = ['offer_upload', 'stop'] as const;
export type SlowDeviceAction = (typeof SLOW_DEVICE_ACTIONS)[number];

/**
 * Where a session's face analysis runs: on the respondent's `device` (readings uploaded), on the `server` (video
 * uploaded: every session of a research without the mode, and a device session that fell back), or `undecided` while
 * a device session's speed is not measured yet or was measured too slow and the respondent has not chosen.
 */
export const ANALYSIS_SITES = ['device', 'server', 'undecided'] as const;
export type AnalysisSite = (typeof ANALYSIS_SITES)[number];

/**
 * The share of the analysis rate's frames a device must analyse to keep the video on it. The per-second series and the
 * quality's bad-frame share are read at the session's analysis rate (its researches' highest, `DEFAULT_ANALYSIS_RATE`
 * 10 unless one asks for more); a device that keeps 8 in 10 of those loses at most one frame in five, which the
 * per-second averages absorb (a second at 10 still has 8 samples of expression and gaze). Below it whole stretches of
 * a second go unread: fixations, blinks and short expressions would be missed, and the curves would differ from the
 * server's analysis of the same recording.
 */
export const MIN_DEVICE_FRAME_SHARE = 0.8;

/** The fewest full frames a second a device must analyse at the analysis rate `fps`: 8 at 10, 12 at 15, 24 at 30. */
export function minDeviceFramesPerSecond(fps: number): number {
  return Math.round(MIN_DEVICE_FRAME_SHARE * fps * 10) / 10;
}
/** A measured rate the page may report: 0 (nothing analysed) to a fast machine's 240. */
export const MAX_REPORTED_FRAMES_PER_SECOND = 240;

/** The research settings' fields of privacy mode, spread into `researchSettingsSchema`. */
export const privacySettingsFields = {
  /** The respondent's video stays on their device: the page analyses it and uploads only readings. */
  videoOnDevice: z.boolean().default(false),
  /** Privacy mode only: what a too slow device is asked to do. */
  slowDeviceAction: z.enum(SLOW_DEVICE_ACTIONS).default('stop'),
};

/**
 * The browser runs the single-face engine only (the multi-face analysis runs on the server): a research analysing
 * several faces cannot keep the video on the device. The message key for the `settings.videoOnDevice` field, or null.
 */
export function videoOnDeviceRefusal(settings: {
  videoOnDevice: boolean;
  multiFacesMode: boolean;
}): Extract<MessageKey, 'campaign.videoOnDeviceSingleFace'> | null {
  return settings.videoOnDevice && settings.multiFacesMode ? 'campaign.videoOnDeviceSingleFace' : null;
}

/**
 * The researches of one scenario share one recording and one analysis site: a research analysing several faces
 * cannot be beside one whose video stays on the device (the browser reads one face). The message key, or null.
 */
export function scenarioDeviceRefusal(
  settings: readonly { videoOnDevice: boolean; multiFacesMode: boolean }[],
): Extract<MessageKey, 'scenario.videoOnDeviceMultiFace'> | null {
  return settings.some((s) => s.videoOnDevice) && settings.some((s) => s.multiFacesMode)
    ? 'scenario.videoOnDeviceMultiFace'
    : null;
}

/** What the respondent page is told of where its session's analysis runs (in the session state, and by the calls below). */
export const respondentAnalysisSchema = z.object({
  /** A research of the session keeps the video on the device. */
  onDevice: z.boolean(),
  slowDeviceAction: z.enum(SLOW_DEVICE_ACTIONS),
  /**
   * The rate the page reads full frames at: the highest analysis rate (`contentVideoFps`) of the session's researches,
   * since one recording serves them all.
   */
  fps: z.number().int().positive(),
  /** `minDeviceFramesPerSecond(fps)`: the device check's threshold. */
  minFramesPerSecond: z.number(),
  site: z.enum(ANALYSIS_SITES),
});
export type RespondentAnalysis = z.infer<typeof respondentAnalysisSchema>;

/**
 * The segment type of a device session: the chunks are encoded readings (`encodeReadings` of `@emolens/engine`),
 * not video.
 */
export const READINGS_MIME_TYPE = 'application/vnd.emolens.readings';
