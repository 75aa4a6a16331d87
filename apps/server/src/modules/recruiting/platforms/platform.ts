import type {
  AcceptanceMode,
  AssignmentDecisionKind,
  MessageKey,
  Platform,
  RecruitingEnvironment,
  RecruitingPlatform,
  SessionEnd,
} from '@emolens/contracts';
import type { Deps } from '../../../context.ts';
import type { AppError } from '../../../http/errors.ts';
import type { CintRow } from '../../processing/processing.repository.ts';
import type { Research } from '../research.ts';

/**
 * One recruiting platform behind one interface (issue 29, item 3; docs/decisions/028-recruiting-platforms.md). A
 * platform declares the projects' platforms it recruits for, and as far as its operations go:
 * - `job`: a pool or HIT per research (Toloka, MTurk) — its state, making it, its actions (run/stop/expire),
 *   the requester's balance, its assignments to accept or reject, and the token it is made with;
 * - `end`: where a respondent recruited there goes at the end of a session (Cint's redirect, MTurk's submit);
 * - `file`: the research's file for the platform (Cint's CSV).
 * The services (`recruiting-jobs.service.ts`, `acceptance.service.ts`, `recruiting-tokens.service.ts`,
 * `respondents/ends.ts`) and routes work on this interface alone; `platforms/index.ts` is the table of them.
 */
export interface RecruitingPlatformAdapter {
  /** The projects' platforms whose respondents come from this one (`PLATFORMS`). */
  projectPlatforms: readonly Platform[];
  /** A pool or HIT per research, with tokens and acceptance; absent: the platform has none (Cint). */
  job?: JobPlatform;
  /**
   * The respondent's end; absent: the code is shown. Null: the platform has no end for this session (Prolific
   * without a study), and the scenario's redirect for the outcome applies as on any other platform.
   */
  end?: (input: EndContext) => SessionEnd | null;
  /** What the end needs of the session's researches besides their settings (Prolific's codes), by research id. */
  endData?: (deps: Pick<Deps, 'prolificStudies'>, researchIds: string[]) => Promise<Record<string, unknown>>;
  /** The research's file for the platform; absent: none. */
  file?: PlatformFile;
}

/** What an end is made of, besides the platform's own rule. */
export interface EndContext {
  /** The end when the browser is sent nowhere: the short code and the signed token. */
  withCode: SessionEnd;
  /** The panel parameters the respondent arrived with. */
  panel: Record<string, string | undefined>;
  participantId: string | null;
  /** The researches of the session in its order, with their settings. */
  researches: { id: string; settings: unknown }[];
  /** What `endData` gave, by research id (empty without it). */
  data: Record<string, unknown>;
}

/** A platform's file of a research (Cint's CSV of video processes). */
export interface PlatformFile {
  /** The file's name for the research's title. */
  filename(title: string): string;
  columns: readonly string[];
  line(row: CintRow): (string | number | null)[];
}

/** A token as a platform uses it: for MTurk `secret` is the JSON `{ access_key_id, secret_access_key }`. */
export interface PlatformToken {
  id: string;
  environment: RecruitingEnvironment;
  secret: string;
}

/** What every stored pool or HIT has. */
export interface JobRow {
  campaign_id: string;
  token_id: string | null;
  environment: RecruitingEnvironment;
  title: string;
  reward: number;
  acceptance: AcceptanceMode;
  created_at: Date;
}

export type JobDeps = Pick<
  Deps,
  'access' | 'recruiting' | 'tolokaPools' | 'mturkHits' | 'prolificStudies' | 'recruitingTokens' | 'config' | 'log'
>;

/**
 * A platform's pool or HIT. The shared service reads the research, the stored row and the token; the platform says
 * what it is short of, talks to its service through a {@link JobSession}, and presents its own fields.
 */
export interface JobPlatform<Row extends JobRow = JobRow, Live = unknown, Input = unknown> {
  platform: RecruitingPlatform;
  /** The platform's name in logs ("Toloka pool", "MTurk HIT"). */
  label: string;
  /** The key of the state answer holding the pool, HIT or study, also the field of its problems. */
  job: 'pool' | 'hit' | 'study';
  /** The field of the form with the respondents wanted (null in it: the quota link's quota). */
  respondentsField: string;
  messages: {
    notFound: MessageKey;
    exists: MessageKey;
    notLaunched: MessageKey;
    startError: MessageKey;
    unavailable: MessageKey;
  };
  /** The research's stored pool or HIT. */
  find(deps: JobDeps, researchId: string): Promise<Row | undefined>;
  /** What keeps the research from having a pool or HIT now (message keys). */
  problems(research: Research, origin: string): MessageKey[];
  /** A session with the platform under the token. */
  connect(deps: JobDeps, token: PlatformToken): JobSession<Row, Live, Input>;
  /** Its state answer's pool or HIT: the row, with what the platform said (null: it was not asked or did not answer). */
  present(row: Row, live: Live | null): Record<string, unknown>;
  /** Which actions can be done now (besides `create`), with the token at hand or not. */
  can(row: Row | undefined, live: Live | null, hasToken: boolean, research: Research): Record<string, boolean>;
  /** Its actions after it is made: each with the message of its failure, and whether the project must be launched. */
  actions: Record<string, { error: MessageKey; verb: string; launched?: boolean }>;
  /** A platform's failure as the answer: funds short, the token refused, the service out of reach, or `key`. */
  failure(error: unknown, key: MessageKey): AppError;
  /** The check of a token being linked, and what is stored of it. */
  token: TokenRules;
}

/** Talking to the platform with one token; `close` frees its connections. */
export interface JobSession<Row extends JobRow = JobRow, Live = unknown, Input = unknown> {
  /** The requester's balance (USD); null: the platform gives none to the token alone (Prolific's is per workspace). */
  balance(): Promise<number | null>;
  /** The pool or HIT as the platform says now, stored when it changed. */
  read(row: Row): Promise<Live>;
  /** Makes the pool or HIT for the research and stores it; false when another was stored meanwhile. */
  create(input: Input & CreateContext): Promise<boolean>;
  /** Runs one of the platform's actions and stores the state after. */
  act(action: string, row: Row): Promise<void>;
  /** Its assignments for acceptance. */
  assignments(row: Row): PlatformAssignments;
  close(): void;
}

/** What making a pool or HIT needs besides the form. */
export interface CreateContext {
  research: Research;
  researchId: string;
  respondents: number;
  link: string;
  tokenId: string;
  environment: RecruitingEnvironment;
  userId: string;
}

/** A platform's rules of the tokens linked for it. */
export interface TokenRules {
  /** The service's name in messages. */
  service: string;
  /** Checks the link form's secret with the service (throws the answer when refused or out of reach). */
  check(
    deps: Pick<Deps, 'config' | 'log'>,
    input: Record<string, unknown> & { environment: RecruitingEnvironment },
  ): Promise<void>;
  /** What is stored: the secret (encrypted), and the hint shown. */
  stored(input: Record<string, unknown>): { secret: string; hint: string };
  /** The same token linked already. */
  same(input: Record<string, unknown>, existing: { hint: string; secret: string | null }): boolean;
}

type Decision = AssignmentDecisionKind;

/** An assignment as the platform holds it. */
export interface PlatformAssignment {
  id: string;
  worker_id: string;
  /** The completion code the worker submitted; null: none. */
  code: string | null;
  /** `returned`: the participant was asked to return it on the platform (Prolific). */
  status: 'submitted' | 'accepted' | 'rejected' | 'returned';
  /**
   * The session the platform's own ids point at (Prolific: the submission id the link carried as SESSION_ID); null:
   * none came with it. Absent: the platform knows no session, and the completion code says which it is.
   */
  session_id?: string | null;
}

/** A platform's side of acceptance, bound to the research's pool or HIT and the token it was made with. */
export interface PlatformAssignments {
  /** Every submitted, accepted and rejected assignment. */
  list(): Promise<PlatformAssignment[]>;
  /** `reason` is the decision's (`DECISION_REASONS`), for platforms that want a category with a rejection. */
  send(decision: Decision, assignmentId: string, comment: string, reason: string): Promise<void>;
  /** An assignment of a session that did not complete is asked back (`return`) rather than rejected. */
  returns?: boolean;
  /** The send failed because the assignment is no longer submitted there (decided meanwhile). */
  alreadyDecided(error: unknown): boolean;
  /** The platform is out of reach (the rest wait for the next review). */
  unavailable(error: unknown): boolean;
  /** The answer when the list could not be read. */
  failure(error: unknown): AppError;
}
