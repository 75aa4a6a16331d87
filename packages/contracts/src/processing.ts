import { z } from 'zod';
import { gazeDriftSchema } from './gaze-drift.ts';

// Gaze accuracy in degrees, beside the processing results that carry it (decision 043).
export * from './gaze-degrees.ts';
export * from './gaze-drift.ts';

// Processing of respondent recordings (design section 7): video processes, their results, and the
// cabinet's controls over them.

/** Video process states (spec section 4, the second set). The respondent flow creates them as `collected`. */
export const VIDEO_PROCESS_STATUSES = [
  'created',
  'collected',
  'preprocessing',
  'in_process',
  'done',
  'error',
  'detection_error',
  'canceled',
  'restarted',
] as const;
export type VideoProcessStatus = (typeof VIDEO_PROCESS_STATUSES)[number];

/** Waiting for or inside a worker: a research with any of these is processing (or reprocessing). */
export const RUNNING_PROCESS_STATUSES = ['collected', 'restarted', 'preprocessing', 'in_process'] as const;
/** Ended: restart is possible, cancel is not. */
export const FINAL_PROCESS_STATUSES = ['done', 'error', 'detection_error', 'canceled'] as const;

/**
 * Why a process ended in `error` (typed, shown in the user's language as `processing.error.<code>`):
 * the engine's codes, and the worker's own.
 */
export const PROCESS_ERROR_CODES = [
  'recording_missing',
  'file_not_found',
  'empty_file',
  'not_a_video',
  'no_frames',
  'decode_failed',
  'ffmpeg_missing',
  'invalid_options',
  'invalid_event_log',
  'event_log_inconsistent',
  'recording_too_long',
  /** Privacy mode: the readings the device uploaded could not be read (decision 064). */
  'invalid_readings',
  'engine_crashed',
  'internal',
] as const;
export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[number];

/** Why a processed session is left out of reports and quotas (`processing.excluded.<reason>`). */
export const EXCLUDED_REASONS = ['no_face', 'bad_frames', 'calibration_failed', 'several_faces'] as const;
export type ExcludedReason = (typeof EXCLUDED_REASONS)[number];

/** The measured result of a process, as lists show it; null until the process is done. */
export const processResultSummarySchema = z.object({
  engine_version: z.string(),
  created_at: z.string(),
  recording_seconds: z.number(),
  frames: z.number(),
  face_found: z.boolean(),
  bad_frame_share: z.number(),
  usable: z.boolean(),
  excluded_reason: z.enum(EXCLUDED_REASONS).nullable(),
  calibration_status: z.enum(['calibrated', 'calibration_failed', 'not_run']),
  calibration_accuracy_px: z.number().nullable(),
  calibration_accuracy_percent: z.number().nullable(),
  /** The calibration's accuracy in degrees of visual angle at `distance_cm` (`pxToDegrees`); null without either. */
  calibration_accuracy_degrees: z.number().nullable(),
  /**
   * The gaze's precision on the validation dots: RMS of the sample-to-sample distances, px, % of the diagonal and
   * degrees at `distance_cm` (decision 052); null when not measured (a result stored before it, too few samples).
   */
  calibration_precision_px: z.number().nullable(),
  calibration_precision_percent: z.number().nullable(),
  calibration_precision_degrees: z.number().nullable(),
  /** The drift checkpoints' offsets during the content (decision 053); null: the session had no checkpoint. */
  drift: gazeDriftSchema.nullable(),
  /** The respondent's distance to the camera estimated from the iris's size (decision 043); null when not measured. */
  distance_cm: z.number().nullable(),
  mean_engagement: z.number().nullable(),
});
export type ProcessResultSummary = z.infer<typeof processResultSummarySchema>;

/** GET /api/videoprocessor/campaigns-processes-list/?campaign= */
export const processesListQuery = z.strictObject({ campaign: z.string().max(64) });
export const videoProcessOutput = z.object({
  id: z.string(),
  campaign_id: z.string(),
  session_id: z.string(),
  status: z.enum(VIDEO_PROCESS_STATUSES),
  /** The respondent: participant id from the panel, else the session id. */
  respondent: z.string(),
  /** 0–100. */
  progress: z.number(),
  attempts: z.number(),
  error: z.enum(PROCESS_ERROR_CODES).nullable(),
  /** The engine of the running attempt (or of the last one). */
  engine_version: z.string().nullable(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** The current result; a reprocess keeps it until the new one is done. */
  result: processResultSummarySchema.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  can: z.object({ restart: z.boolean(), cancel: z.boolean() }),
});
export type VideoProcess = z.infer<typeof videoProcessOutput>;
export const processesListOutput = z.object({ items: z.array(videoProcessOutput) });

/** POST /api/cabinet/campaigns/videoprocesses-statistic/ */
export const videoprocessesStatisticInput = z.strictObject({ campaigns: z.array(z.string().max(64)).min(1).max(200) });
export const videoprocessesStatisticOutput = z.object({
  items: z.array(
    z.object({
      campaign_id: z.string(),
      total: z.number(),
      by_status: z.record(z.enum(VIDEO_PROCESS_STATUSES), z.number()),
      /** Done processes whose session is usable / excluded. */
      usable: z.number(),
      excluded: z.number(),
      can_reprocess: z.boolean(),
      /**
       * Privacy mode (decision 064): of the `measured` sessions whose device's speed was measured, how many kept the
       * analysis on the device, fell back to video upload, and stopped as too slow; null for a research without it.
       */
      device_analysis: z
        .object({ measured: z.number(), on_device: z.number(), fell_back: z.number(), too_slow: z.number() })
        .nullable(),
    }),
  ),
});

/** POST /api/cabinet/video-processes/{id}/restart/ and …/cancel/ */
export const videoProcessIdParams = z.strictObject({ id: z.string().max(64) });
/** POST /api/cabinet/campaigns/{id}/reprocess/: every process of the research again, with the current engine. */
export const reprocessOutput = z.object({ restarted: z.number() });
