/**
 * Toloka REST client: the calls Emolens needs to recruit respondents on Toloka.
 *
 * Written from Toloka's public API documentation (the Toloka/docs repository is the source of
 * toloka.ai/docs/api; the Python SDK Toloka/toloka-kit was read for field names and behaviour):
 *
 * - Authorization `OAuth <token>`, error body `{ request_id, code, message, payload }`, the common codes
 *   (400 VALIDATION_ERROR, 403 ACCESS_DENIED, 404 DOES_NOT_EXIST, 409 CONFLICT_STATE, 429 TOO_MANY_REQUESTS,
 *   500 INTERNAL_ERROR, 503 REMOTE_SERVICE_UNAVAILABLE, the 409 INAPPROPRIATE_STATUS sample):
 *   https://github.com/Toloka/docs/blob/main/en/api/concepts/errors.md
 *   AUTHENTICATION_ERROR and the internal codes (NOT_ENOUGH_BALANCE, MIXER_CONFIG_REQUIRED, EMPTY_POOL...):
 *   https://github.com/Toloka/toloka-kit/blob/main/src/client/error_codes.py
 * - requester() — GET /api/v1/requester (id, balance in USD, public_name):
 *   https://github.com/Toloka/docs/blob/main/en/api/concepts/balance.md
 * - createProject() — POST /api/v1/projects (public_name, public_description, public_instructions, task_spec,
 *   assignments_issuing_type): https://github.com/Toloka/docs/blob/main/en/api/concepts/create-prj.md
 *   Template Builder view spec (`type: 'tb'`, `config` sent as a JSON string, `lock` of component versions):
 *   https://github.com/Toloka/toloka-kit/blob/main/src/client/project/view_spec.py
 * - createPool() — POST /api/v1/pools (required fields, auto_accept_*, defaults, mixer_config, filter; read-only
 *   status / last_close_reason): https://github.com/Toloka/docs/blob/main/en/api/concepts/create-pool.md
 *   Filters: https://github.com/Toloka/docs/blob/main/en/api/concepts/filters.md ,
 *   https://github.com/Toloka/docs/blob/main/en/api/concepts/filter-profile.md ,
 *   https://github.com/Toloka/docs/blob/main/en/api/concepts/filter-computed.md
 * - createTask() — POST /api/v1/tasks (pool_id, input_values, overlap):
 *   https://github.com/Toloka/docs/blob/main/en/api/concepts/create-task.md
 * - getPool() — GET /api/v1/pools/{id}: https://github.com/Toloka/docs/blob/main/en/api/concepts/get-pool.md
 * - openPool() / closePool() — POST /api/v1/pools/{id}/open|close answer an Operation, or 204 when the pool is
 *   already in that state: https://github.com/Toloka/docs/blob/main/en/api/concepts/open-pool.md ,
 *   https://github.com/Toloka/docs/blob/main/en/api/concepts/close-pool.md ,
 *   https://yandex.ru/dev/tasks-api/doc/ru/reference/pools/post-pools-id-open
 * - getOperation() / waitOperation() — GET /api/v1/operations/{id}, status PENDING/RUNNING/SUCCESS/FAIL:
 *   https://github.com/Toloka/docs/blob/main/en/api/concepts/get-operation.md
 * - listAssignments() — GET /api/v1/assignments (pool_id, status list, sort=id, limit ≤ 300, id_gt cursor,
 *   `{ items, has_more }`): https://github.com/Toloka/docs/blob/main/en/api/concepts/result.md ,
 *   https://github.com/Toloka/docs/blob/main/en/api/concepts/standard-query-parameters.md ,
 *   assignment fields: https://github.com/Toloka/docs/blob/main/en/api/concepts/get-assignment-id.md
 * - acceptAssignment() / rejectAssignment() — PATCH /api/v1/assignments/{id} `{ status, public_comment }`
 *   (SUBMITTED→ACCEPTED, SUBMITTED→REJECTED, REJECTED→ACCEPTED; comment ≤ 2048 characters):
 *   https://github.com/Toloka/docs/blob/main/en/api/concepts/accept.md
 *
 * The token only ever goes into the Authorization header: it is never logged, and it is scrubbed from every
 * TolokaError (message and payload) in case a proxy echoes it back.
 */
import type { z } from 'zod';
import { TolokaError } from './errors.ts';
import { EXTERNAL_LINK_FIELDS, externalLinkProject } from './project.ts';
import {
  AssignmentPageSchema,
  AssignmentPatchResultSchema,
  ErrorBodySchema,
  OperationSchema,
  PoolSchema,
  ProjectSchema,
  RequesterSchema,
  TaskSchema,
  type TolokaAssignment,
  type TolokaAssignmentPage,
  type TolokaAssignmentPatchResult,
  type TolokaAssignmentStatus,
  type TolokaOperation,
  type TolokaPool,
  type TolokaPoolInput,
  type TolokaProject,
  type TolokaProjectInput,
  type TolokaRequester,
  type TolokaTask,
  type TolokaTaskInput,
} from './schemas.ts';

export * from './errors.ts';
export * from './project.ts';
export * from './schemas.ts';

/** Production API host (requests go to `${baseUrl}/api/v1/...`). */
export const TOLOKA_PRODUCTION_URL = 'https://toloka.dev';
/** Sandbox API host: same API, play money. */
export const TOLOKA_SANDBOX_URL = 'https://sandbox.toloka.dev';

const API_PREFIX = '/api/v1';
const MAX_RETRIES = 2;
const MAX_PAGE_LIMIT = 300;
const MAX_PUBLIC_COMMENT = 2048;

// ---------------------------------------------------------------------------------------------------------------
// Client

export type TolokaClientOptions = {
  /** `TOLOKA_PRODUCTION_URL`, `TOLOKA_SANDBOX_URL`, or a test server; without the `/api/v1` part. */
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  /** Per attempt, including reading the body. Default 15 s. */
  timeoutMs?: number;
  /** First backoff between retries (doubled on the second). Default 500 ms. */
  retryBaseDelayMs?: number;
  /** Longest wait before a retry; a Retry-After above it ends the retries. Default 10 s. */
  maxRetryDelayMs?: number;
};

export type WaitOperationOptions = { intervalMs?: number; timeoutMs?: number };

export type ListAssignmentsParams = {
  pool_id: string;
  status?: TolokaAssignmentStatus | TolokaAssignmentStatus[];
  /** Page size, 1..300 (Toloka's default is 50). */
  limit?: number;
  /** Cursor: assignments with a greater id. */
  id_gt?: string;
};

type Method = 'GET' | 'POST' | 'PATCH';

type CallOptions = {
  body?: unknown;
  query?: Record<string, string | undefined>;
  /**
   * Whether repeating the request cannot do anything twice. Creations are not: after a 500/502/504 the object
   * may exist already, so they are retried on 429 and 503 only (the two answers that say nothing was done).
   */
  idempotent: boolean;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Retry-After as milliseconds (delta-seconds or an HTTP date), or null. */
function parseRetryAfter(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

/** The Toloka client type. */
export type TolokaClient = ReturnType<typeof createTolokaClient>;

/**
 * Creates a Toloka client. Every failed call rejects with {@link TolokaError} (a bad argument, with RangeError);
 * 429 and 5xx answers are retried at most twice (creations only on 429/503, see {@link CallOptions.idempotent}),
 * honouring Retry-After; other 4xx answers are never retried.
 */
export function createTolokaClient(options: TolokaClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const token = options.token;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const retryBaseDelayMs = options.retryBaseDelayMs ?? 500;
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 10_000;

  const scrub = (text: string): string => (token.length > 0 ? text.split(token).join('[token]') : text);
  const scrubDeep = (value: unknown): unknown => {
    if (typeof value === 'string') return scrub(value);
    if (Array.isArray(value)) return value.map(scrubDeep);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [scrub(k), scrubDeep(v)]));
    }
    return value;
  };
  const fail = (init: ConstructorParameters<typeof TolokaError>[0]): TolokaError =>
    new TolokaError({ ...init, message: scrub(init.message), payload: scrubDeep(init.payload) });

  const shouldRetry = (status: number, idempotent: boolean): boolean =>
    status === 429 || status === 503 || (idempotent && status >= 500 && status <= 599);

  /** One HTTP exchange: status, headers, raw body text. Network failures and timeouts become NETWORK. */
  async function exchange(method: Method, url: string, body: unknown) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    const where = `${method} ${new URL(url).pathname}`;
    try {
      const headers: Record<string, string> = { Authorization: `OAuth ${token}`, Accept: 'application/json' };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await doFetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: controller.signal,
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text };
    } catch (error) {
      const timedOut = controller.signal.aborted;
      throw fail({
        status: 0,
        code: 'NETWORK',
        message: timedOut
          ? `Toloka ${where} timed out after ${timeoutMs} ms`
          : `Toloka ${where} failed: ${error instanceof Error ? error.message : String(error)}`,
        cause: timedOut ? undefined : error,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  function errorFromAnswer(status: number, text: string, headers: Headers, where: string): TolokaError {
    const retryAfterMs = parseRetryAfter(headers.get('retry-after'));
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const parsed = ErrorBodySchema.safeParse(json);
    if (parsed.success) {
      return fail({
        status,
        code: parsed.data.code,
        message: `Toloka ${where}: ${parsed.data.code}${parsed.data.message ? ` — ${parsed.data.message}` : ''}`,
        requestId: parsed.data.request_id ?? null,
        payload: parsed.data.payload,
        retryAfterMs,
      });
    }
    return fail({
      status,
      code: `HTTP_${status}`,
      message: `Toloka ${where}: HTTP ${status} without a Toloka error body`,
      retryAfterMs,
    });
  }

  async function call<T>(
    method: Method,
    path: string,
    schema: z.ZodType<T>,
    callOptions: CallOptions,
  ): Promise<{ status: number; data: T | null }> {
    const url = new URL(`${baseUrl}${API_PREFIX}${path}`);
    for (const [key, value] of Object.entries(callOptions.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, value);
    }
    const where = `${method} ${API_PREFIX}${path}`;
    for (let attempt = 0; ; attempt++) {
      const answer = await exchange(method, url.toString(), callOptions.body);
      if (answer.status >= 200 && answer.status < 300) {
        if (answer.status === 204 || answer.text.trim() === '') return { status: answer.status, data: null };
        let json: unknown;
        try {
          json = JSON.parse(answer.text);
        } catch {
          throw fail({ status: answer.status, code: 'BAD_RESPONSE', message: `Toloka ${where}: answer is not JSON` });
        }
        const parsed = schema.safeParse(json);
        if (!parsed.success) {
          throw fail({
            status: answer.status,
            code: 'BAD_RESPONSE',
            message: `Toloka ${where}: unexpected answer (${describeZodError(parsed.error)})`,
          });
        }
        return { status: answer.status, data: parsed.data };
      }
      const error = errorFromAnswer(answer.status, answer.text, answer.headers, where);
      if (attempt >= MAX_RETRIES || !shouldRetry(answer.status, callOptions.idempotent)) throw error;
      const delay = error.retryAfterMs ?? retryBaseDelayMs * 2 ** attempt;
      if (delay > maxRetryDelayMs) throw error;
      await sleep(delay);
    }
  }

  async function callData<T>(method: Method, path: string, schema: z.ZodType<T>, callOptions: CallOptions) {
    const { status, data } = await call(method, path, schema, callOptions);
    if (data === null) {
      throw fail({ status, code: 'BAD_RESPONSE', message: `Toloka ${method} ${API_PREFIX}${path}: empty answer` });
    }
    return data;
  }

  const enc = encodeURIComponent;

  async function getOperation(id: string): Promise<TolokaOperation> {
    return callData('GET', `/operations/${enc(id)}`, OperationSchema, { idempotent: true });
  }

  async function waitOperation(id: string, wait: WaitOperationOptions = {}): Promise<TolokaOperation> {
    const intervalMs = wait.intervalMs ?? 1000;
    const deadline = Date.now() + (wait.timeoutMs ?? 120_000);
    for (;;) {
      const operation = await getOperation(id);
      if (operation.status === 'SUCCESS' || operation.status === 'FAIL') return operation;
      if (Date.now() + intervalMs > deadline) {
        throw fail({
          status: 0,
          code: 'OPERATION_TIMEOUT',
          message: `Toloka operation ${id} (${operation.type}) still ${operation.status} when the wait ran out`,
          payload: { operation },
        });
      }
      await sleep(intervalMs);
    }
  }

  async function poolAction(id: string, action: 'open' | 'close'): Promise<TolokaOperation | null> {
    const { data } = await call('POST', `/pools/${enc(id)}/${action}`, OperationSchema, { idempotent: true });
    return data;
  }

  function getPool(id: string): Promise<TolokaPool> {
    return callData('GET', `/pools/${enc(id)}`, PoolSchema, { idempotent: true });
  }

  async function openPoolAndWait(id: string, wait: WaitOperationOptions = {}): Promise<TolokaPool> {
    const started = await poolAction(id, 'open');
    const operation = started ? await waitOperation(started.id, wait) : null;
    const pool = await getPool(id);
    if (pool.status === 'OPEN' && operation?.status !== 'FAIL') return pool;
    // A reason left over from an earlier manual close says nothing about this failure.
    const reason = pool.status !== 'OPEN' && pool.last_close_reason !== 'MANUAL' ? pool.last_close_reason : undefined;
    throw fail({
      status: 0,
      code: reason ?? 'OPERATION_FAILED',
      message: `Toloka pool ${id} did not open (pool ${pool.status}, last_close_reason ${pool.last_close_reason ?? 'none'}, operation ${operation?.status ?? 'none'})`,
      payload: { operation, pool },
    });
  }

  async function closePoolAndWait(id: string, wait: WaitOperationOptions = {}): Promise<TolokaPool> {
    const started = await poolAction(id, 'close');
    if (started) {
      const operation = await waitOperation(started.id, wait);
      if (operation.status === 'FAIL') {
        throw fail({
          status: 0,
          code: 'OPERATION_FAILED',
          message: `Toloka could not close pool ${id}`,
          payload: { operation },
        });
      }
    }
    return getPool(id);
  }

  async function listAssignmentsPage(params: ListAssignmentsParams): Promise<TolokaAssignmentPage> {
    const limit = params.limit ?? 100;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
      throw new RangeError(`limit must be an integer in 1..${MAX_PAGE_LIMIT}`);
    }
    const status = Array.isArray(params.status) ? params.status.join(',') : params.status;
    return callData('GET', '/assignments', AssignmentPageSchema, {
      idempotent: true,
      query: { pool_id: params.pool_id, status, sort: 'id', limit: String(limit), id_gt: params.id_gt },
    });
  }

  async function listAssignments(params: Omit<ListAssignmentsParams, 'id_gt'>): Promise<TolokaAssignment[]> {
    const all: TolokaAssignment[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await listAssignmentsPage({ ...params, id_gt: cursor });
      all.push(...page.items);
      const last = page.items.at(-1);
      if (!page.has_more || !last) return all;
      if (cursor !== undefined && last.id <= cursor) {
        throw fail({ status: 200, code: 'BAD_RESPONSE', message: 'Toloka assignments paging did not advance' });
      }
      cursor = last.id;
    }
  }

  async function patchAssignment(
    id: string,
    status: 'ACCEPTED' | 'REJECTED',
    publicComment: string,
  ): Promise<TolokaAssignmentPatchResult> {
    if (publicComment.length > MAX_PUBLIC_COMMENT) {
      throw new RangeError(`public_comment is limited to ${MAX_PUBLIC_COMMENT} characters`);
    }
    return callData('PATCH', `/assignments/${enc(id)}`, AssignmentPatchResultSchema, {
      body: { status, public_comment: publicComment },
      idempotent: true,
    });
  }

  return {
    /** GET /requester: the account behind the token (id, balance in USD). Also the token check when linking. */
    requester(): Promise<TolokaRequester> {
      return callData('GET', '/requester', RequesterSchema, { idempotent: true });
    },

    /** POST /projects. See {@link externalLinkProject} for the Emolens body. */
    createProject(body: TolokaProjectInput): Promise<TolokaProject> {
      return callData('POST', '/projects', ProjectSchema, { body, idempotent: false });
    },

    /** POST /pools: creates a closed pool in a project. */
    createPool(body: TolokaPoolInput): Promise<TolokaPool> {
      return callData('POST', '/pools', PoolSchema, { body, idempotent: false });
    },

    /** POST /tasks: adds one task (synchronous mode); a pool needs at least one to open. */
    createTask(body: TolokaTaskInput): Promise<TolokaTask> {
      return callData('POST', '/tasks', TaskSchema, { body, idempotent: false });
    },

    /** GET /pools/{id}: status (OPEN/CLOSED/ARCHIVED/LOCKED) and last_close_reason. */
    getPool,

    /** POST /pools/{id}/open: the asynchronous POOL.OPEN operation, or null when the pool is already open (204). */
    openPool(id: string): Promise<TolokaOperation | null> {
      return poolAction(id, 'open');
    },

    /** POST /pools/{id}/close: the asynchronous POOL.CLOSE operation, or null when already closed (204). */
    closePool(id: string): Promise<TolokaOperation | null> {
      return poolAction(id, 'close');
    },

    /** GET /operations/{id}. */
    getOperation,

    /** Polls GET /operations/{id} until SUCCESS or FAIL (returned, not thrown); OPERATION_TIMEOUT past the wait. */
    waitOperation,

    /**
     * Opens a pool and waits for the result. Returns the pool when it is OPEN; otherwise throws a TolokaError
     * whose code is the pool's last_close_reason (e.g. NOT_ENOUGH_BALANCE) or OPERATION_FAILED, with
     * `{ operation, pool }` as payload. A 409 refusal of the open call itself surfaces as that 409 error.
     */
    openPoolAndWait,

    /** Closes a pool and waits for the POOL.CLOSE operation; returns the pool afterwards. */
    closePoolAndWait,

    /** One page of GET /assignments sorted by id (`has_more` tells whether to ask again with `id_gt`). */
    listAssignmentsPage,

    /** Every assignment of a pool (optionally of some statuses), walking the pages with the id_gt cursor. */
    listAssignments,

    /** PATCH /assignments/{id} to ACCEPTED (from SUBMITTED, or REJECTED to overturn a rejection). */
    acceptAssignment(id: string, publicComment: string): Promise<TolokaAssignmentPatchResult> {
      return patchAssignment(id, 'ACCEPTED', publicComment);
    },

    /** PATCH /assignments/{id} to REJECTED (from SUBMITTED); the comment tells the worker why. */
    rejectAssignment(id: string, publicComment: string): Promise<TolokaAssignmentPatchResult> {
      return patchAssignment(id, 'REJECTED', publicComment);
    },
  };
}

/** The completion code a worker typed, from the assignment's first solution (null when absent). */
export function completionCodeOf(
  assignment: TolokaAssignment,
  field: string = EXTERNAL_LINK_FIELDS.code,
): string | null {
  const value = assignment.solutions?.[0]?.output_values[field];
  return typeof value === 'string' ? value : null;
}
