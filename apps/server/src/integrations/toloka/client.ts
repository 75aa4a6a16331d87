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
import { z } from 'zod';

/** Production API host (requests go to `${baseUrl}/api/v1/...`). */
export const TOLOKA_PRODUCTION_URL = 'https://toloka.dev';
/** Sandbox API host: same API, play money. */
export const TOLOKA_SANDBOX_URL = 'https://sandbox.toloka.dev';

const API_PREFIX = '/api/v1';
const MAX_RETRIES = 2;
const MAX_PAGE_LIMIT = 300;
const MAX_PUBLIC_COMMENT = 2048;

// ---------------------------------------------------------------------------------------------------------------
// Errors

/** Codes the client itself produces (Toloka's own codes come through unchanged). */
export type TolokaClientErrorCode = 'NETWORK' | 'BAD_RESPONSE' | 'OPERATION_TIMEOUT' | 'OPERATION_FAILED';

/**
 * Any failure of a Toloka call. `status` is the HTTP status (0 when no answer came: network failure, timeout,
 * or a client-side wait that ran out); `code` is Toloka's error code, `HTTP_<status>` when the answer carried
 * no Toloka error body, or one of {@link TolokaClientErrorCode}.
 */
export class TolokaError extends Error {
  override readonly name = 'TolokaError';
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  readonly payload: unknown;
  /** Delay the server asked for (Retry-After), when it did. */
  readonly retryAfterMs: number | null;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    requestId?: string | null;
    payload?: unknown;
    retryAfterMs?: number | null;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
    this.payload = init.payload;
    this.retryAfterMs = init.retryAfterMs ?? null;
  }

  /** Plain fields, for structured logs. */
  toJSON() {
    return {
      name: this.name,
      status: this.status,
      code: this.code,
      message: this.message,
      requestId: this.requestId,
      payload: this.payload,
      retryAfterMs: this.retryAfterMs,
    };
  }
}

/** True when the error says the token is not (or no longer) valid. */
export function isTolokaAuthError(error: unknown): boolean {
  return error instanceof TolokaError && (error.status === 401 || error.code === 'AUTHENTICATION_ERROR');
}

// ---------------------------------------------------------------------------------------------------------------
// Response schemas (unknown fields are kept; enum-like fields accept values Toloka may add later)

/** A string field whose documented values are `T`, typed for completion but accepting anything Toloka adds. */
function openEnum<const T extends readonly string[]>(_values: T) {
  return z.string().transform((value) => value as T[number] | (string & {}));
}

const POOL_STATUSES = ['OPEN', 'CLOSED', 'ARCHIVED', 'LOCKED'] as const;
const CLOSE_REASONS = [
  'MANUAL',
  'EXPIRED',
  'COMPLETED',
  'NOT_ENOUGH_BALANCE',
  'ASSIGNMENTS_LIMIT_EXCEEDED',
  'BLOCKED',
  'FOR_UPDATE',
] as const;
const ASSIGNMENT_STATUSES = ['ACTIVE', 'SUBMITTED', 'ACCEPTED', 'REJECTED', 'SKIPPED', 'EXPIRED'] as const;
const OPERATION_STATUSES = ['PENDING', 'RUNNING', 'SUCCESS', 'FAIL'] as const;

export type TolokaPoolStatus = (typeof POOL_STATUSES)[number];
export type TolokaCloseReason = (typeof CLOSE_REASONS)[number];
export type TolokaAssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];
export type TolokaOperationStatus = (typeof OPERATION_STATUSES)[number];

const ErrorBodySchema = z.looseObject({
  code: z.string(),
  message: z.string().optional(),
  request_id: z.string().optional(),
  payload: z.unknown().optional(),
});

const RequesterSchema = z.looseObject({
  id: z.string(),
  balance: z.number(),
  public_name: z.record(z.string(), z.string()).optional(),
});
export type TolokaRequester = z.output<typeof RequesterSchema>;

const ProjectSchema = z.looseObject({
  id: z.string(),
  public_name: z.string(),
  status: openEnum(['ACTIVE', 'ARCHIVED'] as const).optional(),
  created: z.string().optional(),
});
export type TolokaProject = z.output<typeof ProjectSchema>;

const PoolSchema = z.looseObject({
  id: z.string(),
  project_id: z.string(),
  private_name: z.string().optional(),
  status: openEnum(POOL_STATUSES),
  last_close_reason: openEnum(CLOSE_REASONS).optional(),
  reward_per_assignment: z.number().optional(),
  created: z.string().optional(),
  last_started: z.string().optional(),
  last_stopped: z.string().optional(),
});
export type TolokaPool = z.output<typeof PoolSchema>;

const TaskSchema = z.looseObject({
  id: z.string(),
  pool_id: z.string(),
  input_values: z.record(z.string(), z.unknown()),
  overlap: z.number().optional(),
  created: z.string().optional(),
});
export type TolokaTask = z.output<typeof TaskSchema>;

const OperationSchema = z.looseObject({
  id: z.string(),
  type: z.string(),
  status: z.enum(OPERATION_STATUSES),
  submitted: z.string(),
  started: z.string().optional(),
  finished: z.string().optional(),
  progress: z.number().optional(),
  parameters: z.record(z.string(), z.unknown()).optional(),
  details: z.unknown().optional(),
});
export type TolokaOperation = z.output<typeof OperationSchema>;

const SolutionSchema = z.looseObject({ output_values: z.record(z.string(), z.unknown()) });

const AssignmentSchema = z.looseObject({
  id: z.string(),
  pool_id: z.string().optional(),
  task_suite_id: z.string().optional(),
  user_id: z.string(),
  status: openEnum(ASSIGNMENT_STATUSES),
  reward: z.number().optional(),
  tasks: z
    .array(z.looseObject({ id: z.string().optional(), input_values: z.record(z.string(), z.unknown()) }))
    .optional(),
  solutions: z.array(SolutionSchema).optional(),
  public_comment: z.string().optional(),
  created: z.string().optional(),
  submitted: z.string().optional(),
  accepted: z.string().optional(),
  rejected: z.string().optional(),
});
export type TolokaAssignment = z.output<typeof AssignmentSchema>;

const AssignmentPageSchema = z.looseObject({ items: z.array(AssignmentSchema), has_more: z.boolean() });
export type TolokaAssignmentPage = z.output<typeof AssignmentPageSchema>;

/** The PATCH answer documents only the changed fields. */
const AssignmentPatchResultSchema = z.looseObject({
  status: openEnum(ASSIGNMENT_STATUSES),
  public_comment: z.string().optional(),
});
export type TolokaAssignmentPatchResult = z.output<typeof AssignmentPatchResultSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Request bodies

/** One field of task_spec.input_spec / output_spec. */
export type TolokaFieldSpec = {
  type: 'url' | 'boolean' | 'integer' | 'string' | 'float' | 'json' | 'file' | 'coordinates';
  required?: boolean;
  hidden?: boolean;
  min_length?: number;
  max_length?: number;
  min_value?: number;
  max_value?: number;
  allowed_values?: Array<string | number>;
};

export type TolokaProjectInput = {
  public_name: string;
  public_description: string;
  public_instructions?: string;
  private_comment?: string;
  task_spec: {
    input_spec: Record<string, TolokaFieldSpec>;
    output_spec: Record<string, TolokaFieldSpec>;
    view_spec?: Record<string, unknown>;
  };
  assignments_issuing_type?: 'AUTOMATED' | 'MAP_SELECTOR';
  [extra: string]: unknown;
};

/** A leaf condition of a pool filter (`category`/`key`/`operator`/`value`). */
export type TolokaFilterCondition = {
  category: 'profile' | 'computed' | 'skill';
  key: string;
  operator: 'EQ' | 'NE' | 'GT' | 'LT' | 'GTE' | 'LTE' | 'IN' | 'NOT_IN';
  value: string | number | boolean | null;
};
export type TolokaFilter = { and: TolokaFilter[] } | { or: TolokaFilter[] } | TolokaFilterCondition;

export type TolokaPoolInput = {
  project_id: string;
  private_name: string;
  may_contain_adult_content: boolean;
  /** USD per task suite. */
  reward_per_assignment: number;
  assignment_max_duration_seconds: number;
  /** UTC, `YYYY-MM-DDThh:mm:ss[.sss]` (an ISO string with `Z` is accepted too). */
  will_expire: string;
  defaults: { default_overlap_for_new_task_suites: number; default_overlap_for_new_tasks?: number };
  public_description?: string;
  private_comment?: string;
  auto_accept_solutions?: boolean;
  /** 1..21 days to review before Toloka decides automatically. */
  auto_accept_period_day?: number;
  /** Needed to upload single tasks (rather than task suites): one real task per suite. */
  mixer_config?: {
    real_tasks_count: number;
    golden_tasks_count: number;
    training_tasks_count: number;
    [extra: string]: unknown;
  };
  filter?: TolokaFilter;
  [extra: string]: unknown;
};

export type TolokaTaskInput = {
  pool_id: string;
  input_values: Record<string, unknown>;
  overlap: number;
  [extra: string]: unknown;
};

// ---------------------------------------------------------------------------------------------------------------
// Builders for the Emolens shapes

/** Field names of the external-link project. */
export const EXTERNAL_LINK_FIELDS = { link: 'quota_url', code: 'completion_code' } as const;

/**
 * The project body for an external-link task: the worker opens our quota link (input `quota_url`) in a new
 * tab, takes the study, and types back the completion code shown at its end (output `completion_code`).
 */
export function externalLinkProject(options: {
  publicName: string;
  publicDescription: string;
  publicInstructions: string;
  linkLabel?: string;
  codeLabel?: string;
  codeMaxLength?: number;
}): TolokaProjectInput {
  const { link, code } = EXTERNAL_LINK_FIELDS;
  const config = {
    view: {
      type: 'view.list',
      items: [
        {
          type: 'view.link',
          url: { type: 'data.input', path: link },
          content: options.linkLabel ?? 'Open the study in a new tab',
        },
        {
          type: 'field.text',
          label: options.codeLabel ?? 'Completion code shown at the end of the study',
          data: { type: 'data.output', path: code },
          validation: { type: 'condition.required' },
        },
      ],
    },
    plugins: [{ type: 'plugin.toloka', layout: { kind: 'scroll', taskWidth: 600 } }],
  };
  return {
    public_name: options.publicName,
    public_description: options.publicDescription,
    public_instructions: options.publicInstructions,
    task_spec: {
      input_spec: { [link]: { type: 'url', required: true, hidden: false } },
      output_spec: {
        [code]: { type: 'string', required: true, min_length: 1, max_length: options.codeMaxLength ?? 64 },
      },
      view_spec: {
        type: 'tb',
        config: JSON.stringify(config),
        lock: {
          core: '1.0.0',
          'view.list': '1.0.0',
          'view.link': '1.0.0',
          'field.text': '1.0.0',
          'condition.required': '1.0.0',
          'plugin.toloka': '1.0.0',
        },
        settings: { showSkip: true, showTimer: true, showTitle: true, showSubmit: true, showFinish: true },
      },
    },
    assignments_issuing_type: 'AUTOMATED',
  };
}

/** Unix seconds of the same calendar moment `years` years before `now`. */
function yearsBefore(now: Date, years: number): number {
  const d = new Date(now.getTime());
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return Math.floor(d.getTime() / 1000);
}

/**
 * A pool filter in Toloka's `{ and: [ { or: [...] }, ... ] }` form from the audience we target.
 * - gender: profile `gender` EQ MALE/FEMALE;
 * - age: profile `date_of_birth` (Unix seconds): at least `ageMin` ⇒ born on or before now − ageMin years (LTE);
 *   at most `ageMax` ⇒ born after now − (ageMax + 1) years (GT);
 * - countries: profile `country` EQ (ISO 3166-1 alpha-2), OR-ed;
 * - regionIds: computed `region_by_ip` IN (Yandex region ids), OR-ed.
 * Returns undefined when nothing is restricted.
 */
export function buildPoolFilter(
  options: {
    gender?: 'MALE' | 'FEMALE';
    ageMin?: number;
    ageMax?: number;
    countries?: string[];
    regionIds?: number[];
  },
  now: Date = new Date(),
): TolokaFilter | undefined {
  const groups: TolokaFilter[] = [];
  if (options.gender) {
    groups.push({ or: [{ category: 'profile', key: 'gender', operator: 'EQ', value: options.gender }] });
  }
  if (options.ageMin !== undefined) {
    const value = yearsBefore(now, options.ageMin);
    groups.push({ or: [{ category: 'profile', key: 'date_of_birth', operator: 'LTE', value }] });
  }
  if (options.ageMax !== undefined) {
    const value = yearsBefore(now, options.ageMax + 1);
    groups.push({ or: [{ category: 'profile', key: 'date_of_birth', operator: 'GT', value }] });
  }
  if (options.countries && options.countries.length > 0) {
    groups.push({
      or: options.countries.map(
        (country): TolokaFilterCondition => ({
          category: 'profile',
          key: 'country',
          operator: 'EQ',
          value: country.toUpperCase(),
        }),
      ),
    });
  }
  if (options.regionIds && options.regionIds.length > 0) {
    groups.push({
      or: options.regionIds.map(
        (id): TolokaFilterCondition => ({ category: 'computed', key: 'region_by_ip', operator: 'IN', value: id }),
      ),
    });
  }
  return groups.length > 0 ? { and: groups } : undefined;
}

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
