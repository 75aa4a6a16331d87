/** The database's tables, one file per domain under `tables/`, and the row types the repositories use. */
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { CalibrationChecksTable } from './tables/calibration-checks.ts';
import type { SessionGuidanceTable } from './tables/guidance.ts';
import type {
  CategoryEntriesTable,
  DataDeletionsTable,
  MediaTable,
  ProjectAccessorLinksTable,
  ProjectsTable,
  ResearchesTable,
  ScenarioResearchesTable,
  ScenariosTable,
  StorageTrashTable,
  SurveysTable,
} from './tables/projects.ts';
import type {
  AssignmentDecisionsTable,
  MturkHitsTable,
  ProlificStudiesTable,
  RecruitingActiveTokensTable,
  RecruitingTokenSharesTable,
  RecruitingTokensTable,
  SelfServiceEventsTable,
  SelfServiceTestsTable,
  SessionAccountsTable,
  SessionLedgerTable,
  TolokaPoolsTable,
} from './tables/recruiting.ts';
import type {
  DemoAnalysesTable,
  NormEntriesTable,
  NormImportsTable,
  ReportFilesTable,
  ReportsTable,
  ResearchNormsTable,
  TaskMarksTable,
} from './tables/reports.ts';
import type {
  DotTestChunksTable,
  DotTestEventBatchesTable,
  DotTestsTable,
  PhantomTruthsTable,
  ProcessResultsTable,
  RecordingChunksTable,
  RecordingSegmentsTable,
  RespondentAnswersTable,
  RespondentQuotaPlacesTable,
  RespondentSessionsTable,
  RespondentTurnAwaysTable,
  SessionEventBatchesTable,
  VideoProcessesTable,
} from './tables/respondents.ts';
import type { RateLimitCountersTable, UploadFinishesTable, WorkerHeartbeatsTable } from './tables/shared-state.ts';
import type {
  AccessRequestsTable,
  ApiTokensTable,
  AppSettingsTable,
  AuthSessionsTable,
  LoginFailuresTable,
  NotificationsTable,
  UserIdentitiesTable,
  UsersTable,
} from './tables/users.ts';
import type { WebhookAttemptsTable, WebhookEndpointsTable, WebhookMessagesTable } from './tables/webhooks.ts';

export type * from './tables/calibration-checks.ts';
export type * from './tables/projects.ts';
export type * from './tables/recruiting.ts';
export type * from './tables/reports.ts';
export type * from './tables/respondents.ts';
export type * from './tables/shared-state.ts';
export type * from './tables/users.ts';
export type * from './tables/webhooks.ts';

export interface DB {
  self_service_tests: SelfServiceTestsTable;
  self_service_events: SelfServiceEventsTable;
  session_accounts: SessionAccountsTable;
  session_ledger: SessionLedgerTable;
  toloka_pools: TolokaPoolsTable;
  mturk_hits: MturkHitsTable;
  prolific_studies: ProlificStudiesTable;
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
  phantom_truths: PhantomTruthsTable;
  session_guidance: SessionGuidanceTable;
  calibration_checks: CalibrationChecksTable;
  app_settings: AppSettingsTable;
  scenarios: ScenariosTable;
  surveys: SurveysTable;
  scenario_campaigns: ScenarioResearchesTable;
  project_accessor_links: ProjectAccessorLinksTable;
  campaigns: ResearchesTable;
  projects: ProjectsTable;
  users: UsersTable;
  user_identities: UserIdentitiesTable;
  auth_sessions: AuthSessionsTable;
  login_failures: LoginFailuresTable;
  media: MediaTable;
  storage_trash: StorageTrashTable;
  dot_tests: DotTestsTable;
  dot_test_chunks: DotTestChunksTable;
  dot_test_event_batches: DotTestEventBatchesTable;
  data_deletions: DataDeletionsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_attempts: WebhookAttemptsTable;
  rate_limit_counters: RateLimitCountersTable;
  worker_heartbeats: WorkerHeartbeatsTable;
  upload_finishes: UploadFinishesTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type AuthSession = Selectable<AuthSessionsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type ResearchRow = Selectable<ResearchesTable>;
export type ScenarioRow = Selectable<ScenariosTable>;
export type SurveyRow = Selectable<SurveysTable>;
export type AccessorLinkRow = Selectable<ProjectAccessorLinksTable>;
export type MediaRow = Selectable<MediaTable>;
export type ReportRow = Selectable<ReportsTable>;
export type DemoAnalysisRow = Selectable<DemoAnalysesTable>;
export type RespondentSessionRow = Selectable<RespondentSessionsTable>;
export type VideoProcessRow = Selectable<VideoProcessesTable>;
export type DotTestRow = Selectable<DotTestsTable>;
export type CalibrationCheckRow = Selectable<CalibrationChecksTable>;
