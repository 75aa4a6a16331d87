import { z } from 'zod';
import { msg } from './messages.ts';
import { VIDEO_PROCESS_STATUSES } from './processing.ts';

/**
 * Phantom respondents' truth in the cabinet (issue 30, item 5; decision 035). A phantom recording (packages/phantom)
 * is taken through the respondent API like any respondent's; its truth file — what the generator put into every
 * frame — is then attached to that session, and the research statistic page shows the engine's measurement against
 * it per respondent. The body is the part of the truth file the scoring reads (`truthForUpload` in
 * packages/phantom makes it from the file), in the API's snake case.
 */

export const PHANTOM_TRUTH_FORMAT = 'emolens-phantom-truth/1';
export const PHANTOM_EXPRESSION_KINDS = ['smile', 'surprise', 'frown'] as const;
export const PHANTOM_GAZE_PHASES = ['fixation', 'saccade', 'pursuit', 'away'] as const;

export const PHANTOM_TRUTH_LIMITS = {
  /** Ten minutes at 30 frames a second. */
  frames: 18_000,
  /** The body of one truth (its frames are ~150 bytes each as the uploader rounds them). */
  bodyBytes: 6 * 1024 * 1024,
  expressions: 500,
  blinks: 2000,
} as const;

const ms = z
  .number()
  .min(0)
  .max(24 * 3600 * 1000);
const degrees = z.number().min(-180).max(180);
const share = z.number().min(0).max(1);
const px = z.number().min(-100_000).max(100_000);

const truthFrame = z.strictObject({
  /** Ms from the recording's first frame. */
  t_ms: ms,
  smile: share,
  surprise: share,
  frown: share,
  /** Where both eyes look, screen CSS px (origin top left), and how they move there. */
  gaze_x: px,
  gaze_y: px,
  gaze_phase: z.enum(PHANTOM_GAZE_PHASES),
  /** Lid closure, 0 open … 1 shut. */
  blink: share,
  yaw: degrees,
  pitch: degrees,
  roll: degrees,
});
export type PhantomTruthFrame = z.infer<typeof truthFrame>;

/** PUT /api/cabinet/respondent-sessions/{id}/phantom-truth/ — the truth of the phantom recorded in that session. */
export const phantomTruthInput = z.strictObject({
  format: z.literal(PHANTOM_TRUTH_FORMAT),
  phantom: z.strictObject({
    /** The script's name and the face photo it was made from. */
    name: z
      .string()
      .regex(/^[a-z0-9-]+$/)
      .max(120),
    source: z.string().min(1).max(64),
    fps: z.union([z.literal(15), z.literal(30)]),
    duration_ms: ms,
  }),
  /** The screen the phantom looks at, and how far its eyes are from it. */
  screen: z.strictObject({
    width: z.number().int().min(1).max(20_000),
    height: z.number().int().min(1).max(20_000),
    width_cm: z.number().positive().max(1000),
    height_cm: z.number().positive().max(1000),
    distance_cm: z.number().positive().max(1000),
  }),
  /** The expressions put in: intensity rises from onset to apex, holds to offset, is gone at end (ms). */
  expressions: z
    .array(
      z.strictObject({
        kind: z.enum(PHANTOM_EXPRESSION_KINDS),
        intensity: share,
        onset_ms: ms,
        apex_ms: ms,
        offset_ms: ms,
        end_ms: ms,
      }),
    )
    .max(PHANTOM_TRUTH_LIMITS.expressions),
  blinks: z.array(z.strictObject({ start_ms: ms, duration_ms: ms })).max(PHANTOM_TRUTH_LIMITS.blinks),
  /** Every frame of the recording, in time order at the recording's rate. */
  frames: z
    .array(truthFrame)
    .min(1)
    .max(PHANTOM_TRUTH_LIMITS.frames)
    .refine(
      (frames) => frames.every((f, i) => i === 0 || f.t_ms > (frames[i - 1] as PhantomTruthFrame).t_ms),
      msg('validation.invalid'),
    ),
});
export type PhantomTruthInput = z.infer<typeof phantomTruthInput>;

export const phantomTruthSavedOutput = z.object({
  session_id: z.string(),
  name: z.string(),
  frames: z.number(),
  /** False when a truth the session had was replaced. */
  created: z.boolean(),
});
export type PhantomTruthSaved = z.infer<typeof phantomTruthSavedOutput>;

// ---------------------------------------------------------------------------------------------
// GET /api/cabinet/campaigns/{id}/phantom-truths/ — measured against true, per respondent with a truth.

/** A figure that could not be measured (no samples) is null. */
const figure = z.number().nullable();

export const phantomGazeErrorSchema = z.object({
  /** Analysed frames in the research window where the truth is a settled fixation. */
  samples: z.number(),
  /** Of those, the share the engine gave no gaze for. */
  lost_share: figure,
  median_px: figure,
  p95_px: figure,
  /** Of the screen diagonal. */
  median_percent: figure,
  p95_percent: figure,
  /** Of visual angle at the truth's screen distance. */
  median_degrees: figure,
  /** RMS sample-to-sample distance within fixations. */
  precision_px: figure,
  /** The same of the screen diagonal and in degrees at the truth's distance (absent in truths scored before). */
  precision_percent: figure.optional(),
  precision_degrees: figure.optional(),
});

export const phantomExpressionErrorSchema = z.object({
  kind: z.enum(PHANTOM_EXPRESSION_KINDS),
  /** What the engine's reading was (its name in the validation). */
  measured_as: z.string(),
  injected: z.number(),
  hits: z.number(),
  /** Median of measured onset minus injected onset over the hits, ms. */
  onset_error_ms: figure,
  false_alarms: z.number(),
  neutral_seconds: z.number(),
  /** Per frame, the reading against the injected intensity. */
  correlation: figure,
});

export const phantomBlinkErrorSchema = z.object({
  injected: z.number(),
  measured: z.number(),
  matched: z.number(),
  recall: figure,
  precision: figure,
});

export const phantomPoseErrorSchema = z.object({
  axis: z.enum(['yaw', 'pitch', 'roll']),
  /** Frames where the truth turns this axis by 2° or more. */
  frames: z.number(),
  median_degrees: figure,
  p95_degrees: figure,
  r: figure,
});

export const phantomRespondentErrorSchema = z.object({
  session_id: z.string(),
  participant_id: z.string().nullable(),
  process_id: z.string(),
  status: z.enum(VIDEO_PROCESS_STATUSES),
  phantom: z.object({ name: z.string(), source: z.string(), fps: z.number(), duration_ms: z.number() }),
  /** False until the recording's current result exists: the figures below are then empty. */
  measured: z.boolean(),
  gaze: phantomGazeErrorSchema.nullable(),
  expressions: z.array(phantomExpressionErrorSchema),
  blinks: phantomBlinkErrorSchema.nullable(),
  pose: z.array(phantomPoseErrorSchema),
});
export type PhantomRespondentError = z.infer<typeof phantomRespondentErrorSchema>;

export const phantomTruthsOutput = z.object({ items: z.array(phantomRespondentErrorSchema) });
export type PhantomTruths = z.infer<typeof phantomTruthsOutput>;
