/**
 * A stand-in for MTurk's requester API for tests, over real HTTP: AWS JSON 1.1 (`POST /`,
 * `X-Amz-Target: MTurkRequesterServiceV20170117.<Operation>`, `Content-Type: application/x-amz-json-1.1`),
 * for exactly the operations `integrations/mturk/client.ts` uses. HITs and assignments live in memory.
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
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mturkCost } from '@emolens/contracts';
import { DEFAULT_COMPLETION_CODE_FIELD } from '../../../integrations/mturk/client.ts';
import { BodyTooLarge, listen, readBody } from '../http.ts';
import {
  assignmentStatuses,
  checkQuestion,
  hashId,
  header,
  invalidState,
  isOperation,
  missing,
  newId,
  optionalFeedback,
  optionalInteger,
  optionalString,
  parseBody,
  questionFormAnswersXml,
  readToken,
  requiredInteger,
  requiredString,
  seconds,
  writeToken,
} from './requests.ts';
import { authenticate } from './sigv4.ts';
import {
  ApiError,
  CONTRACT_ACCESS_KEY_ID,
  CONTRACT_SECRET_ACCESS_KEY,
  type ContractOperation,
  type ContractServerOptions,
  type ContractState,
  DEFAULT_AUTO_APPROVAL_SECONDS,
  DEFAULT_PAGE_SIZE,
  JSON_CONTENT_TYPE,
  type LoggedRequest,
  MAX_BODY_BYTES,
  MAX_PAGE_SIZE,
  type MturkContractServer,
  requestError,
  type StoredAssignment,
  type StoredHit,
  TARGET_PREFIX,
} from './types.ts';

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
      const raw = await readBody(req, MAX_BODY_BYTES);
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

  return listen(state, handle, options.port);
}

export { questionFormAnswersXml } from './requests.ts';
export {
  CONTRACT_ACCESS_KEY_ID,
  CONTRACT_OPERATIONS,
  CONTRACT_SECRET_ACCESS_KEY,
  type ContractServerOptions,
  type ContractState,
  type MturkContractServer,
} from './types.ts';
