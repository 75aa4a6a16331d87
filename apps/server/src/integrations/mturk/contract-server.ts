/**
 * A stand-in for MTurk's requester API for tests, over real HTTP: AWS JSON 1.1 (`POST /`,
 * `X-Amz-Target: MTurkRequesterServiceV20170117.<Operation>`, `Content-Type: application/x-amz-json-1.1`),
 * for exactly the operations `client.ts` uses. HITs and assignments live in memory.
 *
 * Authentication: every request must carry a SigV4 `Authorization` header for a known access key id, and the
 * signature is verified in full with node:crypto following the SigV4 steps (canonical request → string to sign →
 * derived signing key → HMAC-SHA256), scope `<date>/us-east-1/mturk-requester/aws4_request`, and `X-Amz-Date`
 * within 15 minutes. Auth failures answer with the AWS common error types (MissingAuthenticationToken,
 * IncompleteSignature, UnrecognizedClientException, InvalidSignatureException).
 *
 * Operation errors follow MTurk's documented shape `{ "__type": "RequestError" | "ServiceFault", "Message",
 * "TurkErrorCode" }` (HTTP 400 / 500). The TurkErrorCode values are those MTurk is seen to send
 * (AWS.MechanicalTurk.InvalidAssignmentState, …HITDoesNotExist, …AssignmentDoesNotExist); codes for
 * parameter validation (AWS.MissingParameters, AWS.ParameterOutOfRange) are modelled on the legacy API's.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mturkCost } from '@emolens/contracts';
import { DEFAULT_COMPLETION_CODE_FIELD, EXTERNAL_QUESTION_NAMESPACE, escapeXml, MTURK_REGION } from './client.ts';

/** Access key id the contract server knows unless told otherwise. */
export const CONTRACT_ACCESS_KEY_ID = 'AKIAEMOLENSCONTRACT1';
/** Its secret: only ever used to verify signatures, never logged. */
export const CONTRACT_SECRET_ACCESS_KEY = 'contract/Secret+Key0123456789abcdefghijklmn';

const TARGET_PREFIX = 'MTurkRequesterServiceV20170117.';
const JSON_CONTENT_TYPE = 'application/x-amz-json-1.1';
const SIGNING_SERVICE = 'mturk-requester';
const MAX_BODY_BYTES = 1_048_576;
const MAX_CLOCK_SKEW_MS = 15 * 60_000;
const DEFAULT_AUTO_APPROVAL_SECONDS = 30 * 24 * 3600;
const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 100;
const QUESTION_FORM_ANSWERS_NAMESPACE =
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

export interface MturkContractServer {
  url: string;
  state: ContractState;
  close(): Promise<void>;
}

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly turkErrorCode?: string,
  ) {
    super(message);
  }
}

function requestError(turkErrorCode: string, message: string): ApiError {
  return new ApiError(400, 'RequestError', `${message} (${Date.now()} s)`, turkErrorCode);
}

/** Starts the contract server on 127.0.0.1. */
export async function startMturkContractServer(options: ContractServerOptions = {}): Promise<MturkContractServer> {
  const credentials = new Map(
    Object.entries(options.credentials ?? { [CONTRACT_ACCESS_KEY_ID]: CONTRACT_SECRET_ACCESS_KEY }),
  );
  const hits = new Map<string, StoredHit>();
  const assignments = new Map<string, StoredAssignment>();
  const requests: LoggedRequest[] = [];
  const faults: { operation: string; status: number; body: unknown }[] = [];
  let balance = { available: '10000.00', onHold: '0.00' };
  /** CreateHIT's UniqueRequestToken by HIT id. */
  const uniqueTokens = new Map<string, string>();

  const state: ContractState = {
    hits,
    assignments,
    requests,
    setBalance(available, onHold = '0.00') {
      balance = { available, onHold };
    },
    addAssignment(hitId, input) {
      const hit = hits.get(hitId);
      if (!hit) throw new Error(`No HIT ${hitId}`);
      const now = Date.now();
      const id = newId(30);
      const status = input.status ?? 'Submitted';
      const fields: Record<string, string> = {};
      if (input.code !== undefined) fields[DEFAULT_COMPLETION_CODE_FIELD] = input.code;
      Object.assign(fields, input.fields);
      const acceptTime = now - 60_000;
      assignments.set(id, {
        AssignmentId: id,
        WorkerId: input.workerId,
        HITId: hitId,
        AssignmentStatus: status,
        AcceptTime: acceptTime,
        SubmitTime: now,
        AutoApprovalTime: now + hit.AutoApprovalDelayInSeconds * 1000,
        Deadline: acceptTime + hit.AssignmentDurationInSeconds * 1000,
        ...(status === 'Approved' ? { ApprovalTime: now } : {}),
        ...(status === 'Rejected' ? { RejectionTime: now } : {}),
        Answer: input.answerXml ?? questionFormAnswersXml(fields),
      });
      return id;
    },
    failNext(operation, status, body) {
      faults.push({ operation, status, body });
    },
    requestsOf(operation) {
      return requests.filter((request) => request.operation === operation);
    },
  };

  function assignmentsOf(hitId: string): StoredAssignment[] {
    return [...assignments.values()].filter((a) => a.HITId === hitId);
  }

  function hitJson(hit: StoredHit): Record<string, unknown> {
    const taken = assignmentsOf(hit.HITId);
    const available = Math.max(0, hit.MaxAssignments - taken.length);
    const pending = 0; // assignments here are born submitted; none is in progress
    const completed = taken.filter((a) => a.AssignmentStatus !== 'Submitted').length;
    const open = hit.Expiration > Date.now() && available > 0;
    const status = open ? 'Assignable' : pending > 0 ? 'Unassignable' : 'Reviewable';
    return {
      HITId: hit.HITId,
      HITTypeId: hit.HITTypeId,
      HITGroupId: hit.HITGroupId,
      CreationTime: seconds(hit.CreationTime),
      Title: hit.Title,
      Description: hit.Description,
      Question: hit.Question,
      ...(hit.Keywords !== undefined ? { Keywords: hit.Keywords } : {}),
      HITStatus: status,
      MaxAssignments: hit.MaxAssignments,
      Reward: hit.Reward,
      AutoApprovalDelayInSeconds: hit.AutoApprovalDelayInSeconds,
      Expiration: seconds(hit.Expiration),
      AssignmentDurationInSeconds: hit.AssignmentDurationInSeconds,
      ...(hit.RequesterAnnotation !== undefined ? { RequesterAnnotation: hit.RequesterAnnotation } : {}),
      HITReviewStatus: 'NotReviewed',
      NumberOfAssignmentsPending: pending,
      NumberOfAssignmentsAvailable: available,
      NumberOfAssignmentsCompleted: completed,
    };
  }

  function assignmentJson(a: StoredAssignment): Record<string, unknown> {
    return {
      AssignmentId: a.AssignmentId,
      WorkerId: a.WorkerId,
      HITId: a.HITId,
      AssignmentStatus: a.AssignmentStatus,
      AutoApprovalTime: seconds(a.AutoApprovalTime),
      AcceptTime: seconds(a.AcceptTime),
      SubmitTime: seconds(a.SubmitTime),
      ...(a.ApprovalTime !== undefined ? { ApprovalTime: seconds(a.ApprovalTime) } : {}),
      ...(a.RejectionTime !== undefined ? { RejectionTime: seconds(a.RejectionTime) } : {}),
      Deadline: seconds(a.Deadline),
      Answer: a.Answer,
      ...(a.RequesterFeedback !== undefined ? { RequesterFeedback: a.RequesterFeedback } : {}),
    };
  }

  function findHit(body: Record<string, unknown>): StoredHit {
    const hitId = requiredString(body, 'HITId');
    const hit = hits.get(hitId);
    if (!hit) throw requestError('AWS.MechanicalTurk.HITDoesNotExist', `Hit ${hitId} does not exist.`);
    return hit;
  }

  function findAssignment(body: Record<string, unknown>): StoredAssignment {
    const id = requiredString(body, 'AssignmentId');
    const assignment = assignments.get(id);
    if (!assignment) {
      throw requestError('AWS.MechanicalTurk.AssignmentDoesNotExist', `Assignment ${id} does not exist.`);
    }
    return assignment;
  }

  const handlers: Record<ContractOperation, (body: Record<string, unknown>) => Record<string, unknown>> = {
    GetAccountBalance: () => ({ AvailableBalance: balance.available, OnHoldBalance: balance.onHold }),

    CreateHIT(body) {
      const title = requiredString(body, 'Title');
      const description = requiredString(body, 'Description');
      const reward = requiredString(body, 'Reward');
      if (!/^\d{1,7}(\.\d{1,2})?$/.test(reward) || Number(reward) < 0.01) {
        throw requestError('AWS.ParameterOutOfRange', `The value ${reward} for Reward is invalid.`);
      }
      const lifetime = requiredInteger(body, 'LifetimeInSeconds', 30, 31_536_000);
      const duration = requiredInteger(body, 'AssignmentDurationInSeconds', 30, 31_536_000);
      const maxAssignments = optionalInteger(body, 'MaxAssignments', 1, 1_000_000) ?? 1;
      const autoApproval = optionalInteger(body, 'AutoApprovalDelayInSeconds', 0, 2_592_000);
      const keywords = optionalString(body, 'Keywords');
      const annotation = optionalString(body, 'RequesterAnnotation');
      if (body.HITLayoutId !== undefined) {
        throw requestError('AWS.ParameterOutOfRange', 'HITLayoutId is not served by this contract server.');
      }
      const question = requiredString(body, 'Question');
      checkQuestion(question);
      // A prepaid requester must hold the HIT's whole cost, MTurk's fee included, when it is made.
      if (Number(balance.available) < mturkCost(Number(reward), maxAssignments)) {
        throw requestError(
          'AWS.MechanicalTurk.InsufficientFunds',
          'This Requester has insufficient funds in their account to complete this transaction.',
        );
      }
      const token = optionalString(body, 'UniqueRequestToken');
      if (token !== undefined) {
        const existing = [...hits.values()].find((h) => uniqueTokens.get(h.HITId) === token);
        if (existing) {
          throw requestError(
            'AWS.MechanicalTurk.HitAlreadyExists',
            `There is already a HIT which exists with the same Unique Request Token. HITId: ${existing.HITId}`,
          );
        }
      }
      const now = Date.now();
      const typeId = hashId(
        JSON.stringify([title, description, reward, duration, autoApproval ?? DEFAULT_AUTO_APPROVAL_SECONDS, keywords]),
      );
      const hit: StoredHit = {
        HITId: newId(30),
        HITTypeId: typeId,
        HITGroupId: typeId,
        CreationTime: now,
        Title: title,
        Description: description,
        Question: question,
        ...(keywords !== undefined ? { Keywords: keywords } : {}),
        MaxAssignments: maxAssignments,
        Reward: Number(reward).toFixed(2),
        AutoApprovalDelayInSeconds: autoApproval ?? DEFAULT_AUTO_APPROVAL_SECONDS,
        Expiration: now + lifetime * 1000,
        AssignmentDurationInSeconds: duration,
        ...(annotation !== undefined ? { RequesterAnnotation: annotation } : {}),
      };
      hits.set(hit.HITId, hit);
      if (token !== undefined) uniqueTokens.set(hit.HITId, token);
      return { HIT: hitJson(hit) };
    },

    GetHIT: (body) => ({ HIT: hitJson(findHit(body)) }),

    UpdateExpirationForHIT(body) {
      const hit = findHit(body);
      const expireAt = body.ExpireAt;
      if (typeof expireAt !== 'number' || !Number.isFinite(expireAt)) {
        throw missing('ExpireAt');
      }
      const at = Math.round(expireAt * 1000);
      const now = Date.now();
      if (at <= now) hit.Expiration = Math.min(hit.Expiration, now);
      else if (at >= hit.Expiration) hit.Expiration = at;
      else {
        // AWS: "You cannot shorten the expiration time" — extend it, or expire now with a past time.
        throw requestError('AWS.ParameterOutOfRange', 'The expiration time can only be extended, or set in the past.');
      }
      return {};
    },

    ListAssignmentsForHIT(body) {
      const hit = findHit(body);
      const statuses = assignmentStatuses(body.AssignmentStatuses);
      const size = optionalInteger(body, 'MaxResults', 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE;
      const filterKey = statuses.join(',');
      let offset = 0;
      if (body.NextToken !== undefined) {
        const token = readToken(body.NextToken);
        if (!token || token.hitId !== hit.HITId || token.filter !== filterKey) {
          throw requestError('AWS.ParameterOutOfRange', 'The value of NextToken is invalid.');
        }
        offset = token.offset;
      }
      const matching = assignmentsOf(hit.HITId)
        .filter((a) => statuses.includes(a.AssignmentStatus))
        .sort((a, b) => a.SubmitTime - b.SubmitTime || a.AssignmentId.localeCompare(b.AssignmentId));
      const page = matching.slice(offset, offset + size);
      const next = offset + page.length;
      return {
        NumResults: page.length,
        Assignments: page.map(assignmentJson),
        ...(next < matching.length
          ? { NextToken: writeToken({ hitId: hit.HITId, filter: filterKey, offset: next }) }
          : {}),
      };
    },

    ApproveAssignment(body) {
      const assignment = findAssignment(body);
      const feedback = optionalFeedback(body);
      const override = body.OverrideRejection === true;
      const allowed =
        assignment.AssignmentStatus === 'Submitted' || (override && assignment.AssignmentStatus === 'Rejected');
      if (!allowed) throw invalidState(override ? 'Submitted,Rejected' : 'Submitted');
      assignment.AssignmentStatus = 'Approved';
      assignment.ApprovalTime = Date.now();
      delete assignment.RejectionTime;
      if (feedback !== undefined) assignment.RequesterFeedback = feedback;
      return {};
    },

    RejectAssignment(body) {
      const assignment = findAssignment(body);
      const feedback = optionalFeedback(body);
      if (feedback === undefined || feedback.trim() === '') throw missing('RequesterFeedback');
      if (assignment.AssignmentStatus !== 'Submitted') throw invalidState('Submitted');
      assignment.AssignmentStatus = 'Rejected';
      assignment.RejectionTime = Date.now();
      assignment.RequesterFeedback = feedback;
      return {};
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let logged: LoggedRequest | null = null;
    const send = (status: number, payload: unknown, errorType?: string) => {
      if (logged) logged.status = status;
      const text = JSON.stringify(payload);
      res.writeHead(status, {
        'Content-Type': JSON_CONTENT_TYPE,
        'Content-Length': Buffer.byteLength(text),
        'x-amzn-RequestId': randomUUID(),
        ...(errorType ? { 'x-amzn-ErrorType': errorType } : {}),
      });
      res.end(text);
    };
    const sendError = (error: ApiError) =>
      send(
        error.status,
        error.turkErrorCode
          ? { __type: error.type, Message: error.message, TurkErrorCode: error.turkErrorCode }
          : { __type: error.type, message: error.message },
        error.type,
      );

    try {
      const raw = await readBody(req);
      const target = header(req, 'x-amz-target') ?? '';
      const operation = target.startsWith(TARGET_PREFIX) ? target.slice(TARGET_PREFIX.length) : target;
      const body = parseBody(raw);
      logged = { operation, accessKeyId: null, body: body ?? {}, status: 0 };
      requests.push(logged);

      if (req.method !== 'POST' || (req.url ?? '/').split('?')[0] !== '/') {
        throw new ApiError(404, 'UnknownOperationException', 'Only POST / is served.');
      }
      logged.accessKeyId = authenticate(req, raw, credentials);
      if (!(header(req, 'content-type') ?? '').startsWith(JSON_CONTENT_TYPE)) {
        throw new ApiError(400, 'SerializationException', `Content-Type must be ${JSON_CONTENT_TYPE}.`);
      }
      if (!target.startsWith(TARGET_PREFIX) || !isOperation(operation)) {
        throw new ApiError(400, 'UnknownOperationException', `Unknown operation ${target || '(none)'}.`);
      }
      if (body === null) throw new ApiError(400, 'SerializationException', 'The body is not a JSON object.');

      const faultAt = faults.findIndex((f) => f.operation === operation);
      if (faultAt >= 0) {
        const [fault] = faults.splice(faultAt, 1);
        if (fault) {
          const errorType =
            fault.body && typeof fault.body === 'object' && '__type' in fault.body
              ? String(fault.body.__type)
              : undefined;
          send(fault.status, fault.body, errorType);
          return;
        }
      }
      send(200, handlers[operation](body));
    } catch (error) {
      if (error instanceof ApiError) sendError(error);
      else if (error instanceof BodyTooLarge) {
        sendError(new ApiError(413, 'RequestEntityTooLargeException', 'The request body is too large.'));
      } else {
        sendError(
          new ApiError(500, 'ServiceFault', 'Internal error in the contract server.', 'AWS.ServiceUnavailable'),
        );
      }
    }
  }

  const server = createServer((req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    state,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The QuestionFormAnswers document MTurk stores for an ExternalQuestion form post: one FreeText per field. */
export function questionFormAnswersXml(fields: Record<string, string>): string {
  const answers = Object.entries(fields)
    .map(
      ([name, value]) =>
        `<Answer><QuestionIdentifier>${asciiXml(name)}</QuestionIdentifier><FreeText>${asciiXml(value)}</FreeText></Answer>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="ASCII"?><QuestionFormAnswers xmlns="${QUESTION_FORM_ANSWERS_NAMESPACE}">${answers}</QuestionFormAnswers>`;
}

/** XML-escapes and writes non-ASCII characters as numeric references (the document says encoding="ASCII"). */
function asciiXml(text: string): string {
  return escapeXml(text).replace(/[^\x20-\x7e\t\n\r]/gu, (ch) => `&#${ch.codePointAt(0)};`);
}

// ——— request checks ———

function missing(field: string): ApiError {
  return requestError('AWS.MissingParameters', `Your request is missing a required parameter. (${field})`);
}

function invalidState(allowed: string): ApiError {
  return requestError(
    'AWS.MechanicalTurk.InvalidAssignmentState',
    `This operation can be called with a status of: ${allowed}`,
  );
}

function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '') throw missing(field);
  return value;
}

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw requestError('AWS.ParameterOutOfRange', `${field} must be a string.`);
  return value;
}

function requiredInteger(body: Record<string, unknown>, field: string, min: number, max: number): number {
  const value = optionalInteger(body, field, min, max);
  if (value === undefined) throw missing(field);
  return value;
}

function optionalInteger(body: Record<string, unknown>, field: string, min: number, max: number): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw requestError(
      'AWS.ParameterOutOfRange',
      `The value ${String(value)} for ${field} is out of range ${min}-${max}.`,
    );
  }
  return value;
}

function optionalFeedback(body: Record<string, unknown>): string | undefined {
  const feedback = optionalString(body, 'RequesterFeedback');
  if (feedback === undefined) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the documented forbidden characters are control characters
  if (feedback.length > 1024 || /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(feedback)) {
    throw requestError('AWS.ParameterOutOfRange', 'The value of RequesterFeedback is invalid.');
  }
  return feedback;
}

function assignmentStatuses(value: unknown): ContractAssignmentStatus[] {
  const all: ContractAssignmentStatus[] = ['Submitted', 'Approved', 'Rejected'];
  if (value === undefined || value === null) return all;
  if (!Array.isArray(value) || value.length === 0) {
    throw requestError('AWS.ParameterOutOfRange', 'AssignmentStatuses must be a non-empty list.');
  }
  const statuses = new Set<ContractAssignmentStatus>();
  for (const item of value) {
    if (!all.includes(item as ContractAssignmentStatus)) {
      throw requestError('AWS.ParameterOutOfRange', `The value ${String(item)} for AssignmentStatuses is invalid.`);
    }
    statuses.add(item as ContractAssignmentStatus);
  }
  return all.filter((s) => statuses.has(s));
}

/** A light schema check of the Question: the root's namespace, and for an ExternalQuestion its two elements. */
function checkQuestion(question: string): void {
  const xml = question.replace(/^\s*<\?xml[^>]*\?>\s*/, '');
  const root = /^<([A-Za-z]+)\s+xmlns="([^"]+)"\s*>/.exec(xml);
  if (!root) throw xmlError('The Question root element must declare its schema namespace.');
  const [, name, namespace] = root;
  if (Buffer.byteLength(question, 'utf8') > 65_535) {
    throw requestError('AWS.ParameterOutOfRange', 'The Question is larger than 65535 bytes.');
  }
  if (name !== 'ExternalQuestion') {
    throw xmlError(`This contract server serves ExternalQuestion HITs only, not ${name}.`);
  }
  if (namespace !== EXTERNAL_QUESTION_NAMESPACE) {
    throw xmlError(`The namespace ${namespace} is not the ExternalQuestion schema's.`);
  }
  const url = /<ExternalURL>([^<]*)<\/ExternalURL>/.exec(xml)?.[1];
  const height = /<FrameHeight>([^<]*)<\/FrameHeight>/.exec(xml)?.[1];
  if (
    url === undefined ||
    height === undefined ||
    !/^\d+$/.test(height.trim()) ||
    !xml.endsWith('</ExternalQuestion>')
  ) {
    throw xmlError('An ExternalQuestion needs an ExternalURL and an integer FrameHeight.');
  }
  if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(url)) {
    throw xmlError('The ExternalURL is not well-formed XML (an unescaped &).');
  }
  const decoded = url.replace(
    /&(amp|lt|gt|quot|apos);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e] ?? '',
  );
  if (!decoded.startsWith('https://')) throw xmlError('The ExternalURL must use HTTPS.');
}

function xmlError(message: string): ApiError {
  return requestError('AWS.MechanicalTurk.XMLParseError', message);
}

// ——— SigV4 ———

/**
 * Verifies the SigV4 `Authorization` header; answers the access key id. Steps per the SigV4 spec: canonical
 * request (method, URI, query, signed headers from the raw headers, payload hash), string to sign
 * (`AWS4-HMAC-SHA256`, X-Amz-Date, scope, hash of the canonical request), signing key derived from the secret
 * by HMAC over date, region, service and `aws4_request`, and a constant-time comparison.
 */
function authenticate(req: IncomingMessage, body: Buffer, credentials: ReadonlyMap<string, string>): string {
  const authorization = header(req, 'authorization');
  if (!authorization) throw new ApiError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
  const parsed =
    /^AWS4-HMAC-SHA256\s+Credential=([^/\s,]+)\/(\d{8})\/([^/\s,]+)\/([^/\s,]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(
      authorization.trim(),
    );
  if (!parsed) {
    throw new ApiError(400, 'IncompleteSignatureException', 'The request signature does not conform to AWS standards.');
  }
  const [, accessKeyId = '', date = '', region = '', service = '', signedHeaderList = '', signature = ''] = parsed;
  const secret = credentials.get(accessKeyId);
  if (secret === undefined) {
    throw new ApiError(
      403,
      'UnrecognizedClientException',
      'The X.509 certificate or AWS access key ID provided does not exist in our records.',
    );
  }
  const amzDate = header(req, 'x-amz-date') ?? '';
  const signedHeaders = signedHeaderList.split(';');
  if (
    !/^\d{8}T\d{6}Z$/.test(amzDate) ||
    amzDate.slice(0, 8) !== date ||
    region !== MTURK_REGION ||
    service !== SIGNING_SERVICE ||
    !signedHeaders.includes('host') ||
    !signedHeaders.includes('x-amz-date')
  ) {
    throw new ApiError(
      400,
      'IncompleteSignatureException',
      `Credential should be scoped to <date>/${MTURK_REGION}/${SIGNING_SERVICE}/aws4_request and sign host and x-amz-date.`,
    );
  }
  const signedAt = Date.UTC(
    Number(amzDate.slice(0, 4)),
    Number(amzDate.slice(4, 6)) - 1,
    Number(amzDate.slice(6, 8)),
    Number(amzDate.slice(9, 11)),
    Number(amzDate.slice(11, 13)),
    Number(amzDate.slice(13, 15)),
  );
  if (Math.abs(Date.now() - signedAt) > MAX_CLOCK_SKEW_MS) {
    throw new ApiError(
      403,
      'InvalidSignatureException',
      `Signature expired: ${amzDate} is more than 15 minutes from now.`,
    );
  }

  const url = new URL(req.url ?? '/', 'http://contract.invalid');
  const canonicalRequest = [
    req.method ?? 'POST',
    canonicalPath(url.pathname),
    canonicalQuery(url.searchParams),
    `${signedHeaders.map((name) => `${name}:${canonicalHeaderValue(req, name)}`).join('\n')}\n`,
    signedHeaderList,
    sha256Hex(body),
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  let key = hmac(`AWS4${secret}`, date);
  for (const part of [region, service, 'aws4_request']) key = hmac(key, part);
  const expected = createHmac('sha256', key).update(stringToSign, 'utf8').digest();
  const given = Buffer.from(signature, 'hex');
  const contentHash = header(req, 'x-amz-content-sha256');
  if (
    given.length !== expected.length ||
    !timingSafeEqual(given, expected) ||
    (contentHash !== undefined && contentHash !== sha256Hex(body))
  ) {
    throw new ApiError(
      403,
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
    );
  }
  return accessKeyId;
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/** RFC 3986 encoding as SigV4 wants it (unreserved characters kept, everything else %XX upper-case). */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Non-S3 services encode each path segment twice (once for the URI, once for the canonical request). */
function canonicalPath(pathname: string): string {
  const segments = pathname.split('/').map((segment) => {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // keep the raw segment
    }
    return uriEncode(uriEncode(decoded));
  });
  const path = segments.join('/');
  return path.startsWith('/') ? path : `/${path}`;
}

function canonicalQuery(params: URLSearchParams): string {
  return [...params]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** Every raw value of the header, trimmed and with inner runs of spaces collapsed, joined by commas. */
function canonicalHeaderValue(req: IncomingMessage, name: string): string {
  const values: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() === name)
      values.push((req.rawHeaders[i + 1] ?? '').trim().replace(/\s+/g, ' '));
  }
  return values.join(',');
}

// ——— plumbing ———

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function parseBody(raw: Buffer): Record<string, unknown> | null {
  if (raw.length === 0) return {};
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

function isOperation(name: string): name is ContractOperation {
  return (CONTRACT_OPERATIONS as readonly string[]).includes(name);
}

/** Epoch seconds, the JSON 1.1 protocol's timestamp format. */
function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** An id shaped like MTurk's: upper-case letters and digits. */
function newId(length: number): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

function hashId(text: string): string {
  const digest = createHash('sha256').update(text).digest();
  let id = '';
  for (const byte of digest.subarray(0, 30)) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

interface PageToken {
  hitId: string;
  filter: string;
  offset: number;
}

function writeToken(token: PageToken): string {
  return Buffer.from(JSON.stringify(token), 'utf8').toString('base64url');
}

function readToken(value: unknown): PageToken | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 255) return null;
  try {
    const token = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<PageToken>;
    if (typeof token.hitId !== 'string' || typeof token.filter !== 'string') return null;
    if (typeof token.offset !== 'number' || !Number.isInteger(token.offset) || token.offset < 0) return null;
    return { hitId: token.hitId, filter: token.filter, offset: token.offset };
  } catch {
    return null;
  }
}
