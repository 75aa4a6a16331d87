import { inspect } from 'node:util';
import { MTurkClient, RejectAssignmentCommand } from '@aws-sdk/client-mturk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CONTRACT_ACCESS_KEY_ID,
  CONTRACT_SECRET_ACCESS_KEY,
  type MturkContractServer,
  startMturkContractServer,
} from '../../test/contract-servers/mturk/server.ts';
import {
  createMturkClient,
  EXTERNAL_QUESTION_NAMESPACE,
  type ExternalHitInput,
  MTURK_PRODUCTION_ENDPOINT,
  MTURK_SANDBOX_ENDPOINT,
  type MturkClient,
  type MturkClientOptions,
  MturkError,
  parseQuestionFormAnswers,
  QUESTION_FORM_ANSWERS_NAMESPACE,
} from './client.ts';

let server: MturkContractServer;
const clients: MturkClient[] = [];

beforeEach(async () => {
  server = await startMturkContractServer();
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await server.close();
});

function client(overrides: Partial<MturkClientOptions> = {}): MturkClient {
  const made = createMturkClient({
    accessKeyId: CONTRACT_ACCESS_KEY_ID,
    secretAccessKey: CONTRACT_SECRET_ACCESS_KEY,
    sandbox: true,
    endpoint: server.url,
    maxAttempts: 1,
    ...overrides,
  });
  clients.push(made);
  return made;
}

const HIT: ExternalHitInput = {
  title: 'Watch a 30-second ad with your webcam on',
  description: 'Emolens measures facial reactions; takes about 3 minutes.',
  reward: '0.50',
  maxAssignments: 500,
  lifetimeSeconds: 3 * 24 * 3600,
  assignmentDurationSeconds: 1800,
  keywords: 'survey, video, webcam',
  externalUrl: 'https://emolens.test/r/c9?campaign=42&lang=en&x=<y>',
  frameHeight: 640,
};

async function expectMturkError(promise: Promise<unknown>): Promise<MturkError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MturkError);
  return error as MturkError;
}

describe('endpoints', () => {
  it('defaults to the documented production and sandbox endpoints', () => {
    expect(MTURK_PRODUCTION_ENDPOINT).toBe('https://mturk-requester.us-east-1.amazonaws.com');
    expect(MTURK_SANDBOX_ENDPOINT).toBe('https://mturk-requester-sandbox.us-east-1.amazonaws.com');
    const base = { accessKeyId: 'AKIAX', secretAccessKey: 'secret' };
    const live = createMturkClient({ ...base, sandbox: false });
    const sandbox = createMturkClient({ ...base, sandbox: true });
    clients.push(live, sandbox);
    expect(live.endpoint).toBe(MTURK_PRODUCTION_ENDPOINT);
    expect(sandbox.endpoint).toBe(MTURK_SANDBOX_ENDPOINT);
    expect(client().endpoint).toBe(server.url);
  });
});

describe('accountBalance', () => {
  it('reads the balance with valid credentials over a verified SigV4 request', async () => {
    server.state.setBalance('1234.56', '7.80');
    await expect(client().accountBalance()).resolves.toEqual({ availableBalance: '1234.56', onHoldBalance: '7.80' });
    const [request] = server.state.requestsOf('GetAccountBalance');
    expect(request).toMatchObject({ accessKeyId: CONTRACT_ACCESS_KEY_ID, status: 200, body: {} });
  });

  it('answers an unknown access key id as AWS does', async () => {
    const error = await expectMturkError(
      client({ accessKeyId: 'AKIAUNKNOWNKEY000000', secretAccessKey: 'some-other-secret' }).accountBalance(),
    );
    expect(error.code).toBe('UnrecognizedClientException');
    expect(error.status).toBe(403);
    expect(error.operation).toBe('GetAccountBalance');
    expect(error.message).toMatch(/access key ID provided does not exist/);
  });

  it('refuses a known key signed with the wrong secret', async () => {
    const error = await expectMturkError(client({ secretAccessKey: 'not-the-secret' }).accountBalance());
    expect(error.code).toBe('InvalidSignatureException');
    expect(error.status).toBe(403);
  });
});

describe('createExternalHit', () => {
  it('sends an ExternalQuestion with the schema namespace, the escaped URL and the frame height', async () => {
    const hit = await client().createExternalHit(HIT);

    const [request] = server.state.requestsOf('CreateHIT');
    const body = request?.body ?? {};
    expect(body).toMatchObject({
      Title: HIT.title,
      Description: HIT.description,
      Reward: '0.50',
      MaxAssignments: 500,
      LifetimeInSeconds: 259_200,
      AssignmentDurationInSeconds: 1800,
      Keywords: 'survey, video, webcam',
    });
    const question = String(body.Question);
    expect(question).toContain(`<ExternalQuestion xmlns="${EXTERNAL_QUESTION_NAMESPACE}">`);
    expect(EXTERNAL_QUESTION_NAMESPACE).toBe(
      'http://mechanicalturk.amazonaws.com/AWSMechanicalTurkDataSchemas/2006-07-14/ExternalQuestion.xsd',
    );
    expect(question).toContain(
      '<ExternalURL>https://emolens.test/r/c9?campaign=42&amp;lang=en&amp;x=&lt;y&gt;</ExternalURL>',
    );
    expect(question).toContain('<FrameHeight>640</FrameHeight>');
    expect(question).not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);

    expect(hit.hitId).toMatch(/^[A-Z0-9]{30}$/);
    expect(server.state.hits.get(hit.hitId)?.Question).toBe(question);
    expect(hit.groupId).toBe(server.state.hits.get(hit.hitId)?.HITGroupId);
    expect(hit.status).toBe('Assignable');
    expect(hit.reward).toBe('0.50');
    expect(hit.assignmentsAvailable).toBe(500);
    expect(hit.expiration?.getTime()).toBeGreaterThan(Date.now() + 2 * 24 * 3600_000);
  });

  it('refuses a non-HTTPS page and a malformed reward before calling MTurk', async () => {
    const mturk = client();
    const http = await expectMturkError(mturk.createExternalHit({ ...HIT, externalUrl: 'http://emolens.test/r/c9' }));
    expect(http.type).toBe('ClientValidation');
    const reward = await expectMturkError(mturk.createExternalHit({ ...HIT, reward: '0.5' }));
    expect(reward.message).toMatch(/two decimals/);
    expect(server.state.requestsOf('CreateHIT')).toHaveLength(0);
  });
});

describe('getHit and expireHit', () => {
  it('stops a HIT with an ExpireAt in the past', async () => {
    const mturk = client();
    const { hitId } = await mturk.createExternalHit(HIT);
    expect((await mturk.getHit(hitId)).status).toBe('Assignable');

    await mturk.expireHit(hitId);

    const [request] = server.state.requestsOf('UpdateExpirationForHIT');
    expect(request?.body.HITId).toBe(hitId);
    expect(Number(request?.body.ExpireAt)).toBeLessThan(Date.now() / 1000);
    const hit = await mturk.getHit(hitId);
    expect(hit.status).toBe('Reviewable');
    expect(hit.expiration?.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it('reports an unknown HIT with MTurk’s error code', async () => {
    const error = await expectMturkError(client().getHit('NOSUCHHIT'));
    expect(error).toMatchObject({ code: 'AWS.MechanicalTurk.HITDoesNotExist', type: 'RequestError', status: 400 });
  });
});

describe('listAssignments', () => {
  it('follows NextToken across pages and returns every assignment with its code', async () => {
    const mturk = client();
    const { hitId } = await mturk.createExternalHit(HIT);
    const codes: string[] = [];
    for (let i = 0; i < 205; i++) {
      codes.push(`EMO-${i}`);
      server.state.addAssignment(hitId, { workerId: `A${String(i).padStart(12, '0')}`, code: `EMO-${i}` });
    }

    const assignments = await mturk.listAssignments(hitId, ['Submitted']);

    expect(assignments).toHaveLength(205);
    expect(new Set(assignments.map((a) => a.assignmentId)).size).toBe(205);
    expect(assignments.map((a) => a.completionCode).sort()).toEqual([...codes].sort());
    expect(assignments.every((a) => a.status === 'Submitted' && a.hitId === hitId)).toBe(true);
    const pages = server.state.requestsOf('ListAssignmentsForHIT');
    expect(pages).toHaveLength(3);
    expect(pages[0]?.body).toMatchObject({ HITId: hitId, AssignmentStatuses: ['Submitted'], MaxResults: 100 });
    expect(pages[0]?.body.NextToken).toBeUndefined();
    expect(typeof pages[1]?.body.NextToken).toBe('string');
    expect(typeof pages[2]?.body.NextToken).toBe('string');
  });

  it('honours a smaller page size and the status filter', async () => {
    const mturk = client({ pageSize: 2 });
    const { hitId } = await mturk.createExternalHit(HIT);
    server.state.addAssignment(hitId, { workerId: 'W1', code: 'A', status: 'Approved' });
    server.state.addAssignment(hitId, { workerId: 'W2', code: 'B' });
    server.state.addAssignment(hitId, { workerId: 'W3', code: 'C', status: 'Approved' });
    server.state.addAssignment(hitId, { workerId: 'W4', code: 'D', status: 'Rejected' });
    server.state.addAssignment(hitId, { workerId: 'W5', code: 'E', status: 'Approved' });

    const approved = await mturk.listAssignments(hitId, ['Approved']);

    expect(approved.map((a) => a.workerId).sort()).toEqual(['W1', 'W3', 'W5']);
    expect(server.state.requestsOf('ListAssignmentsForHIT')).toHaveLength(2);
  });

  it('parses the completion code from the Answer MTurk builds, and tolerates its absence', async () => {
    const mturk = client();
    const { hitId } = await mturk.createExternalHit(HIT);
    const withCode = server.state.addAssignment(hitId, {
      workerId: 'W1',
      code: '  Ä&<b>-7  ',
      fields: { age: '31' },
    });
    const withoutCode = server.state.addAssignment(hitId, { workerId: 'W2', fields: { comment: 'no code' } });
    const emptyCode = server.state.addAssignment(hitId, { workerId: 'W3', code: '   ' });

    const answer = server.state.assignments.get(withCode)?.Answer ?? '';
    expect(answer).toContain(`<QuestionFormAnswers xmlns="${QUESTION_FORM_ANSWERS_NAMESPACE}">`);
    expect(answer).toContain('<QuestionIdentifier>completion_code</QuestionIdentifier>');
    expect(answer).toContain('<FreeText>  &#196;&amp;&lt;b&gt;-7  </FreeText>');

    const byId = new Map((await mturk.listAssignments(hitId)).map((a) => [a.assignmentId, a]));
    expect(byId.get(withCode)?.completionCode).toBe('Ä&<b>-7');
    expect(byId.get(withCode)?.answers).toEqual({ completion_code: '  Ä&<b>-7  ', age: '31' });
    expect(byId.get(withoutCode)?.completionCode).toBeNull();
    expect(byId.get(withoutCode)?.answers).toEqual({ comment: 'no code' });
    expect(byId.get(emptyCode)?.completionCode).toBeNull();
  });

  it('reads a custom completion field', async () => {
    const mturk = client({ completionCodeField: 'surveycode' });
    const { hitId } = await mturk.createExternalHit(HIT);
    server.state.addAssignment(hitId, { workerId: 'W1', code: 'IGNORED', fields: { surveycode: 'S-1' } });
    const [assignment] = await mturk.listAssignments(hitId);
    expect(assignment?.completionCode).toBe('S-1');
  });
});

describe('parseQuestionFormAnswers', () => {
  it('reads prefixed elements, CDATA and character references', () => {
    const xml =
      '<?xml version="1.0" encoding="UTF-8"?>' +
      `<mt:QuestionFormAnswers xmlns:mt="${QUESTION_FORM_ANSWERS_NAMESPACE}">` +
      '<mt:Answer><mt:QuestionIdentifier> completion_code </mt:QuestionIdentifier>' +
      '<mt:FreeText><![CDATA[A&B<1>]]>&#x41;&#66;</mt:FreeText></mt:Answer>' +
      '<mt:Answer><mt:QuestionIdentifier>completion_code</mt:QuestionIdentifier><mt:FreeText>second</mt:FreeText></mt:Answer>' +
      '<mt:Answer><mt:QuestionIdentifier>empty</mt:QuestionIdentifier><mt:FreeText/></mt:Answer>' +
      '<mt:Answer><mt:FreeText>no identifier</mt:FreeText></mt:Answer>' +
      '</mt:QuestionFormAnswers>';
    expect(parseQuestionFormAnswers(xml)).toEqual({ completion_code: 'A&B<1>AB', empty: '' });
  });

  it('yields nothing for absent, empty, or DTD-bearing documents', () => {
    expect(parseQuestionFormAnswers(undefined)).toEqual({});
    expect(parseQuestionFormAnswers('')).toEqual({});
    expect(parseQuestionFormAnswers('not xml at all')).toEqual({});
    const entityBomb =
      '<?xml version="1.0"?><!DOCTYPE q [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>' +
      `<QuestionFormAnswers xmlns="${QUESTION_FORM_ANSWERS_NAMESPACE}"><Answer>` +
      '<QuestionIdentifier>completion_code</QuestionIdentifier><FreeText>&b;</FreeText></Answer></QuestionFormAnswers>';
    expect(parseQuestionFormAnswers(entityBomb)).toEqual({});
  });

  it('does not let one Answer swallow the next or match lookalike elements', () => {
    const xml =
      `<QuestionFormAnswers xmlns="${QUESTION_FORM_ANSWERS_NAMESPACE}">` +
      '<AnswerKey><QuestionIdentifier>fake</QuestionIdentifier><FreeText>x</FreeText></AnswerKey>' +
      '<Answer><QuestionIdentifier>a</QuestionIdentifier><FreeText>1</FreeText></Answer>' +
      '<Answer><QuestionIdentifier>b</QuestionIdentifier><FreeTextual>no</FreeTextual><FreeText>2</FreeText></Answer>' +
      '</QuestionFormAnswers>';
    expect(parseQuestionFormAnswers(xml)).toEqual({ a: '1', b: '2' });
  });
});

describe('approve and reject', () => {
  it('approves and rejects with feedback, moving the assignments on', async () => {
    const mturk = client();
    const { hitId } = await mturk.createExternalHit(HIT);
    const good = server.state.addAssignment(hitId, { workerId: 'W1', code: 'OK-1' });
    const bad = server.state.addAssignment(hitId, { workerId: 'W2', code: 'WRONG' });

    await mturk.approve(good, 'Thank you!');
    await mturk.reject(bad, 'The completion code does not match the one shown at the end of the study.');

    expect(server.state.assignments.get(good)).toMatchObject({
      AssignmentStatus: 'Approved',
      RequesterFeedback: 'Thank you!',
    });
    expect(server.state.assignments.get(bad)).toMatchObject({ AssignmentStatus: 'Rejected' });
    expect(server.state.requestsOf('RejectAssignment')[0]?.body).toEqual({
      AssignmentId: bad,
      RequesterFeedback: 'The completion code does not match the one shown at the end of the study.',
    });
    const listed = await mturk.listAssignments(hitId);
    expect(listed.find((a) => a.assignmentId === good)?.status).toBe('Approved');
    expect(listed.find((a) => a.assignmentId === bad)).toMatchObject({
      status: 'Rejected',
      requesterFeedback: 'The completion code does not match the one shown at the end of the study.',
    });
    expect((await mturk.getHit(hitId)).assignmentsCompleted).toBe(2);
  });

  it('answers a repeated approval with the documented RequestError', async () => {
    const mturk = client();
    const { hitId } = await mturk.createExternalHit(HIT);
    const id = server.state.addAssignment(hitId, { workerId: 'W1', code: 'OK-1' });
    await mturk.approve(id);

    const again = await expectMturkError(mturk.approve(id));
    expect(again).toMatchObject({
      code: 'AWS.MechanicalTurk.InvalidAssignmentState',
      type: 'RequestError',
      status: 400,
      operation: 'ApproveAssignment',
    });
    expect(again.message).toMatch(/can be called with a status of: Submitted/);

    const rejectApproved = await expectMturkError(mturk.reject(id, 'too late'));
    expect(rejectApproved.code).toBe('AWS.MechanicalTurk.InvalidAssignmentState');

    const rejected = server.state.addAssignment(hitId, { workerId: 'W2', status: 'Rejected' });
    const approveRejected = await expectMturkError(mturk.approve(rejected));
    expect(approveRejected.code).toBe('AWS.MechanicalTurk.InvalidAssignmentState');
    expect(server.state.assignments.get(rejected)?.AssignmentStatus).toBe('Rejected');
  });

  it('requires feedback to reject, locally and at the server', async () => {
    const mturk = client();
    const { hitId } = await mturk.createExternalHit(HIT);
    const id = server.state.addAssignment(hitId, { workerId: 'W1', code: 'X' });

    const local = await expectMturkError(mturk.reject(id, '  '));
    expect(local.type).toBe('ClientValidation');
    expect(server.state.requestsOf('RejectAssignment')).toHaveLength(0);

    // The raw SDK does not enforce required members: the contract server must.
    const raw = new MTurkClient({
      region: 'us-east-1',
      endpoint: server.url,
      credentials: { accessKeyId: CONTRACT_ACCESS_KEY_ID, secretAccessKey: CONTRACT_SECRET_ACCESS_KEY },
      maxAttempts: 1,
    });
    try {
      const error = await raw
        .send(new RejectAssignmentCommand({ AssignmentId: id, RequesterFeedback: undefined }))
        .then(
          () => null,
          (e: unknown) => e as { name?: string; TurkErrorCode?: string; message?: string },
        );
      expect(error?.name).toBe('RequestError');
      expect(error?.TurkErrorCode).toBe('AWS.MissingParameters');
      expect(error?.message).toMatch(/RequesterFeedback/);
    } finally {
      raw.destroy();
    }
    expect(server.state.assignments.get(id)?.AssignmentStatus).toBe('Submitted');
  });

  it('refuses feedback MTurk would refuse', async () => {
    const mturk = client();
    await expect(mturk.approve('A1', 'x'.repeat(1025))).rejects.toMatchObject({ type: 'ClientValidation' });
    await expect(mturk.approve('A1', 'bell\u0007')).rejects.toMatchObject({ type: 'ClientValidation' });
    expect(server.state.requestsOf('ApproveAssignment')).toHaveLength(0);
  });
});

describe('faults', () => {
  const fault = {
    __type: 'ServiceFault',
    Message: 'Amazon Mechanical Turk is temporarily unable to process your request.',
    TurkErrorCode: 'AWS.ServiceUnavailable',
  };

  it('surfaces a ServiceFault as an MturkError', async () => {
    server.state.failNext('GetAccountBalance', 500, fault);
    const error = await expectMturkError(client().accountBalance());
    expect(error).toMatchObject({
      code: 'AWS.ServiceUnavailable',
      type: 'ServiceFault',
      status: 500,
      retryable: true,
      message: fault.Message,
    });
    expect(server.state.requestsOf('GetAccountBalance')).toHaveLength(1);
  });

  it('retries a ServiceFault once when allowed two attempts', async () => {
    server.state.failNext('GetAccountBalance', 500, fault);
    await expect(client({ maxAttempts: 2 }).accountBalance()).resolves.toMatchObject({ availableBalance: '10000.00' });
    expect(server.state.requestsOf('GetAccountBalance').map((r) => r.status)).toEqual([500, 200]);
  });

  it('never puts the secret or the Authorization header in an error', async () => {
    const leaky = `Bad request. Authorization: AWS4-HMAC-SHA256 Credential=${CONTRACT_ACCESS_KEY_ID}/20240101/us-east-1/mturk-requester/aws4_request, Signature=${'a'.repeat(64)} secret=${CONTRACT_SECRET_ACCESS_KEY}`;
    server.state.failNext('ApproveAssignment', 400, {
      __type: 'RequestError',
      Message: leaky,
      TurkErrorCode: 'AWS.BadClaimsSupplied',
    });
    const echoed = await expectMturkError(client().approve('A1'));
    const unknownKey = await expectMturkError(
      client({ accessKeyId: 'AKIAUNKNOWNKEY000000', secretAccessKey: CONTRACT_SECRET_ACCESS_KEY }).accountBalance(),
    );
    const url = server.url;
    await server.close();
    const offline = await expectMturkError(client({ endpoint: url }).accountBalance());
    server = await startMturkContractServer();

    expect(echoed.code).toBe('AWS.BadClaimsSupplied');
    expect(echoed.message).toContain('Bad request.');
    expect(offline.type).toBe('NetworkError');
    expect(offline.status).toBeUndefined();
    for (const error of [echoed, unknownKey, offline]) {
      const rendered = [error.message, String(error.stack), JSON.stringify(error), inspect(error, { depth: 5 })];
      for (const text of rendered) {
        expect(text).not.toContain(CONTRACT_SECRET_ACCESS_KEY);
        expect(text).not.toContain('AWS4-HMAC-SHA256');
        expect(text).not.toContain('a'.repeat(64));
      }
    }
  });
});

describe('contract server', () => {
  it('refuses unsigned requests and unknown operations, and logs no credentials', async () => {
    const unsigned = await fetch(server.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-amz-json-1.1',
        'X-Amz-Target': 'MTurkRequesterServiceV20170117.GetAccountBalance',
      },
      body: '{}',
    });
    expect(unsigned.status).toBe(403);
    expect(await unsigned.json()).toMatchObject({ __type: 'MissingAuthenticationTokenException' });

    const malformed = await fetch(server.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-amz-json-1.1',
        'X-Amz-Target': 'MTurkRequesterServiceV20170117.GetAccountBalance',
        Authorization: `AWS4-HMAC-SHA256 Credential=${CONTRACT_ACCESS_KEY_ID}`,
      },
      body: '{}',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ __type: 'IncompleteSignatureException' });

    await client().accountBalance();
    const log = JSON.stringify(server.state.requests);
    expect(log).not.toContain(CONTRACT_SECRET_ACCESS_KEY);
    expect(log).not.toContain('Signature=');
    expect(server.state.requests.map((r) => r.status)).toEqual([403, 400, 200]);
  });
});
