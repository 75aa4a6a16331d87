import { z } from 'zod';
import { READINGS_MIME_TYPE, respondentAnalysisSchema } from './analysis-site.ts';
import {
  pictureGallerySchema,
  shelfContentScenarioSchema,
  shelfSettingSchema,
  webResourceScenarioSchema,
} from './content.ts';
import { LANGUAGES } from './languages.ts';
import { FLOW_TYPES, PLATFORMS } from './projects.ts';
import { CONTENT_TYPES, ORIENTATIONS } from './researches.ts';
import { answerSchema } from './survey-answers.ts';
import { questionSchema, SURVEY_SLOTS, SURVEY_TYPES } from './surveys.ts';

/**
 * The respondent side (design section 6): the public API under `/r/`, no login. Every input here
 * comes from an anonymous browser, so every schema is strict and bounded. A session is reached with
 * its id in the path and its secret in `Authorization: Bearer <secret>`; anything else is "not found".
 */

/** Where the respondent API lives. */
export const RESPONDENT_API = '/r';
export const RESPONDENT_SECRET_HEADER = 'authorization';

/** Version of the personal-data policy text the respondent agrees to (bump when the text changes). */
export const CONSENT_POLICY_VERSION = '2026-11-23';

/**
 * How the respondent page runs calibration and validation (what it logs, and so what the engine reads): the moving
 * dot logged every `dotLogMs`, kept `marginPx` from the screen's edges; each still validation dot shown for
 * `stillDotMs`, at `VALIDATION_POINTS` (fractions of the screen: the centre, then the corners).
 */
export const CALIBRATION_TIMING = { dotLogMs: 100, stillDotMs: 1500, marginPx: 40 } as const;
export const VALIDATION_POINTS = [
  [0.5, 0.5],
  [0.15, 0.15],
  [0.85, 0.15],
  [0.85, 0.85],
  [0.15, 0.85],
] as const;

/**
 * Drift checkpoints during the content (issue 31, item 4; decision 055): once the content has run `everySeconds` since
 * the calibration or the last checkpoint, the next natural break (between two pictures or shelf images, between site
 * tasks, before the next research's video) shows one still dot at a `VALIDATION_POINTS` place (the next one each
 * time) for `breakDotMs`; with the research's overlay on, a playing video shows one over it for `overlayDotMs` each
 * `everySeconds` of playback. Each is logged as `checkpoint_dot` (screen CSS px); the engine measures drift on it.
 */
export const DRIFT_CHECKPOINT_TIMING = {
  everySeconds: 60,
  breakDotMs: CALIBRATION_TIMING.stillDotMs,
  overlayDotMs: 1000,
} as const;

/** The calibration dot's path over the whole screen (a Lissajous figure) at `f` ∈ [0, 1], in screen pixels. */
export function calibrationPathAt(f: number, width: number, height: number): { x: number; y: number } {
  const a = 2 * Math.PI * f;
  const margin = CALIBRATION_TIMING.marginPx;
  const fx = 0.5 + 0.5 * Math.sin(3 * a - Math.PI / 2);
  const fy = 0.5 + 0.5 * Math.sin(2 * a);
  return { x: margin + fx * (width - 2 * margin), y: margin + fy * (height - 2 * margin) };
}

export const RESPONDENT_LIMITS = {
  /** One recorder chunk (a 2-second timeslice of webcam video is ~0.1–1 MB). */
  chunkBytes: 8 * 1024 * 1024,
  /** Chunks in one segment: 2 s each, 4 hours. */
  chunksPerSegment: 7200,
  /** Segments of one session (every reload starts one). */
  segments: 50,
  /** Events in one posted batch. */
  eventsPerBatch: 500,
  /** Event batches of one session. */
  eventBatches: 20_000,
  /** Event times may run this far ahead of the server's own clock of the session (ms). */
  clockSlackMs: 10_000,
  /** A started session with no activity for this long counts as dropped out. */
  dropOutAfterMinutes: 30,
  /** Calibration: the dot moves over the screen for the flow's seconds (spec section 9); then validation. */
  validationPoints: 5,
  /** The drift check after a resume: three still dots before the content goes on. */
  checkpointPoints: 3,
  /** The recorder's timeslice, ms. */
  timesliceMs: 2000,
  /** The bitrate the recorder asks the browser's MediaRecorder for (VP8 or VP9 in WebM, H.264 in MP4). */
  videoBitsPerSecond: 1_000_000,
  /** Scripts and models load with this timeout (spec section 9). */
  scriptTimeoutMs: 120_000,
  /** Camera signal lost: the track ended, or no frame for this long (ms); then redirect after 5 s. */
  noFramesMs: 2000,
  cameraLostRedirectSeconds: 5,
} as const;

/** Session statuses: running, and the ends. `dropped_out` is set when a respondent leaves for good. */
export const RESPONDENT_SESSION_STATUSES = [
  'started',
  'completed',
  'screened_out',
  'quota_full',
  'dropped_out',
  'calibration_failed',
  /** Privacy mode: the device analysed too few frames a second and the respondent stopped (decision 064). */
  'device_too_slow',
] as const;
export type RespondentSessionStatus = (typeof RESPONDENT_SESSION_STATUSES)[number];

/** The outcome a session ends with (what the panel is told). */
export const OUTCOMES = ['complete', 'screen_out', 'quota_full'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** A completion's hold on its quota slot: pending until processing says usable (counted) or not (released). */
export const QUOTA_STATES = ['pending', 'counted', 'released'] as const;
export type QuotaState = (typeof QUOTA_STATES)[number];

/** The steps of the journey, as the session records where the respondent is (and where they left). */
export const RESPONDENT_STEPS = [
  'consent',
  'camera',
  'face_check',
  'screener',
  'calibration',
  'content',
  'survey',
  'save',
  'end',
] as const;
export type RespondentStep = (typeof RESPONDENT_STEPS)[number];

// ---------------------------------------------------------------------------------------------
// Panel parameters (design section 6). Values are bounded ids; anything else on the link is ignored.

const panelValue = z
  .string()
  .max(200)
  .regex(/^[\w.:@+\-=~]*$/);
/** Where MTurk wants the end posted; the server accepts only the origins of its configuration. */
const turkSubmitTo = z.url({ protocol: /^https?$/ }).max(300);

/** What the browser passes from the link's query string. Unknown keys are dropped, not refused. */
export const panelParamsSchema = z.object({
  participant_id: panelValue.optional(),
  RID: panelValue.optional(),
  assignmentId: panelValue.optional(),
  workerId: panelValue.optional(),
  hitId: panelValue.optional(),
  turkSubmitTo: turkSubmitTo.optional(),
  /** Prolific's participant, study and submission ids (its URL parameters, decision 068). */
  PROLIFIC_PID: panelValue.optional(),
  STUDY_ID: panelValue.optional(),
  SESSION_ID: panelValue.optional(),
});
export type PanelParams = z.infer<typeof panelParamsSchema>;

/** MTurk's preview: the worker looks at the task before accepting it; nothing is recorded. */
export const MTURK_PREVIEW_ASSIGNMENT = 'ASSIGNMENT_ID_NOT_AVAILABLE';

/** The query keys the respondent page reads into panel parameters (others are ignored). */
export const PANEL_QUERY_KEYS = [
  'participant_id',
  'RID',
  'assignmentId',
  'workerId',
  'hitId',
  'turkSubmitTo',
  'PROLIFIC_PID',
  'STUDY_ID',
  'SESSION_ID',
] as const;

// ---------------------------------------------------------------------------------------------
// GET /r/links/{token} — what the start page needs; creates nothing.

export const LINK_STATES = ['open', 'preview', 'finished', 'suspended', 'quota_full'] as const;
export type LinkState = (typeof LINK_STATES)[number];

export const linkInfoOutput = z.object({
  /** open: collecting; preview: a draft project (nothing is saved); finished: completed or archived project. */
  state: z.enum(LINK_STATES),
  project_title: z.string(),
  platform: z.enum(PLATFORMS),
  language: z.enum(LANGUAGES),
  flow_type: z.enum(FLOW_TYPES),
  calibration_seconds: z.number(),
  consent_policy_version: z.string(),
  use_face_checker: z.boolean(),
  screener_first: z.boolean(),
  orientation: z.enum(ORIENTATIONS),
  /**
   * Privacy mode (decision 064): a research of the link keeps the video on the respondent's device, which the consent
   * screen says (the session's `analysis.onDevice` once it starts).
   */
  video_on_device: z.boolean(),
});
export type LinkInfo = z.infer<typeof linkInfoOutput>;

// ---------------------------------------------------------------------------------------------
// POST /r/links/{token}/sessions — consent given: the session starts.

export const startSessionInput = z.strictObject({
  consent: z.strictObject({
    accepted: z.literal(true),
    policy_version: z.string().max(32),
    language: z.enum(LANGUAGES),
    /** Cint's own consent dialog, confirmed (required when the platform is Cint). */
    panel_consent: z.boolean().default(false),
  }),
  panel: panelParamsSchema.default({}),
  screen: z.strictObject({
    width: z.number().int().min(100).max(20_000),
    height: z.number().int().min(100).max(20_000),
    device_pixel_ratio: z.number().min(0.25).max(10),
  }),
});
export type StartSessionInput = z.input<typeof startSessionInput>;

/** A research as the respondent's browser runs it: only what it needs to show it. */
export const respondentResearchSchema = z.object({
  campaign_id: z.string(),
  content_type: z.enum(CONTENT_TYPES),
  orientation: z.enum(ORIENTATIONS),
  task_language: z.enum(LANGUAGES),
  /** Video research: the content file's URL (signed for this session) and its length. */
  video: z.object({ url: z.string(), duration_seconds: z.number().nullable() }).nullable(),
  /** Content lengths for contentless researches (seconds). */
  duration_seconds: z.number().nullable(),
  picture_gallery: pictureGallerySchema,
  shelf_content_scenario: shelfContentScenarioSchema,
  shelf_setting: shelfSettingSchema,
  web_resource_scenario: webResourceScenarioSchema,
  site_url: z.string(),
  is_figma: z.boolean(),
  auto_show_task_description: z.boolean(),
  /** Drift checkpoints at the content's natural breaks, and over a playing video (decision 055). */
  drift_checkpoints: z.boolean(),
  drift_overlay: z.boolean(),
  task_time_limit_seconds: z.number(),
  /** Image ids of the gallery, shelves and tasks → signed URLs for this session. */
  images: z.record(z.string(), z.string()),
});
export type RespondentResearch = z.infer<typeof respondentResearchSchema>;

/** An end: what the respondent sees last, and where they go. */
export const sessionEndSchema = z.object({
  outcome: z.enum(OUTCOMES),
  /** The short completion code to copy (when there is no redirect); the checker and the panels accept it. */
  code: z.string().nullable(),
  /** The signed completion token (JWT) for integrations that read it; checked with the app secret alone. */
  token: z.string().nullable(),
  /** Where the browser goes now (panel redirect with the participant id). */
  redirect_url: z.string().nullable(),
  /** MTurk: the browser POSTs this form to `action`. */
  mturk: z.object({ action: z.string(), assignment_id: z.string() }).nullable(),
});
export type SessionEnd = z.infer<typeof sessionEndSchema>;

/**
 * A questionnaire of the session's scenario as the respondent answers it: its questions (texts in every
 * language: the page shows the session's), the answers saved so far (a reload resumes them) and whether the
 * final answers were sent. A slot without a questionnaire, or with a disabled one, is null: the step is skipped.
 */
export const respondentQuestionnaireSchema = z.object({
  id: z.string(),
  type: z.enum(SURVEY_TYPES),
  questions: z.array(questionSchema),
  answers: z.record(z.string(), answerSchema),
  done: z.boolean(),
});
export type RespondentQuestionnaire = z.infer<typeof respondentQuestionnaireSchema>;

export const sessionStateOutput = z.object({
  session_id: z.string(),
  status: z.enum(RESPONDENT_SESSION_STATUSES),
  preview: z.boolean(),
  step: z.enum(RESPONDENT_STEPS),
  /** Index into `researches` of the research being shown (a reload restarts it). */
  research_index: z.number(),
  researches: z.array(respondentResearchSchema),
  calibration_seconds: z.number(),
  use_face_checker: z.boolean(),
  /** The calibration is checked before the content (decision 050): a gaze research of the session asks for it. */
  calibration_check: z.boolean(),
  /** The screener comes right after the camera (and face check), else after the calibration (the quota link's choice). */
  screener_first: z.boolean(),
  /** Whether the screener gave its verdict (passed, or screened out): set by its final answers. */
  screener: z.object({ ran: z.boolean() }),
  /**
   * The scenario's questionnaires: the screener before the content (see `screener_first`), the survey after
   * the content and before the save. The server completes a session only when each of them is done.
   */
  surveys: z.object({
    screener: respondentQuestionnaireSchema.nullable(),
    survey: respondentQuestionnaireSchema.nullable(),
  }),
  /**
   * Where the face analysis runs (privacy mode, decision 064): on the device, the page records no video upload and
   * sends readings in the chunks; `undecided` until the device's speed is measured (`/device-check`).
   */
  analysis: respondentAnalysisSchema,
  /** Segments stored so far, with the chunks acknowledged in each (what a reload resumes from). */
  segments: z.array(z.object({ segment: z.number(), offset_ms: z.number(), chunks: z.number() })),
  /** The next event batch sequence number the server expects. */
  next_event_seq: z.number(),
  /** Server time since the session started (ms): the session clock now. */
  clock_ms: z.number(),
  end: sessionEndSchema.nullable(),
});
export type SessionState = z.infer<typeof sessionStateOutput>;

/** The session is created: its secret is shown once, here. */
export const startSessionOutput = z.object({ secret: z.string(), session: sessionStateOutput });
export type StartSessionOutput = z.infer<typeof startSessionOutput>;

// ---------------------------------------------------------------------------------------------
// POST /r/sessions/{id}/segments — a recording segment starts (first start and every reload).

/** A segment's recording: a video, or (a device session, privacy mode) the face engine's readings. */
export const SEGMENT_MIME_TYPES = ['video/webm', 'video/mp4', READINGS_MIME_TYPE] as const;
export const startSegmentInput = z.strictObject({
  mime_type: z.enum(SEGMENT_MIME_TYPES),
  screen: startSessionInput.shape.screen,
});
export const startSegmentOutput = z.object({ segment: z.number(), offset_ms: z.number() });

// PUT /r/sessions/{id}/segments/{segment}/chunks/{index} — body: the raw chunk bytes
// (application/octet-stream), header `x-chunk-sha256` (hex). The same index with the same bytes
// answers 200 again; different bytes 409; an index past the next expected one 409.
/** A session's recording segment in a path (the cabinet's playback of it too). */
export const segmentParams = z.strictObject({
  id: z.string().max(64),
  segment: z.coerce
    .number()
    .int()
    .min(0)
    .max(RESPONDENT_LIMITS.segments - 1),
});
export const chunkParams = segmentParams.extend({
  index: z.coerce
    .number()
    .int()
    .min(0)
    .max(RESPONDENT_LIMITS.chunksPerSegment - 1),
});
export const chunkOutput = z.object({ segment: z.number(), index: z.number(), stored: z.boolean() });

// ---------------------------------------------------------------------------------------------
// PUT /r/sessions/{id}/surveys/{slot}/answers — body `respondentAnswersInput` (surveys.ts): the answers so
// far, replacing the stored ones whole; `final` sends them (once: a repeat of the same answers is harmless,
// other answers are refused). Problems answer 400 with a message per field `answers.<question id>`. The
// screener's final answers give its verdict: screened out ends the session with its `end`.

export const answersParams = z.strictObject({ id: z.string().max(64), slot: z.enum(SURVEY_SLOTS) });
export const answersOutput = z.object({
  slot: z.enum(SURVEY_SLOTS),
  /** Saved (false in a preview, which stores nothing, and for a repeat of the sent answers). */
  stored: z.boolean(),
  /** The final answers are in. */
  done: z.boolean(),
  /** The session ended here (screened out by the screener): what the respondent sees last, and where they go. */
  end: sessionEndSchema.nullable(),
});
export type AnswersOutput = z.infer<typeof answersOutput>;

// ---------------------------------------------------------------------------------------------
// POST /r/sessions/{id}/complete — the browser says everything is sent; the server checks it.

/**
 * What the page has sent of the recording: chunks per segment and event batches (0 … event_batches − 1). The
 * completion names every segment; a calibration check what is sent so far.
 */
export const sentRecordingFields = {
  segments: z
    .array(
      z.strictObject({
        segment: z
          .number()
          .int()
          .min(0)
          .max(RESPONDENT_LIMITS.segments - 1),
        chunks: z.number().int().min(1).max(RESPONDENT_LIMITS.chunksPerSegment),
      }),
    )
    .min(1)
    .max(RESPONDENT_LIMITS.segments),
  event_batches: z.number().int().min(1).max(RESPONDENT_LIMITS.eventBatches),
};

export const completeSessionInput = z.strictObject(sentRecordingFields);
export type CompleteSessionInput = z.infer<typeof completeSessionInput>;

/** POST /r/sessions/{id}/leave — the respondent left for good (camera lost and not restarted, …). */
export const leaveSessionInput = z.strictObject({ reason: z.enum(['camera_lost', 'left', 'orientation']) });

// ---------------------------------------------------------------------------------------------
// Completion codes (design section 6): signed tokens, verified without a lookup table.

export interface CompletionClaims {
  /** session id */
  sid: string;
  /** project id */
  pid: string;
  /** research (campaign) ids of the scenario */
  cids: string[];
  /** participant id (Toloka, own audience…), or null */
  par: string | null;
  outcome: Outcome;
}

/** POST /api/cabinet/check-token/ — pasted codes, one per line or comma-separated. */
export const checkTokensInput = z.strictObject({ codes: z.string().max(200_000) });
export const CHECK_TOKEN_LIMIT = 500;

export const checkedTokenSchema = z.object({
  code: z.string(),
  valid: z.boolean(),
  /** Why a code is not valid: forged or altered signature, not a code at all, or the session is gone. */
  reason: z.enum(['forged', 'malformed', 'session_missing']).nullable(),
  project: z.object({ id: z.string(), title: z.string() }).nullable(),
  researches: z.array(z.object({ id: z.string(), title: z.string() })),
  participant_id: z.string().nullable(),
  outcome: z.enum(OUTCOMES).nullable(),
  session_status: z.enum(RESPONDENT_SESSION_STATUSES).nullable(),
  quota_state: z.enum(QUOTA_STATES).nullable(),
  completed_at: z.string().nullable(),
});
export type CheckedToken = z.infer<typeof checkedTokenSchema>;
export const checkTokensOutput = z.object({ items: z.array(checkedTokenSchema), truncated: z.boolean() });
