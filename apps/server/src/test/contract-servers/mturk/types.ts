/** The MTurk contract server's records, options and errors (see server.ts). */

import type { ContractServer } from '../http.ts';

/** Access key id the contract server knows unless told otherwise. */
export const CONTRACT_ACCESS_KEY_ID = 'AKIAEMOLENSCONTRACT1';
/** Its secret: only ever used to verify signatures, never logged. */
export const CONTRACT_SECRET_ACCESS_KEY = 'contract/Secret+Key0123456789abcdefghijklmn';

export const TARGET_PREFIX = 'MTurkRequesterServiceV20170117.';
export const JSON_CONTENT_TYPE = 'application/x-amz-json-1.1';
export const SIGNING_SERVICE = 'mturk-requester';
export const MAX_BODY_BYTES = 1_048_576;
export const MAX_CLOCK_SKEW_MS = 15 * 60_000;
export const DEFAULT_AUTO_APPROVAL_SECONDS = 30 * 24 * 3600;
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
export const QUESTION_FORM_ANSWERS_NAMESPACE =
  'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd';

export const CONTRACT_OPERATIONS = [
  'GetAccountBalance',
  'CreateHIT',
  'GetHIT',
  'UpdateExpirationForHIT',
  'ListAssignmentsForHIT',
  'ApproveAssignment',
  'RejectAssignment',
] as const;
export type ContractOperation = (typeof CONTRACT_OPERATIONS)[number];

export type ContractAssignmentStatus = 'Submitted' | 'Approved' | 'Rejected';

export interface StoredHit {
  HITId: string;
  HITTypeId: string;
  HITGroupId: string;
  CreationTime: number;
  Title: string;
  Description: string;
  Question: string;
  Keywords?: string;
  MaxAssignments: number;
  Reward: string;
  AutoApprovalDelayInSeconds: number;
  Expiration: number;
  AssignmentDurationInSeconds: number;
  RequesterAnnotation?: string;
}

export interface StoredAssignment {
  AssignmentId: string;
  WorkerId: string;
  HITId: string;
  AssignmentStatus: ContractAssignmentStatus;
  AcceptTime: number;
  SubmitTime: number;
  AutoApprovalTime: number;
  Deadline: number;
  ApprovalTime?: number;
  RejectionTime?: number;
  Answer: string;
  RequesterFeedback?: string;
}

/** One request as the server saw it: operation and JSON body only (no headers, so no signature or key). */
export interface LoggedRequest {
  operation: string;
  accessKeyId: string | null;
  body: Record<string, unknown>;
  status: number;
}

export interface AddAssignmentInput {
  workerId: string;
  /** Completion code posted in the `completion_code` field; omitted → no such field in the answer. */
  code?: string;
  status?: ContractAssignmentStatus;
  /** Further form fields posted by the external page. */
  fields?: Record<string, string>;
  /** Replaces the generated Answer document verbatim (for odd documents). */
  answerXml?: string;
}

export interface ContractState {
  readonly hits: ReadonlyMap<string, StoredHit>;
  readonly assignments: ReadonlyMap<string, StoredAssignment>;
  /** Every request received, in order. */
  readonly requests: readonly LoggedRequest[];
  /** What GetAccountBalance answers as AvailableBalance. */
  setBalance(available: string, onHold?: string): void;
  /** A worker submits an assignment of the HIT, answering as MTurk does for an ExternalQuestion form post. */
  addAssignment(hitId: string, input: AddAssignmentInput): string;
  /** The next call of `operation` answers `status` with `body` (JSON) instead of being served. */
  failNext(operation: ContractOperation, status: number, body: unknown): void;
  /** Requests of one operation. */
  requestsOf(operation: ContractOperation): LoggedRequest[];
}

export interface ContractServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Known keys: access key id → secret. Default: the CONTRACT_* pair. */
  credentials?: Record<string, string>;
}

export type MturkContractServer = ContractServer<ContractState>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly turkErrorCode?: string,
  ) {
    super(message);
  }
}

export function requestError(turkErrorCode: string, message: string): ApiError {
  return new ApiError(400, 'RequestError', `${message} (${Date.now()} s)`, turkErrorCode);
}
