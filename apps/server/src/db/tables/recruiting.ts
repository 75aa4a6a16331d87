/** Table types: Recruiting tokens, Toloka pools, MTurk HITs, session accounts and self-service tests. */
import type {
  AssignmentDecisionKind,
  Language,
  ProlificCodes,
  ProlificDevice,
  RecruitingEnvironment,
  RecruitingService,
  SelfServiceAudience,
  SelfServiceState,
  TolokaAudience,
} from '@emolens/contracts';
import type { ColumnType, Generated } from 'kysely';
import type { Timestamp } from './columns.ts';

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

/** A research's Prolific study (issue 33, item 2; decision 068). */
export interface ProlificStudiesTable {
  campaign_id: string;
  token_id: string | null;
  environment: 'production' | 'sandbox';
  study_id: string;
  title: string;
  /** Per participant, in the workspace's currency. */
  reward: number;
  places: number;
  minutes: number;
  completion_codes: ColumnType<ProlificCodes, string, string>;
  devices: ColumnType<ProlificDevice[], string, string>;
  webcam: boolean;
  status: string;
  acceptance: Generated<'confirm' | 'auto'>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A decision on a worker's Toloka or MTurk assignment (issue 14, items 5 and 6), and whether it reached the platform. */
export interface AssignmentDecisionsTable {
  platform: RecruitingService;
  assignment_id: string;
  campaign_id: string;
  worker_id: string;
  session_id: string | null;
  decision: AssignmentDecisionKind;
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
