import { z } from 'zod';
import { MEDIA_MESSAGES, MEDIA_NAME_MAX } from './media.ts';
import { PROCESS_ERROR_CODES } from './processing.ts';
import { isCleanText } from './text.ts';

// Demo mode and interview analysis (spec sections 1, 2 and 9): a user's own recording or uploaded
// video through the engine, private to that user.

/** `demo`: one face, the webcam or a short file; `interview`: a long recording, every face tracked. */
export const DEMO_KINDS = ['demo', 'interview'] as const;
export type DemoKind = (typeof DEMO_KINDS)[number];

export const DEMO_STATUSES = ['queued', 'processing', 'done', 'error'] as const;
export type DemoStatus = (typeof DEMO_STATUSES)[number];

/**
 * The limits: a webcam recording stops itself at 5 minutes; an uploaded file (either kind) may last
 * up to 2 hours; bytes and formats as content uploads (MEDIA_LIMITS). Spec section 9: "A session is a
 * 5-minute interview interval".
 */
export const DEMO_LIMITS = { recordSeconds: 300, fileSeconds: 7200, sessionSeconds: 300 } as const;

/** Sessions an interview counts: every started 5-minute interval (spec section 9). */
export function sessionsCounted(seconds: number): number {
  return seconds > 0 ? Math.ceil(seconds / DEMO_LIMITS.sessionSeconds - 1e-9) : 0;
}

/** Response header of the last upload request naming the created analysis. */
export const DEMO_ID_HEADER = 'x-demo-id';

/**
 * tus `Upload-Metadata` of a demo or interview upload (same `/mediaserver` as content, told apart by
 * `demo_kind`, which content uploads never carry).
 */
export const demoUploadMetadataSchema = z.object({
  filename: z
    .string()
    .max(MEDIA_NAME_MAX)
    .refine(isCleanText, { message: MEDIA_MESSAGES.invalidMetadata })
    .pipe(z.string().trim().min(1)),
  filetype: z.string().max(255).refine(isCleanText).default(''),
  demo_kind: z.enum(DEMO_KINDS),
});
export type DemoUploadMetadata = z.infer<typeof demoUploadMetadataSchema>;

/** Refusals of a demo upload beyond the content ones: the file plays longer than allowed (status 422). */
export const DEMO_TOO_LONG_STATUS = 422;

export const demoSummarySchema = z.object({
  frames: z.number(),
  bad_frames: z.number(),
  bad_frame_share: z.number(),
  face_found: z.boolean(),
  people: z.number(),
  mean_engagement: z.number().nullable(),
  mean_valence: z.number().nullable(),
  attention_share: z.number().nullable(),
  /** Null under 10 s of the face seen. */
  blinks_per_minute: z.number().nullable(),
  head_degrees_per_second: z.number().nullable(),
  /** Frames with each quality flag. */
  flags: z.object({
    no_face: z.number(),
    several_faces: z.number(),
    head_turned: z.number(),
    too_dark: z.number(),
  }),
});
export type DemoSummary = z.infer<typeof demoSummarySchema>;

export const demoAnalysisOutput = z.object({
  id: z.string(),
  kind: z.enum(DEMO_KINDS),
  filename: z.string(),
  size: z.number(),
  status: z.enum(DEMO_STATUSES),
  /** 0–100. */
  progress: z.number(),
  /** Why it failed (`processing.error.<code>`). */
  error_code: z.enum(PROCESS_ERROR_CODES).nullable(),
  engine_version: z.string().nullable(),
  /** The file's length as probed at upload. */
  duration_seconds: z.number().nullable(),
  /** Seconds the engine decoded (once done). */
  recording_seconds: z.number().nullable(),
  /** Interviews: 5-minute sessions counted (once done). */
  sessions_counted: z.number().nullable(),
  summary: demoSummarySchema.nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type DemoAnalysis = z.infer<typeof demoAnalysisOutput>;

export const demoListQuery = z.strictObject({ kind: z.enum(DEMO_KINDS) });
export const demoListOutput = z.object({ items: z.array(demoAnalysisOutput) });

const curve = z.array(z.number().nullable());

/** Per-second curves of the whole recording (or of one tracked person). */
export const demoSeriesSchema = z.object({
  second: z.array(z.number()),
  engagement: curve,
  valence: curve,
  attention: curve,
  expressions: z.record(z.string(), curve),
  /** Smile index 0..1 (the classifier's happy with the lip corners' pull). */
  smile: curve,
  /** Share of the second's frames with the head turned away or the eyes closed over 1 s. */
  distracted: curve,
  /** Head movement, degrees per second. */
  head_motion: curve,
});
export type DemoSeries = z.infer<typeof demoSeriesSchema>;

export const demoPersonSchema = z.object({
  track: z.number(),
  first_seconds: z.number(),
  last_seconds: z.number(),
  frames: z.number(),
  series: demoSeriesSchema,
  moments: z.array(z.object({ second: z.number(), engagement: z.number(), expression: z.string() })),
});
export type DemoPerson = z.infer<typeof demoPersonSchema>;

/** GET /cabinet/demo/{id}/result/: what the result page draws. */
export const demoResultOutput = z.object({
  analysis: demoAnalysisOutput,
  /** The analysis frame the boxes are measured in. */
  sampling: z.object({ fps: z.number(), width: z.number(), height: z.number() }),
  series: demoSeriesSchema,
  people: z.array(demoPersonSchema),
  /** The main face's box per analysed frame (analysis-frame pixels; null without a face), by time. */
  boxes: z.object({
    time: z.array(z.number()),
    x: curve,
    y: curve,
    w: curve,
    h: curve,
  }),
});
export type DemoResult = z.infer<typeof demoResultOutput>;

export const DEMO_EXPORT_FORMATS = ['json', 'csv'] as const;
