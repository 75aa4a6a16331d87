import { z } from 'zod';
import { LANGUAGES } from './languages.ts';
import { PROCESS_ERROR_CODES } from './processing.ts';
import { RESPONDENT_API } from './respondent.ts';

/**
 * The stand-alone setup check at /dot-test (issue 10): anyone, no login, records a short calibration
 * and validation, the worker measures the gaze accuracy, and only the browser holding the test's
 * secret sees the result. Its own public API under /r/dot-tests with its own strict schemas (design
 * section 6: attacker-controlled input); the secret is stored hashed, like a respondent session's.
 */
export const DOT_TEST_API = `${RESPONDENT_API}/dot-tests`;

export const DOT_TEST_LIMITS = {
  /** Everything stored for a test (row, event log, recording) is deleted this long after it started. */
  retentionDays: 7,
  /** The short (old-flow) calibration of spec section 9: the check stays a minute long. */
  calibrationSeconds: 12,
  /** One recorder chunk: a 2-second slice at 1 Mbit/s is ~250 kB; room for a keyframe-heavy one. */
  chunkBytes: 2 * 1024 * 1024,
  /** Chunks of one test: 2 s each, 90 s of recording (the check takes about 25 s). */
  chunks: 45,
  eventsPerBatch: 500,
  eventBatches: 100,
  /**
   * Frames analysed per second: the person waits for the answer, and half the journey's rate halves
   * the wait while the five validation dots still give ~25 frames to average.
   */
  fps: 5,
  /** Event times may run this far ahead of the server's clock of the test (ms). */
  clockSlackMs: 10_000,
} as const;

/**
 * The verdict on the measured accuracy (mean gaze error on the validation dots, % of the screen
 * diagonal): webcam eye tracking reaches ~2–5% in good conditions; past 10% a heatmap is a blur.
 */
export const DOT_TEST_THRESHOLDS = { goodPercent: 5, fairPercent: 10 } as const;
export const DOT_TEST_VERDICTS = ['good', 'fair', 'poor'] as const;
export type DotTestVerdict = (typeof DOT_TEST_VERDICTS)[number];

export function dotTestVerdict(accuracyPercent: number | null): DotTestVerdict {
  if (accuracyPercent === null || !Number.isFinite(accuracyPercent)) return 'poor';
  if (accuracyPercent <= DOT_TEST_THRESHOLDS.goodPercent) return 'good';
  if (accuracyPercent <= DOT_TEST_THRESHOLDS.fairPercent) return 'fair';
  return 'poor';
}

/** recording → queued (everything sent) → processing → done | failed. */
export const DOT_TEST_STATUSES = ['recording', 'queued', 'processing', 'done', 'failed'] as const;
export type DotTestStatus = (typeof DOT_TEST_STATUSES)[number];

const screenSchema = z.strictObject({
  width: z.number().int().min(100).max(20_000),
  height: z.number().int().min(100).max(20_000),
  device_pixel_ratio: z.number().min(0.25).max(10),
});

// ---------------------------------------------------------------------------------------------
// POST /r/dot-tests — consent given: a test starts; its secret is shown once.

export const dotTestStartInput = z.strictObject({
  consent: z.strictObject({
    accepted: z.literal(true),
    /** The retention the person agreed to (a page older than the server's rules is refused). */
    retention_days: z.literal(DOT_TEST_LIMITS.retentionDays),
    language: z.enum(LANGUAGES),
  }),
  screen: screenSchema,
  mime_type: z.enum(['video/webm', 'video/mp4']),
});
export type DotTestStartInput = z.infer<typeof dotTestStartInput>;

export const dotTestIdParams = z.strictObject({ id: z.string().max(64) });

export const dotTestResultSchema = z.object({
  verdict: z.enum(DOT_TEST_VERDICTS),
  face_found: z.boolean(),
  frames: z.number(),
  bad_frame_share: z.number(),
  calibration_status: z.enum(['calibrated', 'calibration_failed', 'not_run']),
  /** Why the calibration failed (the engine's words, for the curious; the page explains it itself). */
  calibration_reason: z.string().nullable(),
  accuracy_px: z.number().nullable(),
  accuracy_percent: z.number().nullable(),
  /** Degrees of visual angle at the estimated distance (decision 043); absent in results made before it. */
  accuracy_degrees: z.number().nullable().optional(),
  /**
   * The gaze's precision on the validation dots (RMS sample to sample, decision 052): px, % of the diagonal, degrees
   * at the estimated distance; absent in results made before it, null when not measured.
   */
  precision_px: z.number().nullable().optional(),
  precision_percent: z.number().nullable().optional(),
  precision_degrees: z.number().nullable().optional(),
  /** The estimated distance to the camera, cm (from the iris's size); absent in results made before it. */
  distance_cm: z.number().nullable().optional(),
  /** The screen the dots were shown on (CSS px). */
  screen: z.object({ width: z.number(), height: z.number(), device_pixel_ratio: z.number() }),
  /** Each validation dot and the mean gaze measured on it (null: no usable frame on that dot). */
  validation: z.array(
    z.object({ x: z.number(), y: z.number(), gaze_x: z.number().nullable(), gaze_y: z.number().nullable() }),
  ),
  engine_version: z.string(),
});
export type DotTestResult = z.infer<typeof dotTestResultSchema>;

export const dotTestStateOutput = z.object({
  id: z.string(),
  status: z.enum(DOT_TEST_STATUSES),
  /** 0–100 while processing. */
  progress: z.number(),
  calibration_seconds: z.number(),
  created_at: z.string(),
  /** When everything of this test is deleted. */
  expires_at: z.string(),
  error: z.enum(PROCESS_ERROR_CODES).nullable(),
  result: dotTestResultSchema.nullable(),
});
export type DotTestState = z.infer<typeof dotTestStateOutput>;

export const dotTestStartOutput = z.object({ secret: z.string(), test: dotTestStateOutput });
export type DotTestStartOutput = z.infer<typeof dotTestStartOutput>;

// ---------------------------------------------------------------------------------------------
// PUT /r/dot-tests/{id}/chunks/{index} — one recorder chunk (raw bytes, x-chunk-sha256), idempotent by index.

export const dotTestChunkParams = z.strictObject({
  id: z.string().max(64),
  index: z.coerce
    .number()
    .int()
    .min(0)
    .max(DOT_TEST_LIMITS.chunks - 1),
});
export const dotTestChunkOutput = z.object({ index: z.number(), stored: z.boolean() });

// ---------------------------------------------------------------------------------------------
// POST /r/dot-tests/{id}/events — a batch of the calibration's events (ms on the recording's clock).

const t = z
  .number()
  .min(0)
  .max(3600 * 1000);
const coord = z.number().min(-100_000).max(100_000);

/** Only what a dot test shows: the screen, the calibration and validation dots, the page's visibility. */
export const dotTestEventSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('screen'),
    t,
    width: z.number().int().min(1).max(20_000),
    height: z.number().int().min(1).max(20_000),
    device_pixel_ratio: z.number().min(0.25).max(10),
  }),
  z.strictObject({ type: z.literal('calibration_start'), t }),
  z.strictObject({ type: z.literal('calibration_dot'), t, x: coord, y: coord }),
  z.strictObject({ type: z.literal('calibration_end'), t }),
  z.strictObject({ type: z.literal('validation_dot'), t, x: coord, y: coord }),
  z.strictObject({ type: z.literal('validation_end'), t }),
  z.strictObject({ type: z.literal('visibility'), t, hidden: z.boolean() }),
  z.strictObject({ type: z.literal('fullscreen'), t, on: z.boolean() }),
  z.strictObject({ type: z.literal('camera_lost'), t }),
]);
export type DotTestEvent = z.infer<typeof dotTestEventSchema>;

export const dotTestEventBatchInput = z.strictObject({
  seq: z
    .number()
    .int()
    .min(0)
    .max(DOT_TEST_LIMITS.eventBatches - 1),
  events: z.array(dotTestEventSchema).min(1).max(DOT_TEST_LIMITS.eventsPerBatch),
});
export type DotTestEventBatchInput = z.infer<typeof dotTestEventBatchInput>;
export const dotTestEventBatchOutput = z.object({ seq: z.number(), stored: z.boolean(), next_event_seq: z.number() });

// ---------------------------------------------------------------------------------------------
// POST /r/dot-tests/{id}/complete — everything is sent: the server checks the counts and queues the analysis.

export const dotTestCompleteInput = z.strictObject({
  chunks: z.number().int().min(1).max(DOT_TEST_LIMITS.chunks),
  event_batches: z.number().int().min(1).max(DOT_TEST_LIMITS.eventBatches),
});
export type DotTestCompleteInput = z.infer<typeof dotTestCompleteInput>;
