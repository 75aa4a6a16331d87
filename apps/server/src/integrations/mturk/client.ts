/**
 * Amazon Mechanical Turk requester client: the real AWS SDK (`@aws-sdk/client-mturk`, AWS JSON 1.1 over
 * SigV4) with the few operations Emolens needs to recruit respondents through an ExternalQuestion HIT.
 *
 * Documentation this file follows (found with the search tool; written from it, not copied):
 * - Endpoints (production and sandbox, us-east-1):
 *   https://docs.aws.amazon.com/general/latest/gr/amt.html
 *   https://docs.aws.amazon.com/AWSMechTurk/latest/AWSMechanicalTurkRequester/mturk-use-sandbox.html
 * - ExternalQuestion (root element, ExternalURL, FrameHeight; the URL must be HTTPS):
 *   https://docs.aws.amazon.com/AWSMechTurk/latest/AWSMturkAPI/ApiReference_ExternalQuestionArticle.html
 * - Schema namespaces (ExternalQuestion 2006-07-14, QuestionFormAnswers 2005-10-01):
 *   https://docs.aws.amazon.com/AWSMechTurk/latest/AWSMturkAPI/ApiReference_SchemaLocationArticle.html
 *   https://docs.aws.amazon.com/AWSMechTurk/latest/AWSMturkAPI/ApiReference_XMLParameterValuesArticle.html
 * - QuestionFormAnswers (one Answer per field: QuestionIdentifier + FreeText; not guaranteed to match the form):
 *   https://docs.aws.amazon.com/AWSMechTurk/latest/AWSMturkAPI/ApiReference_QuestionFormAnswersDataStructureArticle.html
 * - ListAssignmentsForHIT (AssignmentStatuses, NextToken, MaxResults; one page per call):
 *   https://docs.aws.amazon.com/AWSMechTurk/latest/AWSMturkAPI/ApiReference_ListAssignmentsForHITOperation.html
 * - UpdateExpirationForHIT (a time in the past expires the HIT at once):
 *   https://docs.aws.amazon.com/goto/WebAPI/mturk-requester-2017-01-17/UpdateExpirationForHIT
 * - ApproveAssignment (RequesterFeedback ≤ 1024 characters, no ASCII 0–8, 11, 12, 14–31; OverrideRejection):
 *   http://docs.amazonwebservices.com/AWSMechTurk/latest/AWSMturkAPI/ApiReference_ApproveAssignmentOperation.html
 * - RejectAssignment (RequesterFeedback required):
 *   https://docs.aws.amazon.com/AWSMechTurk/latest/AWSMturkAPI/ApiReference_RejectAssignmentOperation.md
 * - GetAccountBalance (AvailableBalance, OnHoldBalance as currency strings):
 *   https://boto3.amazonaws.com/v1/documentation/api/1.34.1/reference/services/mturk/client/get_account_balance.html
 * - Errors (RequestError / ServiceFault carrying Message and TurkErrorCode):
 *   https://docs.aws.amazon.com/botocore/latest/reference/services/mturk/client/exceptions/RequestError.html
 * Shapes were checked against the SDK's own model (node_modules/@aws-sdk/client-mturk/dist-types/models).
 */
import {
  ApproveAssignmentCommand,
  type Assignment,
  type AssignmentStatus,
  CreateHITCommand,
  GetAccountBalanceCommand,
  GetHITCommand,
  type HIT,
  ListAssignmentsForHITCommand,
  MTurkClient,
  MTurkServiceException,
  RejectAssignmentCommand,
  UpdateExpirationForHITCommand,
} from '@aws-sdk/client-mturk';
import { externalQuestionXml, parseQuestionFormAnswers } from './xml.ts';

export * from './xml.ts';

/** Production requester endpoint (AWS General Reference, "Amazon Mechanical Turk endpoints and quotas"). */
export const MTURK_PRODUCTION_ENDPOINT = 'https://mturk-requester.us-east-1.amazonaws.com';
/** Sandbox requester endpoint: same API, play money (a fresh sandbox account holds 10000.00). */
export const MTURK_SANDBOX_ENDPOINT = 'https://mturk-requester-sandbox.us-east-1.amazonaws.com';
/** The only region MTurk's API lives in. */
export const MTURK_REGION = 'us-east-1';
/** Namespace of the QuestionFormAnswers schema in which MTurk returns an assignment's `Answer`. */
export const QUESTION_FORM_ANSWERS_NAMESPACE =
  'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2005-10-01/QuestionFormAnswers.xsd';
/** Form field holding the completion code the respondent submits back to MTurk. */
export const DEFAULT_COMPLETION_CODE_FIELD = 'completion_code';

/** Largest page ListAssignmentsForHIT serves (MaxResults range 1–100 in the service model). */
const MAX_PAGE_SIZE = 100;
/** A loop guard: no HIT of ours has anywhere near this many pages of assignments. */
const MAX_PAGES = 1000;
/** CreateHIT: "The XML question data must not be larger than 64 kilobytes (65,535 bytes)". */
const MAX_QUESTION_BYTES = 65_535;
/** ApproveAssignment/RejectAssignment: RequesterFeedback "can be up to 1024 characters". */
const MAX_FEEDBACK_CHARS = 1024;
/** RequesterFeedback "cannot contain ASCII characters 0-8, 11, 12, or 14-31". */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the documented forbidden characters are control characters
const FEEDBACK_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

export interface MturkClientOptions {
  accessKeyId: string;
  secretAccessKey: string;
  /** Sandbox (play money) or production marketplace; picks the default endpoint. */
  sandbox: boolean;
  /** Overrides the endpoint (tests point this at the contract server). */
  endpoint?: string;
  /** Attempts per call including the first (the SDK retries throttling and 5xx). Default 2. */
  maxAttempts?: number;
  /** ListAssignmentsForHIT page size, 1–100. Default 100. */
  pageSize?: number;
  /** Answer field that carries the completion code. Default `completion_code`. */
  completionCodeField?: string;
  /** Socket timeout per request in milliseconds. Default 15 s. */
  requestTimeoutMs?: number;
}

export interface MturkBalance {
  availableBalance: string;
  onHoldBalance: string | null;
}

export interface ExternalHitInput {
  title: string;
  description: string;
  /** US dollars with two decimals, e.g. "0.50". */
  reward: string;
  maxAssignments: number;
  lifetimeSeconds: number;
  assignmentDurationSeconds: number;
  keywords?: string;
  /** The HTTPS page MTurk frames; MTurk appends assignmentId, hitId, workerId and turkSubmitTo. */
  externalUrl: string;
  /** Frame height in pixels (0 lets MTurk size the frame to the window). */
  frameHeight: number;
  /** Seconds after submission until MTurk approves on its own (MTurk's default is 30 days). */
  autoApprovalDelaySeconds?: number;
  /** Our own reference, visible only to the requester. */
  requesterAnnotation?: string;
  /** Idempotency token: retrying with the same token does not create a second HIT (24 h). */
  uniqueRequestToken?: string;
}

export interface MturkHit {
  hitId: string;
  hitTypeId: string | null;
  /** The HIT group (workers find and preview HITs by group). */
  groupId: string | null;
  status: string | null;
  title: string | null;
  reward: string | null;
  maxAssignments: number | null;
  created: Date | null;
  expiration: Date | null;
  assignmentsPending: number | null;
  assignmentsAvailable: number | null;
  assignmentsCompleted: number | null;
}

export type MturkAssignmentStatus = AssignmentStatus;

export interface MturkAssignment {
  assignmentId: string;
  workerId: string;
  hitId: string;
  status: MturkAssignmentStatus;
  /** The completion code from the answer, trimmed; null when the field is absent or empty. */
  completionCode: string | null;
  /** Every FreeText answer field by its QuestionIdentifier. */
  answers: Record<string, string>;
  submitted: Date | null;
  autoApproval: Date | null;
  requesterFeedback: string | null;
}

export interface MturkClient {
  readonly endpoint: string;
  readonly sandbox: boolean;
  /** GetAccountBalance; also the cheapest call to validate credentials when an account is linked. */
  accountBalance(): Promise<MturkBalance>;
  /** CreateHIT with an ExternalQuestion pointing at `externalUrl`. */
  createExternalHit(input: ExternalHitInput): Promise<MturkHit>;
  /** GetHIT. */
  getHit(hitId: string): Promise<MturkHit>;
  /** Stops a HIT at once: UpdateExpirationForHIT with ExpireAt in the past, as AWS documents. */
  expireHit(hitId: string): Promise<void>;
  /** Every assignment of the HIT in the given states, following NextToken across pages. */
  listAssignments(hitId: string, statuses?: readonly MturkAssignmentStatus[]): Promise<MturkAssignment[]>;
  /** ApproveAssignment (pays the worker); feedback is optional. */
  approve(assignmentId: string, feedback?: string): Promise<void>;
  /** RejectAssignment; MTurk requires feedback telling the worker why. */
  reject(assignmentId: string, feedback: string): Promise<void>;
  /** Closes the SDK's sockets. */
  destroy(): void;
}

/**
 * An MTurk call that failed. `code` is MTurk's TurkErrorCode when it sent one (e.g.
 * `AWS.MechanicalTurk.InvalidAssignmentState`), else the error type (`UnrecognizedClientException`,
 * `ServiceFault`, or a network code such as `ECONNREFUSED`). The message never carries credentials.
 */
export class MturkError extends Error {
  override readonly name = 'MturkError';
  /** TurkErrorCode, else the error type. */
  readonly code: string;
  /** The error type: `RequestError`, `ServiceFault`, an AWS auth error type, `NetworkError` or `ClientValidation`. */
  readonly type: string;
  /** HTTP status of the answer; undefined when no answer came (network) or the call was refused locally. */
  readonly status: number | undefined;
  readonly operation: string;
  readonly requestId: string | undefined;
  /** MTurk marks ServiceFault as temporary ("Try your call again"). */
  readonly retryable: boolean;

  constructor(init: {
    operation: string;
    code: string;
    type: string;
    message: string;
    status?: number | undefined;
    requestId?: string | undefined;
  }) {
    super(init.message);
    this.operation = init.operation;
    this.code = init.code;
    this.type = init.type;
    this.status = init.status;
    this.requestId = init.requestId;
    this.retryable = init.type === 'ServiceFault' || (init.status !== undefined && init.status >= 500);
  }
}

/** Creates an MTurk client bound to one requester's credentials. */
export function createMturkClient(options: MturkClientOptions): MturkClient {
  const endpoint = options.endpoint ?? (options.sandbox ? MTURK_SANDBOX_ENDPOINT : MTURK_PRODUCTION_ENDPOINT);
  const pageSize = options.pageSize ?? MAX_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    throw new RangeError(`pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  const codeField = options.completionCodeField ?? DEFAULT_COMPLETION_CODE_FIELD;
  const secret = options.secretAccessKey;
  const sdk = new MTurkClient({
    region: MTURK_REGION,
    endpoint,
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: secret },
    maxAttempts: options.maxAttempts ?? 2,
    requestHandler: { requestTimeout: options.requestTimeoutMs ?? 15_000, connectionTimeout: 5_000 },
  });

  async function call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw toMturkError(operation, error, secret);
    }
  }

  return {
    endpoint,
    sandbox: options.sandbox,

    async accountBalance() {
      const out = await call('GetAccountBalance', () => sdk.send(new GetAccountBalanceCommand({})));
      if (out.AvailableBalance === undefined) {
        throw malformed('GetAccountBalance', 'the answer has no AvailableBalance');
      }
      return { availableBalance: out.AvailableBalance, onHoldBalance: out.OnHoldBalance ?? null };
    },

    async createExternalHit(input) {
      const question = externalQuestionXml(input.externalUrl, input.frameHeight);
      checkHitInput(input, question);
      const out = await call('CreateHIT', () =>
        sdk.send(
          new CreateHITCommand({
            Title: input.title,
            Description: input.description,
            Reward: input.reward,
            MaxAssignments: input.maxAssignments,
            LifetimeInSeconds: input.lifetimeSeconds,
            AssignmentDurationInSeconds: input.assignmentDurationSeconds,
            Keywords: input.keywords,
            AutoApprovalDelayInSeconds: input.autoApprovalDelaySeconds,
            RequesterAnnotation: input.requesterAnnotation,
            UniqueRequestToken: input.uniqueRequestToken,
            Question: question,
          }),
        ),
      );
      return toHit('CreateHIT', out.HIT);
    },

    async getHit(hitId) {
      checkId('GetHIT', 'HITId', hitId);
      const out = await call('GetHIT', () => sdk.send(new GetHITCommand({ HITId: hitId })));
      return toHit('GetHIT', out.HIT);
    },

    async expireHit(hitId) {
      checkId('UpdateExpirationForHIT', 'HITId', hitId);
      // "To expire a HIT immediately, ... set ExpireAt to a time in the past."
      const past = new Date(Date.now() - 60_000);
      await call('UpdateExpirationForHIT', () =>
        sdk.send(new UpdateExpirationForHITCommand({ HITId: hitId, ExpireAt: past })),
      );
    },

    async listAssignments(hitId, statuses = ['Submitted', 'Approved', 'Rejected']) {
      checkId('ListAssignmentsForHIT', 'HITId', hitId);
      const all: MturkAssignment[] = [];
      const seenTokens = new Set<string>();
      let nextToken: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const out = await call('ListAssignmentsForHIT', () =>
          sdk.send(
            new ListAssignmentsForHITCommand({
              HITId: hitId,
              AssignmentStatuses: [...statuses],
              MaxResults: pageSize,
              NextToken: nextToken,
            }),
          ),
        );
        const assignments = out.Assignments ?? [];
        for (const assignment of assignments) all.push(toAssignment(assignment, codeField));
        nextToken = out.NextToken ?? undefined;
        if (!nextToken || assignments.length === 0) return all;
        if (seenTokens.has(nextToken)) throw malformed('ListAssignmentsForHIT', 'the service repeated a NextToken');
        seenTokens.add(nextToken);
      }
      throw malformed('ListAssignmentsForHIT', `more than ${MAX_PAGES} pages of assignments`);
    },

    async approve(assignmentId, feedback) {
      checkId('ApproveAssignment', 'AssignmentId', assignmentId);
      if (feedback !== undefined) checkFeedback('ApproveAssignment', feedback);
      await call('ApproveAssignment', () =>
        sdk.send(new ApproveAssignmentCommand({ AssignmentId: assignmentId, RequesterFeedback: feedback })),
      );
    },

    async reject(assignmentId, feedback) {
      checkId('RejectAssignment', 'AssignmentId', assignmentId);
      if (feedback.trim() === '') throw invalid('RejectAssignment', 'RequesterFeedback is required to reject');
      checkFeedback('RejectAssignment', feedback);
      await call('RejectAssignment', () =>
        sdk.send(new RejectAssignmentCommand({ AssignmentId: assignmentId, RequesterFeedback: feedback })),
      );
    },

    destroy() {
      sdk.destroy();
    },
  };
}

function toHit(operation: string, hit: HIT | undefined): MturkHit {
  if (!hit?.HITId) throw malformed(operation, 'the answer has no HIT');
  return {
    hitId: hit.HITId,
    hitTypeId: hit.HITTypeId ?? null,
    groupId: hit.HITGroupId ?? null,
    status: hit.HITStatus ?? null,
    title: hit.Title ?? null,
    reward: hit.Reward ?? null,
    maxAssignments: hit.MaxAssignments ?? null,
    created: hit.CreationTime ?? null,
    expiration: hit.Expiration ?? null,
    assignmentsPending: hit.NumberOfAssignmentsPending ?? null,
    assignmentsAvailable: hit.NumberOfAssignmentsAvailable ?? null,
    assignmentsCompleted: hit.NumberOfAssignmentsCompleted ?? null,
  };
}

function toAssignment(assignment: Assignment, codeField: string): MturkAssignment {
  if (!assignment.AssignmentId || !assignment.WorkerId || !assignment.HITId || !assignment.AssignmentStatus) {
    throw malformed('ListAssignmentsForHIT', 'an assignment lacks its id, worker, HIT or status');
  }
  const answers = parseQuestionFormAnswers(assignment.Answer);
  const code = answers[codeField]?.trim();
  return {
    assignmentId: assignment.AssignmentId,
    workerId: assignment.WorkerId,
    hitId: assignment.HITId,
    status: assignment.AssignmentStatus,
    completionCode: code ? code : null,
    answers,
    submitted: assignment.SubmitTime ?? null,
    autoApproval: assignment.AutoApprovalTime ?? null,
    requesterFeedback: assignment.RequesterFeedback ?? null,
  };
}

function checkHitInput(input: ExternalHitInput, question: string): void {
  const op = 'CreateHIT';
  if (input.title.trim() === '') throw invalid(op, 'title is required');
  if (input.description.trim() === '') throw invalid(op, 'description is required');
  if (!/^\d{1,7}\.\d{2}$/.test(input.reward) || Number(input.reward) <= 0) {
    throw invalid(op, 'reward must be US dollars with two decimals, e.g. "0.50"');
  }
  for (const [name, value] of [
    ['maxAssignments', input.maxAssignments],
    ['lifetimeSeconds', input.lifetimeSeconds],
    ['assignmentDurationSeconds', input.assignmentDurationSeconds],
  ] as const) {
    if (!Number.isInteger(value) || value < 1) throw invalid(op, `${name} must be a positive integer`);
  }
  if (!Number.isInteger(input.frameHeight) || input.frameHeight < 0) {
    throw invalid(op, 'frameHeight must be a non-negative integer');
  }
  let url: URL;
  try {
    url = new URL(input.externalUrl);
  } catch {
    throw invalid(op, 'externalUrl is not a URL');
  }
  if (url.protocol !== 'https:') throw invalid(op, 'externalUrl must use HTTPS');
  if (Buffer.byteLength(question, 'utf8') > MAX_QUESTION_BYTES) {
    throw invalid(op, `the ExternalQuestion exceeds ${MAX_QUESTION_BYTES} bytes`);
  }
}

function checkId(operation: string, field: string, value: string): void {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(operation, `${field} is required`);
}

function checkFeedback(operation: string, feedback: string): void {
  if (feedback.length > MAX_FEEDBACK_CHARS) {
    throw invalid(operation, `RequesterFeedback exceeds ${MAX_FEEDBACK_CHARS} characters`);
  }
  if (FEEDBACK_FORBIDDEN.test(feedback)) {
    throw invalid(operation, 'RequesterFeedback contains control characters MTurk refuses');
  }
}

function invalid(operation: string, message: string): MturkError {
  return new MturkError({ operation, code: 'InvalidParameterValue', type: 'ClientValidation', message });
}

function malformed(operation: string, message: string): MturkError {
  return new MturkError({ operation, code: 'MalformedResponse', type: 'MalformedResponse', message });
}

/** Wraps whatever the SDK threw; keeps only what is safe to log. */
function toMturkError(operation: string, error: unknown, secret: string): MturkError {
  if (error instanceof MturkError) return error;
  if (error instanceof MTurkServiceException) {
    const fields = error as MTurkServiceException & { Message?: unknown; TurkErrorCode?: unknown };
    const turkCode = typeof fields.TurkErrorCode === 'string' && fields.TurkErrorCode ? fields.TurkErrorCode : null;
    const text = typeof fields.Message === 'string' && fields.Message ? fields.Message : error.message;
    return new MturkError({
      operation,
      code: turkCode ?? error.name,
      type: error.name,
      message: scrub(text || `${error.name} from MTurk`, secret),
      status: error.$metadata?.httpStatusCode,
      requestId: error.$metadata?.requestId,
    });
  }
  const err =
    error instanceof Error ? (error as Error & { code?: unknown; $metadata?: { httpStatusCode?: number } }) : null;
  const code = typeof err?.code === 'string' && err.code ? err.code : (err?.name ?? 'UnknownError');
  const status = err?.$metadata?.httpStatusCode;
  return new MturkError({
    operation,
    code,
    type: status === undefined ? 'NetworkError' : 'UnknownError',
    message: scrub(err?.message || String(error), secret),
    status,
  });
}

/** Removes the secret key and anything shaped like a SigV4 Authorization value from a message. */
function scrub(message: string, secret: string): string {
  let text = message.length > 2000 ? `${message.slice(0, 2000)}…` : message;
  if (secret.length > 0) text = text.split(secret).join('[redacted]');
  return text
    .replace(/authorization\s*[:=]\s*[^\r\n]*/gi, 'Authorization: [redacted]')
    .replace(/AWS4-HMAC-SHA256[^\r\n]*/g, '[redacted]')
    .replace(/(Signature|Credential|X-Amz-Signature|X-Amz-Credential)=[^\s,&]+/gi, '$1=[redacted]');
}
