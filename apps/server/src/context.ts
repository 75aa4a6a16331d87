import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { JobDefinition } from './jobs/define.ts';
import { JobQueue } from './jobs/queue.ts';
import { type WorkDir, workDirFor } from './jobs/work-dir.ts';
import { type AccessRepository, createAccessRepository } from './modules/access/access.repository.ts';
import {
  type AccessRequestsRepository,
  createAccessRequestsRepository,
} from './modules/access-requests/access-requests.repository.ts';
import { type ApiAccessRepository, createApiAccessRepository } from './modules/api-access/api-access.repository.ts';
import { type AuthRepository, createAuthRepository } from './modules/auth/auth.repository.ts';
import { randomToken } from './modules/auth/tokens.ts';
import { type BenchmarksRepository, createBenchmarksRepository } from './modules/benchmarks/benchmarks.repository.ts';
import {
  type CalibrationChecksRepository,
  createCalibrationChecksRepository,
} from './modules/calibration-check/calibration-check.repository.ts';
import { createDemoDataRepository, type DemoDataRepository } from './modules/demo-data/demo-data.repository.ts';
import { createDotTestsRepository, type DotTestsRepository } from './modules/dot-test/dot-test.repository.ts';
import { createFieldworkRepository, type FieldworkRepository } from './modules/fieldwork/fieldwork.repository.ts';
import { createGuidanceRepository, type GuidanceRepository } from './modules/guidance/guidance.repository.ts';
import {
  createInterviewAnalysisRepository,
  type InterviewAnalysisRepository,
} from './modules/interview-analysis/interview-analysis.repository.ts';
import { createLicencesRepository, type LicencesRepository } from './modules/licences/licences.repository.ts';
import { createMediaRepository, type MediaRepository } from './modules/media/media.repository.ts';
import { type Storage, storageFor } from './modules/media/storage.ts';
import {
  createNotificationsRepository,
  type NotificationsRepository,
} from './modules/notifications/notifications.repository.ts';
import {
  createPhantomTruthsRepository,
  type PhantomTruthsRepository,
} from './modules/phantom-truths/phantom-truths.repository.ts';
import { createEngineRunner, type EngineRunner } from './modules/processing/engine-runner.ts';
import { createProcessingRepository, type ProcessingRepository } from './modules/processing/processing.repository.ts';
import { createProjectsRepository, type ProjectsRepository } from './modules/projects/projects.repository.ts';
import { createRecordingRepository, type RecordingRepository } from './modules/recording/recording.repository.ts';
import { createMturkHitsRepository, type MturkHitsRepository } from './modules/recruiting/mturk-hits.repository.ts';
import { createRecruitingRepository, type RecruitingRepository } from './modules/recruiting/recruiting.repository.ts';
import {
  createTolokaPoolsRepository,
  type TolokaPoolsRepository,
} from './modules/recruiting/toloka-pools.repository.ts';
import { createTokenCipher, recruitingTokensKey } from './modules/recruiting-tokens/crypto.ts';
import {
  createRecruitingTokensRepository,
  type RecruitingTokensRepository,
} from './modules/recruiting-tokens/recruiting-tokens.repository.ts';
import { createReportFilesRepository, type ReportFilesRepository } from './modules/reports/report-files.repository.ts';
import { createReportsRepository, type ReportsRepository } from './modules/reports/reports.repository.ts';
import { createResearchesRepository, type ResearchesRepository } from './modules/researches/researches.repository.ts';
import {
  type AnalysisSiteRepository,
  createAnalysisSiteRepository,
} from './modules/respondents/analysis-site.repository.ts';
import {
  createRespondentAnswersRepository,
  type RespondentAnswersRepository,
} from './modules/respondents/answers.repository.ts';
import {
  type CompletionsRepository,
  createCompletionsRepository,
} from './modules/respondents/completion.repository.ts';
import {
  createRespondentsRepository,
  type RespondentsRepository,
} from './modules/respondents/respondents.repository.ts';
import {
  createSessionEndsRepository,
  type SessionEndsRepository,
} from './modules/respondents/session-ends.repository.ts';
import { createRetentionRepository, type RetentionRepository } from './modules/retention/retention.repository.ts';
import { createScenariosRepository, type ScenariosRepository } from './modules/scenarios/scenarios.repository.ts';
import {
  createSelfServiceRepository,
  type SelfServiceRepository,
} from './modules/self-service/self-service.repository.ts';
import { createSurveysRepository, type SurveysRepository } from './modules/surveys/surveys.repository.ts';
import { createUsersRepository, type UsersRepository } from './modules/users/users.repository.ts';

/**
 * What services are given: every repository, the storage, the queue and the log, built once per
 * process in `createContext`. A service declares the part it uses (`Pick<Deps, …>`), so tests and
 * jobs can see at a glance what it touches.
 */
export interface Deps {
  access: AccessRepository;
  apiAccess: ApiAccessRepository;
  auth: AuthRepository;
  users: UsersRepository;
  projects: ProjectsRepository;
  researches: ResearchesRepository;
  scenarios: ScenariosRepository;
  surveys: SurveysRepository;
  media: MediaRepository;
  fieldwork: FieldworkRepository;
  respondents: RespondentsRepository;
  respondentAnswers: RespondentAnswersRepository;
  completions: CompletionsRepository;
  /** A browser's recording (chunks, event batches) for a respondent's session and a dot test alike. */
  recording: RecordingRepository;
  sessionEnds: SessionEndsRepository;
  /** Where a session's face analysis runs: the device (privacy mode) or the server (decision 064). */
  analysisSite: AnalysisSiteRepository;
  processing: ProcessingRepository;
  /** Phantom recordings' truth, scored against their results (decision 035). */
  phantomTruths: PhantomTruthsRepository;
  /** Sessions' live guidance, counted at processing (decision 045). */
  guidance: GuidanceRepository;
  dotTests: DotTestsRepository;
  /** Calibration checks before the content (decision 050). */
  calibrationChecks: CalibrationChecksRepository;
  retention: RetentionRepository;
  /** Demo mode's and interview analysis' own videos and their analyses. */
  interviewAnalysis: InterviewAnalysisRepository;
  /** The seeded demo project (decision 017). */
  demoData: DemoDataRepository;
  reports: ReportsRepository;
  reportFiles: ReportFilesRepository;
  benchmarks: BenchmarksRepository;
  /** Linked Toloka and Amazon tokens, sealed with RECRUITING_TOKENS_KEY or a key derived from the app secret. */
  recruitingTokens: RecruitingTokensRepository;
  tolokaPools: TolokaPoolsRepository;
  /** Decisions on Toloka assignments (issue 14, item 5). */
  recruiting: RecruitingRepository;
  /** Licence packages and session accounting (issue 15, item 3). */
  licences: LicencesRepository;
  /** Self-service video-ad tests (issue 15). */
  selfService: SelfServiceRepository;
  mturkHits: MturkHitsRepository;
  /** In-cabinet notifications (issue 15, item 6); other modules add them through `notify()`. */
  notifications: NotificationsRepository;
  /** Requests for access from the public pages (issue 28, item 16). */
  accessRequests: AccessRequestsRepository;
  /** The engine's process pool (started on first use). */
  engine: EngineRunner;
  /** This process's directory for the work files of jobs, under WORK_DIR. */
  workDir: WorkDir;
  storage: Storage;
  queue: JobQueue;
  log: Logger;
  config: Config;
}

/** What every route and job is given: built once per process. */
export interface AppContext {
  config: Config;
  database: Database;
  log: Logger;
  deps: Deps;
  /** Signs derived tokens. From APP_SECRET, else generated once and kept in the database. */
  secret: string;
  queue: JobQueue;
}

/**
 * Where repositories, storage and the queue are built, once per process. `jobs`: the jobs and subscribers the queue
 * runs, handed over by the composition root (`app.ts`, `main.ts`), so that nothing the jobs import imports them back.
 */
export async function createContext(
  config: Config,
  database: Database,
  log: Logger,
  jobs: readonly JobDefinition[],
): Promise<AppContext> {
  const db = database.db;
  const auth = createAuthRepository(db);
  const secret = config.appSecret ?? (await auth.getOrCreateSetting('app_secret', () => randomToken(48)));
  // Job handlers are given the context when they run, after it is complete.
  const queue = new JobQueue({ database, log, context: () => ctx }, jobs);
  const deps: Deps = {
    access: createAccessRepository(db),
    apiAccess: createApiAccessRepository(db),
    auth,
    users: createUsersRepository(db),
    projects: createProjectsRepository(db),
    researches: createResearchesRepository(db),
    scenarios: createScenariosRepository(db),
    surveys: createSurveysRepository(db),
    media: createMediaRepository(db),
    fieldwork: createFieldworkRepository(db),
    respondents: createRespondentsRepository(db),
    respondentAnswers: createRespondentAnswersRepository(db),
    completions: createCompletionsRepository(db),
    recording: createRecordingRepository(db),
    sessionEnds: createSessionEndsRepository(db),
    analysisSite: createAnalysisSiteRepository(db),
    processing: createProcessingRepository(db),
    phantomTruths: createPhantomTruthsRepository(db),
    guidance: createGuidanceRepository(db),
    dotTests: createDotTestsRepository(db),
    calibrationChecks: createCalibrationChecksRepository(db),
    retention: createRetentionRepository(db),
    interviewAnalysis: createInterviewAnalysisRepository(db),
    demoData: createDemoDataRepository(db),
    reports: createReportsRepository(db),
    reportFiles: createReportFilesRepository(db),
    benchmarks: createBenchmarksRepository(db),
    tolokaPools: createTolokaPoolsRepository(db),
    recruiting: createRecruitingRepository(db),
    licences: createLicencesRepository(db),
    selfService: createSelfServiceRepository(db),
    mturkHits: createMturkHitsRepository(db),
    notifications: createNotificationsRepository(db),
    accessRequests: createAccessRequestsRepository(db),
    recruitingTokens: createRecruitingTokensRepository(
      db,
      createTokenCipher(recruitingTokensKey(config.recruitingTokensKey, secret)),
    ),
    engine: createEngineRunner(config.engineWorkers),
    workDir: workDirFor(config.workDir),
    storage: storageFor(config),
    queue,
    log,
    config,
  };
  const ctx: AppContext = { config, database, log, deps, secret, queue };
  return ctx;
}
