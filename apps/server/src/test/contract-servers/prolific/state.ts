import { randomBytes } from 'node:crypto';

/**
 * The world of the Prolific contract server (see server.ts): tokens, studies, submissions, the workspace's balance,
 * scripted failures and a log of requests (without their headers, so no token).
 */
export interface StudyRecord {
  id: string;
  name: string;
  internal_name: string;
  description: string;
  status: string;
  external_study_url: string;
  prolific_id_option: string;
  total_available_places: number;
  reward: number;
  estimated_completion_time: number;
  completion_codes: { code: string; code_type: string; actor: string; actions: Record<string, unknown>[] }[];
  device_compatibility: string[];
  peripheral_requirements: string[];
}

export interface SubmissionRecord {
  id: string;
  study_id: string;
  participant_id: string;
  status: string;
  study_code: string | null;
  started_at: string;
  completed_at: string | null;
  return_requested: string | null;
  /** The rejection as it was sent. */
  rejection: { message: string; rejection_category: string } | null;
}

export interface ContractRequest {
  method: string;
  path: string;
  body: unknown;
  auth: 'ok' | 'missing' | 'invalid';
  status: number;
}

interface Injection {
  method: string | null;
  path: string;
  status: number;
  body: unknown;
  times: number;
}

/** Prolific's ids are 24 hexadecimal characters. */
export const newId = () => randomBytes(12).toString('hex');

/**
 * ASSUMPTION (Prolific documents that a study needs enough funds to publish but not the fee's figure in the API):
 * publishing needs reward × places × (1 + feeRate) of the balance, feeRate 0.428 by default.
 */
export class ProlificContractState {
  readonly tokens: Set<string>;
  readonly studies = new Map<string, StudyRecord>();
  readonly submissions = new Map<string, SubmissionRecord>();
  readonly requests: ContractRequest[] = [];
  /** In the hundredth part of the workspace's currency. */
  balance: number;
  feeRate = 0.428;
  /** Submissions per page of the list. */
  pageSize = 20;
  private injections: Injection[] = [];

  constructor(options: { tokens?: string[]; balance?: number }) {
    this.tokens = new Set(options.tokens ?? []);
    this.balance = options.balance ?? 1_000_000;
  }

  /** The next `times` requests to `path` (and `method`, when given) answer `status` with `body`. */
  failNext(path: string, status: number, body: unknown, options: { times?: number; method?: string } = {}) {
    this.injections.push({ path, status, body, times: options.times ?? 1, method: options.method ?? null });
  }

  takeInjection(path: string, method: string): Injection | undefined {
    const found = this.injections.find((i) => i.path === path && (!i.method || i.method === method));
    if (!found) return undefined;
    found.times -= 1;
    if (found.times <= 0) this.injections = this.injections.filter((i) => i !== found);
    return found;
  }

  /**
   * A participant takes a place: a submission ACTIVE, and the study's URL as Prolific opens it (its placeholders
   * filled in).
   */
  startSubmission(studyId: string, participantId = newId()): { submission: SubmissionRecord; url: string } {
    const study = this.studies.get(studyId);
    if (study?.status !== 'ACTIVE') throw new Error(`Study ${studyId} is not ACTIVE`);
    const submission: SubmissionRecord = {
      id: newId(),
      study_id: studyId,
      participant_id: participantId,
      status: 'ACTIVE',
      study_code: null,
      started_at: new Date().toISOString(),
      completed_at: null,
      return_requested: null,
      rejection: null,
    };
    this.submissions.set(submission.id, submission);
    const url = study.external_study_url
      .replaceAll('{{%PROLIFIC_PID%}}', encodeURIComponent(participantId))
      .replaceAll('{{%STUDY_ID%}}', encodeURIComponent(studyId))
      .replaceAll('{{%SESSION_ID%}}', encodeURIComponent(submission.id));
    return { submission, url };
  }

  /**
   * The participant reaches Prolific's completion page with `code` (…/submissions/complete?cc=CODE): the code's
   * actions run (AUTOMATICALLY_APPROVE: APPROVED; REQUEST_RETURN: AWAITING REVIEW, the return asked for;
   * MANUALLY_REVIEW, or a code the study does not have: AWAITING REVIEW).
   */
  complete(submissionId: string, code: string): SubmissionRecord {
    const submission = this.submissions.get(submissionId);
    if (submission?.status !== 'ACTIVE') throw new Error(`Submission ${submissionId} is not ACTIVE`);
    const study = this.studies.get(submission.study_id);
    const actions = study?.completion_codes.find((c) => c.code === code)?.actions.map((a) => a.action) ?? [];
    submission.study_code = code;
    submission.completed_at = new Date().toISOString();
    submission.status = actions.includes('AUTOMATICALLY_APPROVE') ? 'APPROVED' : 'AWAITING REVIEW';
    if (actions.includes('REQUEST_RETURN')) submission.return_requested = submission.completed_at;
    return submission;
  }

  /** The participant returns the submission (after a return request, say). */
  returnSubmission(submissionId: string) {
    const submission = this.submissions.get(submissionId);
    if (submission) submission.status = 'RETURNED';
  }

  submissionsOf(studyId: string): SubmissionRecord[] {
    return [...this.submissions.values()].filter((s) => s.study_id === studyId);
  }

  /** What publishing the study takes from the balance. */
  costOf(study: StudyRecord): number {
    return Math.ceil(study.reward * study.total_available_places * (1 + this.feeRate));
  }
}
