import type {
  Answers,
  ApiTokenScope,
  AudienceType,
  CampaignSettings,
  CampaignStatus,
  CategoryKind,
  ContentType,
  DeletionIdentifierKind,
  DeletionReason,
  DeletionScope,
  DemoKind,
  DemoStatus,
  DotTestResult,
  DotTestStatus,
  ExcludedReason,
  FixationSettings,
  FlowType,
  KeyMetrics,
  Language,
  MediaErrorCode,
  MediaKind,
  MediaRole,
  MediaStatus,
  NotificationKind,
  NotificationParams,
  Outcome,
  PanelParams,
  PictureGallery,
  Platform,
  ProcessErrorCode,
  ProjectStatus,
  Question,
  QuotaState,
  RecruitingEnvironment,
  RecruitingService,
  ReportAreaInput,
  ReportFileKind,
  ReportFilters,
  ReportSegment,
  ReportSnapshot,
  ReportStatus,
  ReportType,
  RespondentSessionStatus,
  RespondentStep,
  RetentionMode,
  Role,
  SelfServiceAudience,
  SelfServiceState,
  Sex,
  ShelfDisplay,
  ShelfSetting,
  SurveySlot,
  SurveyType,
  TolokaAudience,
  VideoProcessStatus,
} from '@emolens/contracts';
import type { PerSecondSeries, PersonTrack, SessionResult, SessionSummaryOut } from '@emolens/engine';
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** jsonb: written as JSON text, read back as the value by both drivers. */
type Json<T> = ColumnType<T, string, string>;

export interface UsersTable {
  id: Generated<string>;
  public_user_id: string;
  username: string;
  password_hash: string;
  role: Role;
  is_armi_user: Generated<boolean>;
  first_name: Generated<string>;
  last_name: Generated<string>;
  email: string | null;
  current_lang: Generated<Language>;
  is_active: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  last_login_at: Date | null;
}

export interface AuthSessionsTable {
  id: Generated<string>;
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: Date;
  ip: string | null;
  user_agent: string | null;
}

export interface LoginFailuresTable {
  id: Generated<string>;
  username_key: string;
  ip: string;
  created_at: Timestamp;
}

export interface AppSettingsTable {
  key: string;
  value: string;
  created_at: Timestamp;
}

export interface ProjectsTable {
  id: Generated<string>;
  title: string;
  description: Generated<string>;
  platform: Platform;
  respondent_language: Language;
  audience_type: AudienceType;
  flow_type: FlowType;
  status: Generated<ProjectStatus>;
  required_respondents: number | null;
  owner_id: string;
  created_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  launched_at: Date | null;
  completed_at: Date | null;
  archived_at: Date | null;
  retention_mode: Generated<RetentionMode>;
  retention_days: number | null;
  /** Seeded for a newcomer on the installation's first start (decision 017): shown as demo, never in benchmarks. */
  is_demo: Generated<boolean>;
  /** When the demo project's seeding gave up (issue 28 item 11); null while it is made, or made. */
  demo_stopped_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface DataDeletionsTable {
  id: Generated<string>;
  project_id: string;
  user_id: string | null;
  created_at: Generated<Date>;
  reason: DeletionReason;
  scope: DeletionScope;
  identifier_kind: DeletionIdentifierKind | null;
  identifier: string | null;
  session_count: number;
}

export interface CampaignCategories {
  brand: string;
  sub_brand: string;
  company: string;
  industry: string;
  sector: string;
  category: string;
  subtype: string;
}

export interface CampaignsTable {
  id: Generated<string>;
  project_id: string;
  title: string;
  description: Generated<string>;
  content_type: ContentType;
  status: Generated<CampaignStatus>;
  site_url: Generated<string>;
  /** jsonb: written as JSON text, read back as objects by both drivers. */
  categories: ColumnType<CampaignCategories, string, string>;
  settings: ColumnType<CampaignSettings, string, string>;
  picture_gallery: ColumnType<PictureGallery, string | undefined, string>;
  shelf_content_scenario: ColumnType<ShelfDisplay[], string | undefined, string>;
  shelf_setting: ColumnType<ShelfSetting, string | undefined, string>;
  is_self_service: Generated<boolean>;
  is_new_user_flow: boolean;
  created_by: string;
  modified_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RedirectLinks {
  complete: string;
  quota_full: string;
  screen_out: string;
}

export interface ScenariosTable {
  id: Generated<string>;
  project_id: string;
  order_number: number;
  description: Generated<string>;
  is_random_order: Generated<boolean>;
  is_use_face_checker: Generated<boolean>;
  /** A questionnaire of type screener (surveys.id), or none. */
  screener_survey_id: string | null;
  /** A questionnaire of type survey (surveys.id), shown after the content, or none. */
  embedded_survey_id: string | null;
  redirect_links: ColumnType<RedirectLinks, string, string>;
  quota: number | null;
  is_paid: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A questionnaire (screener or survey), its questions as the contracts' `questionSchema` writes them. */
export interface SurveysTable {
  id: Generated<string>;
  owner_id: string;
  type: SurveyType;
  title: string;
  enabled: Generated<boolean>;
  questions: ColumnType<Question[], string, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ScenarioCampaignsTable {
  scenario_id: string;
  campaign_id: string;
  position: number;
}

export interface ProjectAccessorLinksTable {
  id: Generated<string>;
  project_id: string;
  scenario_id: string;
  token: string;
  quota_size: number | null;
  is_use_face_checker: Generated<boolean>;
  is_request_payment_data: Generated<boolean>;
  is_screener_first: Generated<boolean>;
  created_at: Timestamp;
}

export interface MediaTable {
  id: string;
  campaign_id: string;
  owner_id: string;
  kind: MediaKind;
  role: Generated<MediaRole>;
  filename: string;
  /** bigint: read back as a string (pg) or a number (PGlite); convert with Number(). */
  size: ColumnType<string | number | bigint, number, number>;
  mime: string;
  storage_key: string;
  status: MediaStatus;
  duration_seconds: number | null;
  fps: number | null;
  width: number | null;
  height: number | null;
  poster_key: string | null;
  /** Why the file failed: a code of MEDIA_ERROR_CODES (its message is the contracts'). */
  error: MediaErrorCode | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Stored files whose media row is gone; filled by a trigger, emptied by a job. */
export interface StorageTrashTable {
  key: string;
  created_at: Timestamp;
}

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
  /** Campaign ids in the order this respondent sees them. */
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
  mean_engagement: number | null;
  /** The report digest (reports/digest.ts); null until written. */
  report_digest: Uint8Array | null;
}

/** A user's demo or interview analysis (demo module). */
export interface DemoAnalysesTable {
  id: string;
  owner_id: string;
  kind: DemoKind;
  filename: string;
  size: ColumnType<string | number | bigint, number, number>;
  mime: string;
  storage_key: string;
  duration_seconds: number | null;
  status: Generated<DemoStatus>;
  progress: Generated<number>;
  attempts: Generated<number>;
  error_code: ProcessErrorCode | null;
  engine_version: string | null;
  created_at: Timestamp;
  started_at: Date | null;
  finished_at: Date | null;
  sampling: Json<SessionResult['sampling']> | null;
  frames: Uint8Array | null;
  frame_count: number | null;
  series: Json<PerSecondSeries> | null;
  people: Json<PersonTrack[]> | null;
  summary: Json<SessionSummaryOut> | null;
  recording_seconds: number | null;
  sessions_counted: number | null;
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

/** A report: its definition and, once built, its snapshot (reports module). */
export interface ReportsTable {
  id: Generated<string>;
  campaign_id: string;
  created_by: string | null;
  name: string;
  type: ReportType;
  step: number;
  filters: Json<ReportFilters>;
  segment: Json<ReportSegment>;
  fixations: Json<FixationSettings>;
  areas: ColumnType<ReportAreaInput[], string | undefined, string>;
  status: ReportStatus;
  failed: Generated<boolean>;
  error_key: string | null;
  progress: Generated<number>;
  generation: Generated<number>;
  video_count: number | null;
  /** A snapshot built before decision 026 (jsonb); null for those built since, which are in `snapshot_text`. */
  snapshot: ColumnType<ReportSnapshot | null, string | null | undefined, string | null>;
  /** The snapshot's JSON text as the build wrote it (decision 026). */
  snapshot_text: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Timestamp;
  built_at: Date | null;
  last_accessed_at: Date | null;
  benchmark: Generated<boolean>;
  /** Other researches of the project whose respondents the report pools (decision 019). */
  researches: ColumnType<string[], string | undefined, string>;
}

/** A report's presentation or video export: made by a job, or (a presentation) the analyst's own file. */
export interface ReportFilesTable {
  report_id: string;
  kind: ReportFileKind;
  source: 'generated' | 'uploaded';
  status: 'in_progress' | 'done' | 'failed';
  attempt: Generated<number>;
  generation: number;
  language: Language;
  progress: Generated<number>;
  error_key: string | null;
  storage_key: string | null;
  filename: string | null;
  mime: string | null;
  size: ColumnType<string | number | bigint | null, number | null | undefined, number | null>;
  created_by: string | null;
  updated_at: Timestamp;
}
export type ReportFileRow = Selectable<ReportFilesTable>;

/** A request for access from the public pages (issue 28, item 16). */
export interface AccessRequestsTable {
  id: Generated<string>;
  name: string;
  company: string;
  email: string;
  package: string;
  message: Generated<string>;
  status: Generated<'new' | 'done'>;
  /** The customer account made from it. */
  user_id: string | null;
  handled_by: string | null;
  handled_at: Date | null;
  created_at: Timestamp;
}

/** A value of the categories directory (decision 016). */
export interface CategoryEntriesTable {
  id: Generated<string>;
  kind: CategoryKind;
  name: string;
  content_type: ContentType | null;
  created_by: string | null;
  created_at: Timestamp;
}

/** A research's key metrics from its latest whole-sample shift report. */
export interface ResearchNormsTable {
  campaign_id: string;
  report_id: string | null;
  respondents: number;
  metrics: Json<KeyMetrics>;
  updated_at: Timestamp;
}

export interface NormImportsTable {
  id: Generated<string>;
  name: string;
  imported_by: string | null;
  imported_at: Timestamp;
}

export interface NormEntriesTable {
  import_id: string;
  content_type: ContentType;
  subtype: string;
  respondents: number;
  metrics: Json<KeyMetrics>;
}

/** An analyst's mark of one respondent's run of one website-prototype task. */
export interface TaskMarksTable {
  session_id: string;
  campaign_id: string;
  task: number;
  mark: 'accepted' | 'rejected' | 'failed';
  marked_by: string | null;
  marked_at: Timestamp;
}

/** A user's personal API token (issue 14), stored hashed. */
export interface ApiTokensTable {
  id: Generated<string>;
  user_id: string;
  scope: ApiTokenScope;
  description: Generated<string>;
  token_hash: string;
  prefix: string;
  created_at: Timestamp;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

/** A linked Toloka or Amazon token (issue 14, item 3): the secret only encrypted, with a hint that is not secret. */
export interface RecruitingTokensTable {
  id: string;
  user_id: string;
  service: RecruitingService;
  environment: RecruitingEnvironment;
  description: string;
  /** AES-256-GCM: IV, tag, ciphertext (see modules/recruiting-tokens/crypto.ts). */
  secret_ciphertext: Buffer;
  hint: string;
  created_at: Timestamp;
  validated_at: Date | null;
}

export interface RecruitingTokenSharesTable {
  token_id: string;
  user_id: string;
  created_at: Timestamp;
}

/** A user's active token of a service: their own or one shared with them. */
export interface RecruitingActiveTokensTable {
  user_id: string;
  service: RecruitingService;
  token_id: string;
}

/** A research's Toloka pool (issue 14). */
export interface TolokaPoolsTable {
  campaign_id: string;
  token_id: string | null;
  environment: 'production' | 'sandbox';
  toloka_project_id: string;
  pool_id: string;
  title: string;
  reward: number;
  overlap: number;
  audience: ColumnType<TolokaAudience, string, string>;
  status: string;
  last_close_reason: string | null;
  /** Issue 14, item 5: decisions on assignments wait for the analyst ('confirm') or are sent at once ('auto'). */
  acceptance: Generated<'confirm' | 'auto'>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A research's Amazon MTurk HIT (issue 14, item 6). */
export interface MturkHitsTable {
  campaign_id: string;
  token_id: string | null;
  environment: 'production' | 'sandbox';
  hit_id: string;
  group_id: string | null;
  title: string;
  reward: number;
  max_assignments: number;
  status: string;
  expires_at: Date | null;
  /** Decisions on assignments wait for the analyst ('confirm') or are sent at once ('auto'). */
  acceptance: Generated<'confirm' | 'auto'>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A decision on a worker's Toloka or MTurk assignment (issue 14, items 5 and 6), and whether it reached the platform. */
export interface AssignmentDecisionsTable {
  platform: 'toloka' | 'mturk';
  assignment_id: string;
  campaign_id: string;
  worker_id: string;
  session_id: string | null;
  decision: 'accept' | 'reject';
  reason: string;
  excluded_reason: string | null;
  status: 'pending_confirmation' | 'sent' | 'failed';
  error: string | null;
  decided_at: Timestamp;
  sent_at: Date | null;
}

/** A metered account's session balance (issue 15, item 3); never negative. */
export interface SessionAccountsTable {
  user_id: string;
  balance: Generated<number>;
  unpaid: Generated<number>;
  updated_at: Timestamp;
}

/** A package added to an account, or sessions it consumed (issue 15, item 3); one per account and `ref`. */
export interface SessionLedgerTable {
  id: Generated<string>;
  user_id: string;
  kind: 'package' | 'respondent' | 'analysis' | 'self_service';
  ref: string;
  delta: number;
  unpaid: Generated<number>;
  package: string | null;
  quantity: number | null;
  project_id: string | null;
  seconds: number | null;
  actor_id: string | null;
  note: string | null;
  created_at: Timestamp;
}

/** An in-cabinet notification (issue 15, item 6): unread while `read_at` is null. */
export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  kind: NotificationKind;
  params: ColumnType<NotificationParams, string | undefined, string>;
  /** An in-app path (`/cabinet/…`), or none. */
  link: string | null;
  /** The event, so that it notifies its user once (`report:<id>:done:<generation>`). */
  dedupe_key: string | null;
  created_at: Timestamp;
  read_at: Date | null;
}

/** A self-service video-ad test (issue 15): its state, and the project, research, survey and link underneath. */
export interface SelfServiceTestsTable {
  id: Generated<string>;
  owner_id: string;
  project_id: string;
  campaign_id: string;
  survey_id: string | null;
  link_id: string | null;
  report_id: string | null;
  title: string;
  language: Language;
  state: Generated<SelfServiceState>;
  respondents: Generated<number>;
  audience: ColumnType<SelfServiceAudience, string, string>;
  sessions_per_interview: number | null;
  session_count: number | null;
  moderation_comment: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  submitted_at: Date | null;
  started_at: Date | null;
}

/** A self-service test's state history: who moved it, when, with the moderators' comment. */
export interface SelfServiceEventsTable {
  id: Generated<string>;
  test_id: string;
  state: SelfServiceState;
  actor_id: string | null;
  comment: string | null;
  created_at: Timestamp;
}

export interface DB {
  self_service_tests: SelfServiceTestsTable;
  self_service_events: SelfServiceEventsTable;
  session_accounts: SessionAccountsTable;
  session_ledger: SessionLedgerTable;
  toloka_pools: TolokaPoolsTable;
  mturk_hits: MturkHitsTable;
  assignment_decisions: AssignmentDecisionsTable;
  notifications: NotificationsTable;
  api_tokens: ApiTokensTable;
  recruiting_tokens: RecruitingTokensTable;
  recruiting_token_shares: RecruitingTokenSharesTable;
  recruiting_active_tokens: RecruitingActiveTokensTable;
  reports: ReportsTable;
  report_files: ReportFilesTable;
  category_entries: CategoryEntriesTable;
  access_requests: AccessRequestsTable;
  research_norms: ResearchNormsTable;
  norm_imports: NormImportsTable;
  norm_entries: NormEntriesTable;
  task_marks: TaskMarksTable;
  demo_analyses: DemoAnalysesTable;
  respondent_sessions: RespondentSessionsTable;
  respondent_turn_aways: RespondentTurnAwaysTable;
  respondent_answers: RespondentAnswersTable;
  respondent_quota_places: RespondentQuotaPlacesTable;
  recording_segments: RecordingSegmentsTable;
  recording_chunks: RecordingChunksTable;
  session_event_batches: SessionEventBatchesTable;
  video_processes: VideoProcessesTable;
  process_results: ProcessResultsTable;
  app_settings: AppSettingsTable;
  scenarios: ScenariosTable;
  surveys: SurveysTable;
  scenario_campaigns: ScenarioCampaignsTable;
  project_accessor_links: ProjectAccessorLinksTable;
  campaigns: CampaignsTable;
  projects: ProjectsTable;
  users: UsersTable;
  auth_sessions: AuthSessionsTable;
  login_failures: LoginFailuresTable;
  media: MediaTable;
  storage_trash: StorageTrashTable;
  dot_tests: DotTestsTable;
  dot_test_chunks: DotTestChunksTable;
  dot_test_event_batches: DotTestEventBatchesTable;
  data_deletions: DataDeletionsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type AuthSession = Selectable<AuthSessionsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type CampaignRow = Selectable<CampaignsTable>;
export type ScenarioRow = Selectable<ScenariosTable>;
export type SurveyRow = Selectable<SurveysTable>;
export type AccessorLinkRow = Selectable<ProjectAccessorLinksTable>;
export type MediaRow = Selectable<MediaTable>;
export type ReportRow = Selectable<ReportsTable>;
export type DemoAnalysisRow = Selectable<DemoAnalysesTable>;
export type RespondentSessionRow = Selectable<RespondentSessionsTable>;
export type VideoProcessRow = Selectable<VideoProcessesTable>;
export type DotTestRow = Selectable<DotTestsTable>;
