import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTolokaContractServer, type TolokaContractServer } from '../../test/contract-servers/toloka/server.ts';
import {
  buildPoolFilter,
  completionCodeOf,
  createTolokaClient,
  EXTERNAL_LINK_FIELDS,
  externalLinkProject,
  isTolokaAuthError,
  TOLOKA_PRODUCTION_URL,
  TOLOKA_SANDBOX_URL,
  type TolokaClient,
  TolokaError,
  type TolokaPoolInput,
} from './client.ts';

const TOKEN = 'y0_AgAAAAB-emolens-secret-token-7c1e9a';

let server: TolokaContractServer;
let client: TolokaClient;

beforeEach(async () => {
  server = await startTolokaContractServer({ tokens: [TOKEN], balance: 100 });
  server.state.operationDelayMs = 5;
  client = createTolokaClient({ baseUrl: server.url, token: TOKEN, retryBaseDelayMs: 5, timeoutMs: 2000 });
});

afterEach(async () => {
  await server.close();
});

/** The error a promise rejects with (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<TolokaError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TolokaError);
    return error as TolokaError;
  }
  throw new Error('expected the call to fail');
}

const requestsTo = (path: string, method?: string) =>
  server.state.requests.filter((r) => r.path === `/api/v1${path}` && (!method || r.method === method));

function poolBody(projectId: string, overrides: Partial<TolokaPoolInput> = {}): TolokaPoolInput {
  return {
    project_id: projectId,
    private_name: 'Emolens study 42 — women 25–34, RU',
    may_contain_adult_content: false,
    reward_per_assignment: 0.5,
    assignment_max_duration_seconds: 1800,
    will_expire: '2099-01-01T00:00:00',
    defaults: { default_overlap_for_new_task_suites: 10 },
    auto_accept_solutions: false,
    auto_accept_period_day: 7,
    mixer_config: { real_tasks_count: 1, golden_tasks_count: 0, training_tasks_count: 0 },
    filter: buildPoolFilter({ gender: 'FEMALE', ageMin: 25, ageMax: 34, countries: ['ru'] }),
    ...overrides,
  };
}

async function setUpPool(options: { reward?: number; overlap?: number } = {}) {
  const project = await client.createProject(
    externalLinkProject({
      publicName: 'Watch a short video',
      publicDescription: 'Watch a video with your webcam on and answer a few questions',
      publicInstructions: '<p>Open the link, follow the study, and paste the completion code here.</p>',
    }),
  );
  const pool = await client.createPool(poolBody(project.id, { reward_per_assignment: options.reward ?? 0.5 }));
  const task = await client.createTask({
    pool_id: pool.id,
    input_values: { [EXTERNAL_LINK_FIELDS.link]: 'https://emolens.example/q/abc123' },
    overlap: options.overlap ?? 10,
  });
  return { project, pool, task };
}

describe('hosts', () => {
  it('names the production and sandbox hosts', () => {
    expect(TOLOKA_PRODUCTION_URL).toBe('https://toloka.dev');
    expect(TOLOKA_SANDBOX_URL).toBe('https://sandbox.toloka.dev');
  });
});

describe('token validation', () => {
  it('a good token reads the requester with its balance, sent as "OAuth <token>"', async () => {
    server.state.setBalance(12.34);
    const me = await client.requester();
    expect(me.id).toBe(server.state.requester.id);
    expect(me.balance).toBe(12.34);
    expect(me.public_name).toEqual({ EN: 'Emolens (contract)' });
    expect(requestsTo('/requester')).toEqual([expect.objectContaining({ method: 'GET', auth: 'ok', status: 200 })]);
  });

  it('a bad token is a 401 AUTHENTICATION_ERROR, not retried', async () => {
    const other = createTolokaClient({ baseUrl: server.url, token: 'not-a-known-token', retryBaseDelayMs: 5 });
    const error = await rejection(other.requester());
    expect(error).toMatchObject({ status: 401, code: 'AUTHENTICATION_ERROR' });
    expect(error.requestId).toEqual(expect.any(String));
    expect(isTolokaAuthError(error)).toBe(true);
    expect(requestsTo('/requester')).toEqual([expect.objectContaining({ auth: 'invalid', status: 401 })]);
  });
});

describe('project, pool and task', () => {
  it('creates an external-link project, a filtered pool and its one task', async () => {
    const { project, pool, task } = await setUpPool({ overlap: 12 });

    const stored = server.state.projects.get(project.id);
    expect(stored?.assignments_issuing_type).toBe('AUTOMATED');
    const taskSpec = stored?.task_spec as {
      input_spec: Record<string, { type: string }>;
      output_spec: Record<string, { type: string }>;
      view_spec: { type: string; config: string };
    };
    expect(taskSpec.input_spec.quota_url?.type).toBe('url');
    expect(taskSpec.output_spec.completion_code?.type).toBe('string');
    const config = JSON.parse(taskSpec.view_spec.config);
    expect(JSON.stringify(config)).toContain('"path":"quota_url"');
    expect(JSON.stringify(config)).toContain('"path":"completion_code"');

    expect(pool).toMatchObject({ project_id: project.id, status: 'CLOSED', reward_per_assignment: 0.5 });
    expect(pool.last_close_reason).toBeUndefined();
    const storedPool = server.state.pools.get(pool.id);
    expect(storedPool).toMatchObject({ auto_accept_solutions: false, auto_accept_period_day: 7 });
    expect(storedPool?.filter).toEqual({
      and: [
        { or: [{ category: 'profile', key: 'gender', operator: 'EQ', value: 'FEMALE' }] },
        { or: [{ category: 'profile', key: 'date_of_birth', operator: 'LTE', value: expect.any(Number) }] },
        { or: [{ category: 'profile', key: 'date_of_birth', operator: 'GT', value: expect.any(Number) }] },
        { or: [{ category: 'profile', key: 'country', operator: 'EQ', value: 'RU' }] },
      ],
    });

    expect(task).toMatchObject({
      pool_id: pool.id,
      overlap: 12,
      input_values: { quota_url: 'https://emolens.example/q/abc123' },
    });
    expect(server.state.tasks.get(task.id)?.overlap).toBe(12);
  });

  it('turns ages into date_of_birth bounds in Unix seconds', () => {
    const now = new Date('2026-06-15T12:00:00Z');
    const filter = buildPoolFilter({ ageMin: 18, ageMax: 30 }, now) as { and: Array<{ or: Array<{ value: number }> }> };
    const [min, max] = filter.and.map((g) => g.or[0]?.value);
    expect(min).toBe(Date.parse('2008-06-15T12:00:00Z') / 1000); // born on or before: at least 18
    expect(max).toBe(Date.parse('1995-06-15T12:00:00Z') / 1000); // born after: not yet 31
    expect(buildPoolFilter({})).toBeUndefined();
  });

  it('a pool missing required fields is a 400 VALIDATION_ERROR naming each field', async () => {
    const project = await client.createProject(
      externalLinkProject({ publicName: 'P', publicDescription: 'D', publicInstructions: 'I' }),
    );
    const body = poolBody(project.id, { reward_per_assignment: 0.001 }) as Partial<TolokaPoolInput>;
    delete body.private_name;
    const error = await rejection(client.createPool(body as TolokaPoolInput));
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(error.payload).toMatchObject({
      private_name: { code: 'VALUE_REQUIRED' },
      reward_per_assignment: { code: 'VALUE_LESS_THAN_MIN' },
    });
    expect(requestsTo('/pools', 'POST')).toHaveLength(1);
    expect(server.state.pools.size).toBe(0);
  });

  it('a task whose input does not match the project is refused, and so is a task in a pool without mixer_config', async () => {
    const { pool, project } = await setUpPool();
    const bad = await rejection(
      client.createTask({ pool_id: pool.id, input_values: { [EXTERNAL_LINK_FIELDS.link]: 'not a url' }, overlap: 1 }),
    );
    expect(bad).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(bad.payload).toMatchObject({ 'input_values.quota_url': { code: 'INVALID_URL_SYNTAX' } });

    const bare = await client.createPool(poolBody(project.id, { mixer_config: undefined }));
    const conflict = await rejection(
      client.createTask({ pool_id: bare.id, input_values: { quota_url: 'https://e.example/q' }, overlap: 1 }),
    );
    expect(conflict).toMatchObject({ status: 409, code: 'MIXER_CONFIG_REQUIRED' });
  });
});

describe('opening and closing', () => {
  it('open answers a PENDING POOL.OPEN operation that the client waits to SUCCESS', async () => {
    const { pool } = await setUpPool();
    server.state.operationDelayMs = 300; // room to see the pool still closed while the operation runs
    const started = await client.openPool(pool.id);
    expect(started).toMatchObject({ type: 'POOL.OPEN', status: 'PENDING', parameters: { pool_id: pool.id } });
    expect(requestsTo(`/pools/${pool.id}/open`)).toEqual([expect.objectContaining({ status: 202 })]);
    expect((await client.getPool(pool.id)).status).toBe('CLOSED');

    const done = await client.waitOperation(started?.id ?? '', { intervalMs: 20, timeoutMs: 2000 });
    expect(done.status).toBe('SUCCESS');
    expect(done.finished).toEqual(expect.any(String));
    expect(requestsTo(`/operations/${done.id}`).length).toBeGreaterThan(1); // it did poll
    expect((await client.getPool(pool.id)).status).toBe('OPEN');

    expect(await client.openPool(pool.id)).toBeNull(); // already open: 204
  });

  it('openPoolAndWait returns the open pool', async () => {
    const { pool } = await setUpPool();
    const opened = await client.openPoolAndWait(pool.id, { intervalMs: 2 });
    expect(opened.status).toBe('OPEN');
    expect(opened.last_started).toEqual(expect.any(String));
  });

  it('waitOperation gives up with OPERATION_TIMEOUT', async () => {
    const { pool } = await setUpPool();
    server.state.operationDelayMs = 60_000;
    const started = await client.openPool(pool.id);
    const error = await rejection(client.waitOperation(started?.id ?? '', { intervalMs: 5, timeoutMs: 40 }));
    expect(error).toMatchObject({ code: 'OPERATION_TIMEOUT', status: 0 });
  });

  it('close waits for POOL.CLOSE and leaves the pool CLOSED for MANUAL; closing again is a no-op', async () => {
    const { pool } = await setUpPool();
    await client.openPoolAndWait(pool.id, { intervalMs: 2 });
    const closed = await client.closePoolAndWait(pool.id, { intervalMs: 2 });
    expect(closed).toMatchObject({ status: 'CLOSED', last_close_reason: 'MANUAL' });
    const operations = [...server.state.operations.values()].map((o) => [o.type, o.status]);
    expect(operations).toEqual([
      ['POOL.OPEN', 'SUCCESS'],
      ['POOL.CLOSE', 'SUCCESS'],
    ]);
    expect(await client.closePool(pool.id)).toBeNull();
  });
});

describe('not enough balance', () => {
  // reward 0.5 × overlap 10 × (1 + 30 % fee) = 6.50
  it.each(['operation-fail', 'open-then-close', 'conflict'] as const)(
    'opening with too little money surfaces NOT_ENOUGH_BALANCE (%s)',
    async (mode) => {
      server.state.balanceFailure = mode;
      const { pool } = await setUpPool({ reward: 0.5, overlap: 10 });
      expect(server.state.poolCost(pool.id)).toBeCloseTo(6.5);
      server.state.setBalance(6.49);

      const error = await rejection(client.openPoolAndWait(pool.id, { intervalMs: 2 }));
      expect(error.code).toBe('NOT_ENOUGH_BALANCE');
      const after = await client.getPool(pool.id);
      expect(after.status).toBe('CLOSED');
      if (mode === 'conflict') {
        expect(error.status).toBe(409);
      } else {
        expect(after.last_close_reason).toBe('NOT_ENOUGH_BALANCE');
        expect(error.payload).toMatchObject({ pool: { status: 'CLOSED', last_close_reason: 'NOT_ENOUGH_BALANCE' } });
      }

      server.state.setBalance(6.5);
      expect((await client.openPoolAndWait(pool.id, { intervalMs: 2 })).status).toBe('OPEN');
    },
  );

  it('a pool Toloka closes for lack of money shows NOT_ENOUGH_BALANCE', async () => {
    const { pool } = await setUpPool();
    await client.openPoolAndWait(pool.id, { intervalMs: 2 });
    server.state.closeForBalance(pool.id);
    expect(await client.getPool(pool.id)).toMatchObject({ status: 'CLOSED', last_close_reason: 'NOT_ENOUGH_BALANCE' });
  });
});

describe('assignments', () => {
  it('lists every assignment of a status across pages, walking id_gt', async () => {
    const { pool } = await setUpPool();
    const other = await setUpPool();
    const submitted = [1, 2, 3, 4, 5, 6, 7].map((n) =>
      server.state.addAssignment(pool.id, { user_id: `worker-${n}`, code: `CODE-${n}` }),
    );
    server.state.addAssignment(pool.id, { user_id: 'worker-8', code: 'CODE-8', status: 'ACCEPTED' });
    server.state.addAssignment(pool.id, { user_id: 'worker-9', status: 'ACTIVE' });
    server.state.addAssignment(other.pool.id, { user_id: 'worker-10', code: 'CODE-10' });

    const listed = await client.listAssignments({ pool_id: pool.id, status: 'SUBMITTED', limit: 3 });
    expect(listed.map((a) => a.id)).toEqual(submitted.map((a) => a.id));
    expect(listed.map((a) => completionCodeOf(a))).toEqual([
      'CODE-1',
      'CODE-2',
      'CODE-3',
      'CODE-4',
      'CODE-5',
      'CODE-6',
      'CODE-7',
    ]);
    expect(listed[0]).toMatchObject({ user_id: 'worker-1', status: 'SUBMITTED', submitted: expect.any(String) });

    const pages = requestsTo('/assignments', 'GET');
    expect(pages.map((r) => r.query.id_gt)).toEqual([undefined, submitted[2]?.id, submitted[5]?.id]);
    expect(pages.every((r) => r.query.sort === 'id' && r.query.limit === '3' && r.query.pool_id === pool.id)).toBe(
      true,
    );

    const twoStatuses = await client.listAssignments({ pool_id: pool.id, status: ['SUBMITTED', 'ACCEPTED'] });
    expect(twoStatuses).toHaveLength(8);
    expect(await client.listAssignments({ pool_id: pool.id })).toHaveLength(9);
  });

  it('accepts and rejects with comments; a second accept answers 409 INAPPROPRIATE_STATUS', async () => {
    const { pool } = await setUpPool({ reward: 0.5 });
    const good = server.state.addAssignment(pool.id, { user_id: 'w-good', code: 'OK-1' });
    const bad = server.state.addAssignment(pool.id, { user_id: 'w-bad', code: 'WRONG' });
    server.state.setBalance(10);

    const accepted = await client.acceptAssignment(good.id, 'Thank you!');
    expect(accepted).toMatchObject({ status: 'ACCEPTED', public_comment: 'Thank you!' });
    expect(server.state.assignments.get(good.id)).toMatchObject({ status: 'ACCEPTED', public_comment: 'Thank you!' });
    expect(server.state.balance).toBeCloseTo(10 - 0.5 * 1.3);
    expect(requestsTo(`/assignments/${good.id}`, 'PATCH')[0]?.body).toEqual({
      status: 'ACCEPTED',
      public_comment: 'Thank you!',
    });

    const rejected = await client.rejectAssignment(bad.id, 'The completion code does not match');
    expect(rejected.status).toBe('REJECTED');
    expect(server.state.assignments.get(bad.id)).toMatchObject({
      status: 'REJECTED',
      public_comment: 'The completion code does not match',
    });

    const again = await rejection(client.acceptAssignment(good.id, 'Thank you!'));
    expect(again).toMatchObject({ status: 409, code: 'INAPPROPRIATE_STATUS' });
    expect(again.payload).toEqual({ appropriate_statuses: ['SUBMITTED', 'REJECTED'] });
    expect(requestsTo(`/assignments/${good.id}`, 'PATCH')).toHaveLength(2); // the 409 was not retried

    const rejectAccepted = await rejection(client.rejectAssignment(good.id, 'Changed my mind'));
    expect(rejectAccepted).toMatchObject({ status: 409, code: 'INAPPROPRIATE_STATUS' });

    // Overturning a rejection is allowed.
    expect((await client.acceptAssignment(bad.id, 'Sorry, our mistake')).status).toBe('ACCEPTED');
  });

  it('a rejection without a comment is a validation error', async () => {
    const { pool } = await setUpPool();
    const a = server.state.addAssignment(pool.id, { user_id: 'w', code: 'X' });
    const error = await rejection(client.rejectAssignment(a.id, ''));
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      payload: { public_comment: { code: 'VALUE_REQUIRED' } },
    });
    expect(server.state.assignments.get(a.id)?.status).toBe('SUBMITTED');
  });
});

describe('retries', () => {
  it('a 429 is retried, then succeeds', async () => {
    server.state.failNext('/requester', 429, undefined, { headers: { 'Retry-After': '0' } });
    const me = await client.requester();
    expect(me.id).toBe(server.state.requester.id);
    expect(requestsTo('/requester').map((r) => r.status)).toEqual([429, 200]);
  });

  it('Retry-After is honoured', async () => {
    server.state.failNext('/requester', 429, undefined, { headers: { 'Retry-After': '1' } });
    const started = Date.now();
    await client.requester();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('a Retry-After longer than the client will wait ends the retries at once', async () => {
    server.state.failNext('/requester', 429, undefined, { headers: { 'Retry-After': '120' } });
    const error = await rejection(client.requester());
    expect(error).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfterMs: 120_000 });
    expect(requestsTo('/requester')).toHaveLength(1);
  });

  it('500 twice then success: at most two retries are enough', async () => {
    server.state.failNext('/requester', 500, undefined, { times: 2 });
    await client.requester();
    expect(requestsTo('/requester').map((r) => r.status)).toEqual([500, 500, 200]);
  });

  it('500 three times: the third answer is the failure, after exactly three requests', async () => {
    server.state.failNext('/requester', 500, undefined, { times: 3 });
    server.state.failNext('/requester', 500); // a fourth would also fail, were it sent
    const error = await rejection(client.requester());
    expect(error).toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
    expect(requestsTo('/requester')).toHaveLength(3);
  });

  it('a creation is not repeated after an ambiguous 500, but is after a 503', async () => {
    const body = externalLinkProject({ publicName: 'P', publicDescription: 'D', publicInstructions: 'I' });
    server.state.failNext('/projects', 500);
    expect(await rejection(client.createProject(body))).toMatchObject({ status: 500 });
    expect(requestsTo('/projects')).toHaveLength(1);

    server.state.failNext('/projects', 503);
    const project = await client.createProject(body);
    expect(project.id).toEqual(expect.any(String));
    expect(requestsTo('/projects').map((r) => r.status)).toEqual([500, 503, 201]);
  });

  it('other 4xx answers are never retried', async () => {
    const error = await rejection(client.getPool('424242'));
    expect(error).toMatchObject({ status: 404, code: 'DOES_NOT_EXIST' });
    server.state.failNext('/pools/1', 403);
    expect(await rejection(client.getPool('1'))).toMatchObject({ status: 403, code: 'ACCESS_DENIED' });
    expect(requestsTo('/pools/424242')).toHaveLength(1);
    expect(requestsTo('/pools/1')).toHaveLength(1);
  });
});

describe('transport and answers', () => {
  it('a timeout is a NETWORK error', async () => {
    const quick = createTolokaClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 100 });
    server.state.delayNext('/requester', 400);
    const error = await rejection(quick.requester());
    expect(error).toMatchObject({ status: 0, code: 'NETWORK' });
    expect(error.message).toMatch(/timed out after 100 ms/);
  });

  it('an unreachable host is a NETWORK error', async () => {
    const url = server.url;
    await server.close();
    const error = await rejection(createTolokaClient({ baseUrl: url, token: TOKEN }).requester());
    expect(error).toMatchObject({ status: 0, code: 'NETWORK' });
    server = await startTolokaContractServer({ tokens: [TOKEN] }); // for afterEach
  });

  it('a malformed answer is BAD_RESPONSE naming the field', async () => {
    server.state.failNext('/requester', 200, { id: 'r1', balance: 'a lot' });
    const error = await rejection(client.requester());
    expect(error).toMatchObject({ status: 200, code: 'BAD_RESPONSE' });
    expect(error.message).toContain('balance');
  });

  it('a non-Toloka error body keeps the HTTP status as the code', async () => {
    server.state.failNext('/pools/7', 502, '<html>Bad gateway</html>', { times: 3 });
    const error = await rejection(client.getPool('7'));
    expect(error).toMatchObject({ status: 502, code: 'HTTP_502' });
    expect(requestsTo('/pools/7')).toHaveLength(3);
  });
});

describe('the token stays secret', () => {
  it('never appears in any error, even when the server echoes it', async () => {
    const errors: TolokaError[] = [];
    const echo = {
      code: 'INTERNAL_ERROR',
      message: `bad header OAuth ${TOKEN}`,
      payload: { header: `OAuth ${TOKEN}` },
    };
    server.state.failNext('/requester', 500, echo, { times: 3 });
    errors.push(await rejection(client.requester()));
    server.state.failNext('/requester', 502, `<pre>Authorization: OAuth ${TOKEN}</pre>`, { times: 3 });
    errors.push(await rejection(client.requester()));
    server.state.failNext('/requester', 200, { id: TOKEN });
    errors.push(await rejection(client.requester()));
    server.state.delayNext('/requester', 300);
    errors.push(await rejection(createTolokaClient({ baseUrl: server.url, token: TOKEN, timeoutMs: 50 }).requester()));
    errors.push(await rejection(createTolokaClient({ baseUrl: 'http://127.0.0.1:1', token: TOKEN }).requester()));
    server.state.tokens.delete(TOKEN);
    errors.push(await rejection(client.requester()));

    expect(errors.map((e) => e.code)).toEqual([
      'INTERNAL_ERROR',
      'HTTP_502',
      'BAD_RESPONSE',
      'NETWORK',
      'NETWORK',
      'AUTHENTICATION_ERROR',
    ]);
    expect(errors[0]?.message).toContain('[token]'); // the echo was scrubbed, not dropped
    for (const error of errors) {
      for (const text of [
        error.message,
        String(error),
        error.stack ?? '',
        JSON.stringify(error),
        inspect(error, { depth: 5 }),
      ]) {
        expect(text).not.toContain(TOKEN);
      }
    }
    expect(JSON.stringify(server.state.requests)).not.toContain(TOKEN);
  });
});
