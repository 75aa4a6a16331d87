/** Table types: Respondent sessions, their answers and recordings, video processing and dot tests. */
import type {
  AnalysisSite,
  Answers,
  CalibrationCheckVerdict,
  DotTestResult,
  DotTestStatus,
  ExcludedReason,
  Language,
  Outcome,
  PanelParams,
  PhantomTruthInput,
  Platform,
  ProcessErrorCode,
  QuotaState,
  RespondentSessionStatus,
  RespondentStep,
  Sex,
  SurveySlot,
  VideoProcessStatus,
} from '@emolens/contracts';
import type { PerSecondSeries, PersonTrack, SessionSummaryOut } from '@emolens/engine';
import type { ColumnType, Generated } from 'kysely';
import type { Json, Timestamp } from './columns.ts';

export interface RespondentSessionsTable {
  id: Generated<string>;
  link_id: string;
  project_id: string;
  scenario_id: string;
  secret_hash: string;
  status: RespondentSessionStatus;
  step: Generated<RespondentStep>;
  is_preview: Generated<boolean>;
  platform: Platform;
  participant_id: string | null;
  panel: ColumnType<PanelParams, string | undefined, string>;
  language: Language;
  consent_policy_version: string;
  consent_language: Language;
  consented_at: Timestamp;
  panel_consent: Generated<boolean>;
  /** Research ids in the order this respondent sees them. */
  research_order: ColumnType<string[], string, string>;
  research_index: Generated<number>;
  screener_ran: Generated<boolean>;
  /** The respondent's sex and age as the questionnaires' profile questions give them (`respondentProfile`). */
  sex: Sex | null;
  age: number | null;
  screen_width: number | null;
  screen_height: number | null;
  device_pixel_ratio: number | null;
  user_agent: string | null;
  outcome: Outcome | null;
  quota_state: QuotaState | null;
  leave_reason: string | null;
  /** The short completion code (issue 28, item 13), given when the session's end is first shown. */
  completion_code: string | null;
  /** The calibration check's verdict before the content (decision 050); null: not checked (yet). */
  calibration_check: CalibrationCheckVerdict | null;
  /** Where the face analysis runs (privacy mode, decision 064): set at the start, then by the device check. */
  analysis_site: Generated<AnalysisSite>;
  /** The frames a second the device analysed during the face check; null: not measured. */
  device_fps: number | null;
  /** A device measured too slow whose respondent chose to upload the video instead. */
  fell_back: Generated<boolean>;
  started_at: Timestamp;
  last_seen_at: Timestamp;
  ended_at: Date | null;
}

/** A respondent the full quota turned away at the start page (issue 28, item 15): no session, no personal data. */
export interface RespondentTurnAwaysTable {
  id: Generated<string>;
  link_id: string;
  project_id: string;
  scenario_id: string;
  created_at: Timestamp;
}

/** A session's answers to one questionnaire slot (replaced whole by each save). */
export interface RespondentAnswersTable {
  session_id: string;
  slot: SurveySlot;
  survey_id: string;
  /** jsonb: `{ question id: answer }`, checked by the contracts before it is written. */
  answers: Json<Answers>;
  done: Generated<boolean>;
  updated_at: Timestamp;
}

/** A screener quota option a session passed with: the place it holds in its scenario. */
export interface RespondentQuotaPlacesTable {
  session_id: string;
  scenario_id: string;
  question_id: string;
  option_id: string;
}

export interface RecordingSegmentsTable {
  session_id: string;
  segment: number;
  offset_ms: number;
  mime_type: string;
  created_at: Timestamp;
}

export interface RecordingChunksTable {
  session_id: string;
  segment: number;
  index: number;
  size: number;
  sha256: string;
  storage_key: string;
  created_at: Timestamp;
}

export interface SessionEventBatchesTable {
  session_id: string;
  seq: number;
  /** jsonb: the batch's events as posted (validated). */
  events: ColumnType<unknown[], string, string>;
  first_t: number;
  last_t: number;
  digest: string;
  created_at: Timestamp;
}

export interface VideoProcessesTable {
  id: Generated<string>;
  session_id: string;
  campaign_id: string;
  status: VideoProcessStatus;
  progress: Generated<number>;
  attempts: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  generation: Generated<number>;
  queued_generation: number | null;
  engine_version: string | null;
  error_code: ProcessErrorCode | null;
  started_at: Date | null;
  finished_at: Date | null;
  result_id: string | null;
}

export interface ProcessResultsTable {
  id: Generated<string>;
  process_id: string;
  generation: number;
  engine_version: string;
  created_at: Timestamp;
  recording_seconds: number;
  fps: number;
  frame_count: number;
  frames: Uint8Array;
  series: Json<PerSecondSeries>;
  people: Json<PersonTrack[]>;
  summary: Json<SessionSummaryOut>;
  face_found: boolean;
  bad_frame_share: number;
  usable: boolean;
  excluded_reason: ExcludedReason | null;
  calibration_status: 'calibrated' | 'calibration_failed' | 'not_run';
  calibration_accuracy_px: number | null;
  calibration_accuracy_percent: number | null;
  /** The gaze's precision on the validation dots, RMS sample to sample (decision 052); null when not measured. */
  calibration_precision_px: number | null;
  calibration_precision_percent: number | null;
  /**
   * The drift checkpoints' offsets during the content (decision 053): mean and largest of those used (px), the mean
   * in % of the diagonal, checkpoints used, gaze corrected; all null when the session had no checkpoint.
   */
  drift_mean_px: number | null;
  drift_max_px: number | null;
  drift_mean_percent: number | null;
  drift_checkpoints: number | null;
  drift_corrected: boolean | null;
  /** The respondent's distance to the camera from the iris's size, cm (decision 043); null when not measured. */
  distance_cm: number | null;
  mean_engagement: number | null;
  /** The report digest (reports/digest.ts); null until written. */
  report_digest: Uint8Array | null;
}

/** A phantom recording's truth, attached to its session (decision 035). */
export interface PhantomTruthsTable {
  session_id: string;
  name: string;
  frames: number;
  truth: Json<PhantomTruthInput>;
  uploaded_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DotTestsTable {
  id: Generated<string>;
  secret_hash: string;
  status: DotTestStatus;
  language: Language;
  retention_days: number;
  mime_type: string;
  screen_width: number;
  screen_height: number;
  device_pixel_ratio: number;
  user_agent: string | null;
  progress: Generated<number>;
  attempts: Generated<number>;
  error_code: ProcessErrorCode | null;
  engine_version: string | null;
  /** jsonb: what the page shows. */
  result: ColumnType<DotTestResult | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  expires_at: Date;
}

export interface DotTestChunksTable {
  dot_test_id: string;
  index: number;
  size: number;
  sha256: string;
  storage_key: string;
  created_at: Timestamp;
}

export interface DotTestEventBatchesTable {
  dot_test_id: string;
  seq: number;
  /** jsonb: the batch's events as posted (validated). */
  events: ColumnType<unknown[], string, string>;
  last_t: number;
  digest: string;
  created_at: Timestamp;
}
