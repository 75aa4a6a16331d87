/**
 * A small in-memory Toloka API for tests: it answers the calls of ./client.ts over real HTTP the way the public
 * documentation describes them (sources listed at the top of client.ts), and lets a test script the world.
 *
 * What it models:
 * - `Authorization: OAuth <token>` checked against `state.tokens` (401 AUTHENTICATION_ERROR otherwise);
 * - projects, pools, tasks, assignments and operations kept in memory, required fields validated
 *   (400 VALIDATION_ERROR with `payload: { "<field path>": { code, message } }`, the per-field form Toloka uses
 *   for task validation errors);
 * - open/close as asynchronous operations: PENDING, then RUNNING after `operationDelayMs`, then finished after
 *   twice that; the state moves when a request arrives, so with `operationDelayMs = 0` the operation finishes
 *   on the next request; 204 when the pool already is in the requested state;
 * - the balance check on open. ASSUMPTION (Toloka documents that a pool needs enough money "to pay for the pool
 *   tasks, including the overlap", and that the fee is "a percentage of the cost of tasks", without the figure
 *   or the exact failure shape): cost = reward_per_assignment × (Σ task overlap − assignments already taken) ×
 *   (1 + feeRate), feeRate 0.3 by default. When the cost exceeds the balance the pool ends CLOSED with
 *   last_close_reason NOT_ENOUGH_BALANCE; `balanceFailure` picks how: 'operation-fail' (POOL.OPEN ends FAIL,
 *   the default), 'open-then-close' (POOL.OPEN ends SUCCESS, the pool closes at once), or 'conflict' (the open
 *   call answers 409 NOT_ENOUGH_BALANCE, as open-pool.md allows for "cannot be opened");
 * - accept/reject: SUBMITTED→ACCEPTED, SUBMITTED→REJECTED, REJECTED→ACCEPTED; anything else answers
 *   409 INAPPROPRIATE_STATUS with `payload.appropriate_statuses` (the sample in errors.md). Accepting charges
 *   reward × (1 + feeRate) to the balance. A rejection needs a comment (as in Toloka's review screen).
 *
 * Scripting: `state.setBalance(n)`, `state.addAssignment(poolId, { user_id, code, status })`,
 * `state.closeForBalance(poolId)`, `state.failNext(path, status, body?, { times, headers, method })`,
 * `state.delayNext(path, ms)`, and `state.requests`, a log of every request without its headers (so no token).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const API = '/api/v1';
const MAX_BODY_BYTES = 1 << 20;
const MIN_REWARD = 0.005;
const MAX_PAGE_LIMIT = 300;
const DEFAULT_PAGE_LIMIT = 50;

type Json = Record<string, unknown>;
type FieldError = { code: string; message: string };

export type ContractPoolStatus = 'OPEN' | 'CLOSED' | 'ARCHIVED' | 'LOCKED';
export type ContractAssignmentStatus = 'ACTIVE' | 'SUBMITTED' | 'ACCEPTED' | 'REJECTED' | 'SKIPPED' | 'EXPIRED';
export type ContractOperationStatus = 'PENDING' | 'RUNNING' | 'SUCCESS' | 'FAIL';

export type ContractProject = Json & { id: string; output_spec_code_field: string | null };
export type ContractPool = Json & {
  id: string;
  project_id: string;
  status: ContractPoolStatus;
  last_close_reason?: string;
  reward_per_assignment: number;
  defaults: { default_overlap_for_new_task_suites: number; default_overlap_for_new_tasks?: number };
  mixer_config?: unknown;
};
export type ContractTask = Json & { id: string; pool_id: string; input_values: Json; overlap: number };
export type ContractAssignment = Json & {
  id: string;
  pool_id: string;
  user_id: string;
  status: ContractAssignmentStatus;
  reward: number;
  public_comment?: string;
};
export type ContractOperation = Json & {
  id: string;
  type: string;
  status: ContractOperationStatus;
  submitted: string;
  started?: string;
  finished?: string;
  progress: number;
  parameters: { pool_id: string };
};

/** One logged request: never its headers, so never the token. */
export type ContractRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  auth: 'ok' | 'missing' | 'invalid';
  status: number;
};

type Injection = {
  method: string | undefined;
  status: number;
  body: unknown;
  headers: Record<string, string>;
  delayMs: number;
};

const VALIDATION = { code: 'VALIDATION_ERROR', message: 'Validation failed' } as const;
const DEFAULT_ERROR_CODES: Record<number, string> = {
  400: 'VALIDATION_ERROR',
  401: 'AUTHENTICATION_ERROR',
  403: 'ACCESS_DENIED',
  404: 'DOES_NOT_EXIST',
  409: 'CONFLICT_STATE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_ERROR',
  503: 'REMOTE_SERVICE_UNAVAILABLE',
};

/** Toloka's timestamp form: UTC, `YYYY-MM-DDThh:mm:ss.sss`, no zone suffix. */
const stamp = (ms: number = Date.now()) => new Date(ms).toISOString().replace(/Z$/, '');

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Normalises '/requester' and '/api/v1/requester' to the same key. */
const apiPath = (path: string) => (path.startsWith('/api/') ? path : `${API}${path.startsWith('/') ? '' : '/'}${path}`);

class HttpAnswer {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

function errorAnswer(status: number, code: string, message: string, payload?: unknown): HttpAnswer {
  const body: Json = { request_id: randomUUID(), code, message };
  if (payload !== undefined) body.payload = payload;
  return new HttpAnswer(status, body);
}

/** Collects per-field validation errors the way Toloka reports them. */
class Check {
  readonly errors: Record<string, FieldError> = {};

  add(path: string, code: string, message: string) {
    if (!this.errors[path]) this.errors[path] = { code, message };
  }

  required(obj: Json, key: string, prefix = ''): unknown {
    const value = obj[key];
    if (value === undefined || value === null)
      this.add(prefix + key, 'VALUE_REQUIRED', 'Value must be present and not equal to null');
    return value;
  }

  string(obj: Json, key: string, opts: { required?: boolean; max?: number; notBlank?: boolean } = {}, prefix = '') {
    const value = opts.required ? this.required(obj, key, prefix) : obj[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') return this.add(prefix + key, 'STRING_EXPECTED', 'String value expected');
    if (opts.notBlank && value.trim() === '')
      return this.add(prefix + key, 'BLANK_STRING_NOT_ALLOWED', 'Blank string not allowed');
    if (opts.max !== undefined && value.length > opts.max) {
      return this.add(prefix + key, 'STRING_LENGTH_GREATER_THAN_MAX', `String length must not exceed ${opts.max}`);
    }
    return value;
  }

  boolean(obj: Json, key: string, required: boolean, prefix = '') {
    const value = required ? this.required(obj, key, prefix) : obj[key];
    if (value !== undefined && value !== null && typeof value !== 'boolean') {
      this.add(prefix + key, 'BOOLEAN_EXPECTED', 'Boolean value expected');
    }
  }

  number(
    obj: Json,
    key: string,
    opts: { required?: boolean; integer?: boolean; min?: number; max?: number },
    prefix = '',
  ) {
    const value = opts.required ? this.required(obj, key, prefix) : obj[key];
    if (value === undefined || value === null) return;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return this.add(prefix + key, opts.integer ? 'INTEGER_EXPECTED' : 'FLOAT_EXPECTED', 'Number expected');
    }
    if (opts.integer && !Number.isInteger(value)) return this.add(prefix + key, 'INTEGER_EXPECTED', 'Integer expected');
    if (opts.min !== undefined && value < opts.min) {
      return this.add(prefix + key, 'VALUE_LESS_THAN_MIN', `Value must be greater than or equal to ${opts.min}`);
    }
    if (opts.max !== undefined && value > opts.max) {
      return this.add(prefix + key, 'VALUE_GREATER_THAN_MAX', `Value must be less than or equal to ${opts.max}`);
    }
  }

  object(obj: Json, key: string, required: boolean, prefix = ''): Json | undefined {
    const value = required ? this.required(obj, key, prefix) : obj[key];
    if (value === undefined || value === null) return undefined;
    if (!isObject(value)) {
      this.add(prefix + key, 'OBJECT_EXPECTED', 'Object expected');
      return undefined;
    }
    return value;
  }

  enumOf(obj: Json, key: string, allowed: readonly string[], required: boolean, prefix = '') {
    const value = required ? this.required(obj, key, prefix) : obj[key];
    if (value === undefined || value === null) return;
    if (typeof value !== 'string' || !allowed.includes(value)) {
      this.add(prefix + key, 'UNKNOWN_ENUM_VALUE', `Value must be one of ${allowed.join(', ')}`);
    }
  }

  get failed() {
    return Object.keys(this.errors).length > 0;
  }

  answer(): HttpAnswer {
    return errorAnswer(400, VALIDATION.code, VALIDATION.message, this.errors);
  }
}

const FIELD_TYPES = ['url', 'boolean', 'integer', 'string', 'float', 'json', 'file', 'coordinates'] as const;
const FILTER_OPERATORS = ['EQ', 'NE', 'GT', 'LT', 'GTE', 'LTE', 'IN', 'NOT_IN'] as const;
const ASSIGNMENT_STATUSES: readonly ContractAssignmentStatus[] = [
  'ACTIVE',
  'SUBMITTED',
  'ACCEPTED',
  'REJECTED',
  'SKIPPED',
  'EXPIRED',
];
/** Statuses that hold a slot of a task's overlap. */
const TAKEN: readonly ContractAssignmentStatus[] = ['ACTIVE', 'SUBMITTED', 'ACCEPTED'];

function checkFilter(check: Check, node: unknown, path: string) {
  if (!isObject(node)) return check.add(path, 'OBJECT_EXPECTED', 'Object expected');
  const keys = Object.keys(node);
  if ('and' in node || 'or' in node) {
    const op = 'and' in node ? 'and' : 'or';
    const list = node[op];
    if (keys.length !== 1) return check.add(path, 'MAX_ONE_PROPERTY_ALLOWED', 'Only one of and/or allowed');
    if (!Array.isArray(list) || list.length === 0)
      return check.add(`${path}.${op}`, 'ARRAY_EXPECTED', 'Non-empty array expected');
    list.forEach((child, i) => {
      checkFilter(check, child, `${path}.${op}[${i}]`);
    });
    return;
  }
  check.enumOf(node, 'category', ['profile', 'computed', 'skill'], true, `${path}.`);
  check.string(node, 'key', { required: true, notBlank: true }, `${path}.`);
  check.enumOf(node, 'operator', FILTER_OPERATORS, true, `${path}.`);
  if (!('value' in node)) check.add(`${path}.value`, 'VALUE_REQUIRED', 'Value must be present');
}

function checkFieldSpecs(check: Check, specs: Json, path: string) {
  for (const [name, spec] of Object.entries(specs)) {
    if (!isObject(spec)) {
      check.add(`${path}.${name}`, 'OBJECT_EXPECTED', 'Object expected');
      continue;
    }
    check.enumOf(spec, 'type', FIELD_TYPES, true, `${path}.${name}.`);
  }
}

function checkInputValue(check: Check, type: unknown, value: unknown, path: string) {
  const bad = (code: string, message: string) => check.add(path, code, message);
  switch (type) {
    case 'url':
      if (typeof value !== 'string' || !URL.canParse(value)) bad('INVALID_URL_SYNTAX', 'Valid URL expected');
      break;
    case 'string':
      if (typeof value !== 'string') bad('STRING_EXPECTED', 'String value expected');
      break;
    case 'integer':
      if (!Number.isInteger(value)) bad('INTEGER_EXPECTED', 'Integer expected');
      break;
    case 'float':
      if (typeof value !== 'number') bad('FLOAT_EXPECTED', 'Number expected');
      break;
    case 'boolean':
      if (typeof value !== 'boolean') bad('BOOLEAN_EXPECTED', 'Boolean value expected');
      break;
    case 'json':
      if (!isObject(value)) bad('JSON_EXPECTED', 'JSON object expected');
      break;
    default:
      break;
  }
}

/** The scriptable world behind the contract server. */
export class TolokaContractState {
  /** Tokens the server accepts. */
  readonly tokens = new Set<string>();
  readonly requester = { id: 'requester-emolens-1', public_name: { EN: 'Emolens (contract)' } };
  /** Toloka's fee as a share of task cost (assumed, see the file comment). */
  feeRate = 0.3;
  /** How long each of PENDING and RUNNING lasts. */
  operationDelayMs = 10;
  /** How an open without enough money fails (see the file comment). */
  balanceFailure: 'operation-fail' | 'open-then-close' | 'conflict' = 'operation-fail';

  readonly projects = new Map<string, ContractProject>();
  readonly pools = new Map<string, ContractPool>();
  readonly tasks = new Map<string, ContractTask>();
  readonly assignments = new Map<string, ContractAssignment>();
  readonly operations = new Map<string, ContractOperation>();
  readonly requests: ContractRequest[] = [];

  private balanceUsd = 0;
  private seq = 0;
  private readonly pending = new Map<string, { createdAt: number; finish: () => ContractOperationStatus }>();
  private readonly injections = new Map<string, Injection[]>();

  constructor(init: { tokens?: string[]; balance?: number } = {}) {
    for (const token of init.tokens ?? []) this.tokens.add(token);
    this.balanceUsd = init.balance ?? 0;
  }

  /** Sets the requester's balance in USD. */
  setBalance(usd: number) {
    this.balanceUsd = usd;
  }

  get balance() {
    return this.balanceUsd;
  }

  /** The next request to `path` (optionally only for `method`) answers `status` with `body` (JSON, or raw text). */
  failNext(
    path: string,
    status: number,
    body?: unknown,
    options: { times?: number; headers?: Record<string, string>; method?: string } = {},
  ) {
    const code = DEFAULT_ERROR_CODES[status] ?? 'INTERNAL_ERROR';
    const answerBody = body ?? { request_id: randomUUID(), code, message: `Injected ${status}` };
    for (let i = 0; i < (options.times ?? 1); i++) {
      this.inject(path, {
        method: options.method,
        status,
        body: answerBody,
        headers: options.headers ?? {},
        delayMs: 0,
      });
    }
  }

  /** The next request to `path` waits `ms` before being handled normally. */
  delayNext(path: string, ms: number, options: { times?: number; method?: string } = {}) {
    for (let i = 0; i < (options.times ?? 1); i++) {
      this.inject(path, { method: options.method, status: 0, body: undefined, headers: {}, delayMs: ms });
    }
  }

  /** A worker's assignment in the pool, as if taken (and by default submitted) through the Toloka app. */
  addAssignment(
    poolId: string,
    input: { user_id: string; code?: string; status?: ContractAssignmentStatus; codeField?: string },
  ): ContractAssignment {
    const pool = this.pools.get(poolId);
    if (!pool) throw new Error(`no pool ${poolId}`);
    const project = this.projects.get(pool.project_id);
    const field = input.codeField ?? project?.output_spec_code_field ?? 'completion_code';
    const task = [...this.tasks.values()].find((t) => t.pool_id === poolId);
    const status = input.status ?? 'SUBMITTED';
    const now = stamp();
    const id = `${poolId.padStart(10, '0')}--${(++this.seq).toString(16).padStart(24, '0')}`;
    const assignment: ContractAssignment = {
      id,
      task_suite_id: `${poolId.padStart(10, '0')}--suite-${this.seq}`,
      pool_id: poolId,
      user_id: input.user_id,
      status,
      reward: pool.reward_per_assignment,
      tasks: task ? [{ id: task.id, input_values: task.input_values }] : [],
      solutions: status === 'ACTIVE' || input.code === undefined ? [] : [{ output_values: { [field]: input.code } }],
      mixed: true,
      automerged: false,
      created: now,
      owner: { id: this.requester.id, myself: true },
    };
    if (status !== 'ACTIVE') assignment.submitted = now;
    if (status === 'ACCEPTED') assignment.accepted = now;
    if (status === 'REJECTED') assignment.rejected = now;
    if (status === 'SKIPPED') assignment.skipped = now;
    if (status === 'EXPIRED') assignment.expired = now;
    this.assignments.set(id, assignment);
    return assignment;
  }

  /** Toloka closing an open pool because the account ran out of money. */
  closeForBalance(poolId: string) {
    const pool = this.pools.get(poolId);
    if (!pool) throw new Error(`no pool ${poolId}`);
    pool.status = 'CLOSED';
    pool.last_close_reason = 'NOT_ENOUGH_BALANCE';
    pool.last_stopped = stamp();
  }

  /** What opening the pool would reserve, fee included (the assumed formula in the file comment). */
  poolCost(poolId: string): number {
    const pool = this.pools.get(poolId);
    if (!pool) return 0;
    let slots = 0;
    for (const task of this.tasks.values()) if (task.pool_id === poolId) slots += task.overlap;
    for (const a of this.assignments.values()) if (a.pool_id === poolId && TAKEN.includes(a.status)) slots -= 1;
    return pool.reward_per_assignment * Math.max(0, slots) * (1 + this.feeRate);
  }

  // ----- internals used by the server -----

  /** @internal */
  takeInjection(path: string, method: string): Injection | undefined {
    const queue = this.injections.get(path);
    if (!queue) return undefined;
    const index = queue.findIndex((i) => i.method === undefined || i.method.toUpperCase() === method);
    if (index < 0) return undefined;
    const [injection] = queue.splice(index, 1);
    return injection;
  }

  /** @internal Moves the asynchronous operations along the clock. */
  tick(now = Date.now()) {
    for (const [id, job] of this.pending) {
      const op = this.operations.get(id);
      if (!op) continue;
      const elapsed = now - job.createdAt;
      if (elapsed >= 2 * this.operationDelayMs) {
        op.started ??= stamp(now);
        op.status = job.finish();
        op.finished = stamp(now);
        op.progress = 100;
        this.pending.delete(id);
      } else if (elapsed >= this.operationDelayMs && op.status === 'PENDING') {
        op.status = 'RUNNING';
        op.started = stamp(now);
      }
    }
  }

  /** @internal */
  nextId() {
    return String(++this.seq);
  }

  /** @internal */
  charge(usd: number) {
    this.balanceUsd = Math.round((this.balanceUsd - usd) * 1e6) / 1e6;
  }

  /** @internal */
  poolBusy(poolId: string) {
    for (const id of this.pending.keys()) if (this.operations.get(id)?.parameters.pool_id === poolId) return true;
    return false;
  }

  /** @internal */
  startOperation(type: string, poolId: string, finish: () => ContractOperationStatus): ContractOperation {
    const op: ContractOperation = {
      id: randomUUID(),
      type,
      status: 'PENDING',
      submitted: stamp(),
      progress: 0,
      parameters: { pool_id: poolId },
    };
    this.operations.set(op.id, op);
    this.pending.set(op.id, { createdAt: Date.now(), finish });
    return op;
  }

  private inject(path: string, injection: Injection) {
    const key = apiPath(path);
    const queue = this.injections.get(key) ?? [];
    queue.push(injection);
    this.injections.set(key, queue);
  }
}

type Route = (ctx: { state: TolokaContractState; body: unknown; query: URLSearchParams; id: string }) => HttpAnswer;

function notFound(what: string, id: string) {
  return errorAnswer(404, 'DOES_NOT_EXIST', `${what} ${id} does not exist`);
}

const routes: Array<{ method: string; pattern: RegExp; handle: Route }> = [
  {
    method: 'GET',
    pattern: /^\/requester$/,
    handle: ({ state }) => new HttpAnswer(200, { ...state.requester, balance: state.balance }),
  },
  {
    method: 'POST',
    pattern: /^\/projects$/,
    handle: ({ state, body }) => {
      if (!isObject(body))
        return errorAnswer(400, VALIDATION.code, VALIDATION.message, {
          '': { code: 'OBJECT_EXPECTED', message: 'Object expected' },
        });
      const check = new Check();
      check.string(body, 'public_name', { required: true, notBlank: true });
      check.string(body, 'public_description', { required: true });
      check.string(body, 'public_instructions', {});
      check.enumOf(body, 'assignments_issuing_type', ['AUTOMATED', 'MAP_SELECTOR'], false);
      const spec = check.object(body, 'task_spec', true);
      if (spec) {
        const input = check.object(spec, 'input_spec', true, 'task_spec.');
        const output = check.object(spec, 'output_spec', true, 'task_spec.');
        if (input) checkFieldSpecs(check, input, 'task_spec.input_spec');
        if (output) checkFieldSpecs(check, output, 'task_spec.output_spec');
        const view = check.object(spec, 'view_spec', false, 'task_spec.');
        if (view) {
          check.object(view, 'settings', true, 'task_spec.view_spec.');
          if (view.type === 'tb') {
            const config = check.string(view, 'config', { required: true }, 'task_spec.view_spec.');
            if (typeof config === 'string') {
              try {
                if (!isObject(JSON.parse(config))) throw new Error('not an object');
              } catch {
                check.add(
                  'task_spec.view_spec.config',
                  'JSON_EXPECTED',
                  'Template Builder config must be a JSON object string',
                );
              }
            }
            check.object(view, 'lock', true, 'task_spec.view_spec.');
          }
        }
      }
      if (check.failed) return check.answer();
      const output = isObject(spec) && isObject(spec.output_spec) ? spec.output_spec : {};
      const codeField =
        Object.entries(output).find(([, field]) => isObject(field) && field.type === 'string')?.[0] ?? null;
      const project: ContractProject = {
        ...body,
        id: state.nextId(),
        status: 'ACTIVE',
        created: stamp(),
        owner: { id: state.requester.id, myself: true },
        output_spec_code_field: codeField,
      };
      state.projects.set(project.id, project);
      const { output_spec_code_field: _internal, ...shown } = project;
      return new HttpAnswer(201, shown);
    },
  },
  {
    method: 'POST',
    pattern: /^\/pools$/,
    handle: ({ state, body }) => {
      if (!isObject(body))
        return errorAnswer(400, VALIDATION.code, VALIDATION.message, {
          '': { code: 'OBJECT_EXPECTED', message: 'Object expected' },
        });
      const check = new Check();
      const projectId = check.string(body, 'project_id', { required: true, notBlank: true });
      if (typeof projectId === 'string' && !state.projects.has(projectId)) {
        check.add('project_id', 'ENTITY_DOES_NOT_EXIST', `Project ${projectId} does not exist`);
      }
      check.string(body, 'private_name', { required: true, notBlank: true });
      check.string(body, 'public_description', {});
      check.boolean(body, 'may_contain_adult_content', true);
      const expire = check.string(body, 'will_expire', { required: true });
      if (
        typeof expire === 'string' &&
        Number.isNaN(Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(expire) ? expire : `${expire}Z`))
      ) {
        check.add('will_expire', 'INVALID_DATE_TIME_SYNTAX', 'Date and time in ISO 8601 format expected');
      }
      check.number(body, 'reward_per_assignment', { required: true, min: MIN_REWARD });
      check.number(body, 'assignment_max_duration_seconds', { required: true, integer: true, min: 1 });
      const defaults = check.object(body, 'defaults', true);
      if (defaults) {
        check.number(
          defaults,
          'default_overlap_for_new_task_suites',
          { required: true, integer: true, min: 1 },
          'defaults.',
        );
        check.number(defaults, 'default_overlap_for_new_tasks', { integer: true, min: 1 }, 'defaults.');
      }
      check.boolean(body, 'auto_accept_solutions', false);
      check.number(body, 'auto_accept_period_day', { integer: true, min: 1, max: 21 });
      const mixer = check.object(body, 'mixer_config', false);
      if (mixer) {
        check.number(mixer, 'real_tasks_count', { required: true, integer: true, min: 0 }, 'mixer_config.');
        check.number(mixer, 'golden_tasks_count', { required: true, integer: true, min: 0 }, 'mixer_config.');
        check.number(mixer, 'training_tasks_count', { required: true, integer: true, min: 0 }, 'mixer_config.');
      }
      if (body.filter !== undefined && body.filter !== null) {
        if (JSON.stringify(body.filter).length > 10_000) {
          check.add('filter', 'OBJECT_SIZE_BYTES_GREATER_THAN_MAX', 'Filter must not exceed 10000 characters');
        } else {
          checkFilter(check, body.filter, 'filter');
        }
      }
      if (check.failed) return check.answer();
      const pool = {
        ...body,
        id: state.nextId(),
        status: 'CLOSED',
        created: stamp(),
        type: 'REGULAR',
        owner: { id: state.requester.id, myself: true },
      } as unknown as ContractPool; // the fields ContractPool names were validated above
      state.pools.set(pool.id, pool);
      return new HttpAnswer(201, pool);
    },
  },
  {
    method: 'GET',
    pattern: /^\/pools\/([^/]+)$/,
    handle: ({ state, id }) => {
      const pool = state.pools.get(id);
      return pool ? new HttpAnswer(200, pool) : notFound('Pool', id);
    },
  },
  {
    method: 'POST',
    pattern: /^\/pools\/([^/]+)\/open$/,
    handle: ({ state, id }) => {
      const pool = state.pools.get(id);
      if (!pool) return notFound('Pool', id);
      if (pool.status === 'OPEN') return new HttpAnswer(204, undefined);
      if (pool.status === 'ARCHIVED') return errorAnswer(409, 'CONFLICT_STATE', 'An archived pool cannot be opened');
      if (state.poolBusy(id)) {
        return errorAnswer(
          409,
          'POOL_LOCKED_BY_ANOTHER_OPERATION',
          'Wait for the previous operation on the pool to finish',
        );
      }
      if (![...state.tasks.values()].some((t) => t.pool_id === id)) {
        return errorAnswer(409, 'EMPTY_POOL', 'The pool has no tasks');
      }
      const short = () => state.poolCost(id) > state.balance + 1e-9;
      if (state.balanceFailure === 'conflict' && short()) {
        return errorAnswer(409, 'NOT_ENOUGH_BALANCE', 'Not enough money in the account to open the pool', {
          required: state.poolCost(id),
          balance: state.balance,
        });
      }
      const op = state.startOperation('POOL.OPEN', id, () => {
        const now = stamp();
        if (short()) {
          pool.status = 'CLOSED';
          pool.last_close_reason = 'NOT_ENOUGH_BALANCE';
          pool.last_stopped = now;
          if (state.balanceFailure === 'open-then-close') {
            pool.last_started = now;
            return 'SUCCESS';
          }
          return 'FAIL';
        }
        pool.status = 'OPEN';
        pool.last_started = now;
        return 'SUCCESS';
      });
      return new HttpAnswer(202, op);
    },
  },
  {
    method: 'POST',
    pattern: /^\/pools\/([^/]+)\/close$/,
    handle: ({ state, id }) => {
      const pool = state.pools.get(id);
      if (!pool) return notFound('Pool', id);
      if (pool.status === 'CLOSED') return new HttpAnswer(204, undefined);
      if (pool.status === 'ARCHIVED') return errorAnswer(409, 'CONFLICT_STATE', 'An archived pool cannot be closed');
      if (state.poolBusy(id)) {
        return errorAnswer(
          409,
          'POOL_LOCKED_BY_ANOTHER_OPERATION',
          'Wait for the previous operation on the pool to finish',
        );
      }
      const op = state.startOperation('POOL.CLOSE', id, () => {
        pool.status = 'CLOSED';
        pool.last_close_reason = 'MANUAL';
        pool.last_stopped = stamp();
        return 'SUCCESS';
      });
      return new HttpAnswer(202, op);
    },
  },
  {
    method: 'POST',
    pattern: /^\/tasks$/,
    handle: ({ state, body, query }) => {
      const allowDefaults = query.get('allow_defaults') === 'true';
      const many = Array.isArray(body);
      const items: unknown[] = many ? body : [body];
      const checks = items.map((item) => validateTask(state, item, allowDefaults));
      const conflict = checks.find((c): c is HttpAnswer => c instanceof HttpAnswer);
      if (conflict) return conflict;
      const failed = checks.flatMap((c, i) => (c instanceof Check && c.failed ? [[i, c] as const] : []));
      const first = failed[0];
      if (first) {
        if (!many) return first[1].answer();
        const payload = Object.fromEntries(failed.map(([i, c]) => [String(i), c.errors]));
        return errorAnswer(400, VALIDATION.code, VALIDATION.message, payload);
      }
      const created = items.map((raw) => {
        const item = raw as Json;
        const pool = state.pools.get(item.pool_id as string) as ContractPool;
        const overlap =
          typeof item.overlap === 'number'
            ? item.overlap
            : (pool.defaults.default_overlap_for_new_tasks ?? pool.defaults.default_overlap_for_new_task_suites);
        const task: ContractTask = {
          ...item,
          id: randomUUID(),
          pool_id: pool.id,
          input_values: item.input_values as Json,
          overlap,
          created: stamp(),
        };
        state.tasks.set(task.id, task);
        return task;
      });
      return many
        ? new HttpAnswer(201, { items: Object.fromEntries(created.map((t, i) => [String(i), t])) })
        : new HttpAnswer(201, created[0]);
    },
  },
  {
    method: 'GET',
    pattern: /^\/operations\/([^/]+)$/,
    handle: ({ state, id }) => {
      const op = state.operations.get(id);
      return op ? new HttpAnswer(200, op) : notFound('Operation', id);
    },
  },
  {
    method: 'GET',
    pattern: /^\/assignments$/,
    handle: ({ state, query }) => listAssignments(state, query),
  },
  {
    method: 'GET',
    pattern: /^\/assignments\/([^/]+)$/,
    handle: ({ state, id }) => {
      const a = state.assignments.get(id);
      return a ? new HttpAnswer(200, a) : notFound('Assignment', id);
    },
  },
  {
    method: 'PATCH',
    pattern: /^\/assignments\/([^/]+)$/,
    handle: ({ state, body, id }) => patchAssignment(state, id, body),
  },
];

function validateTask(state: TolokaContractState, item: unknown, allowDefaults: boolean): Check | HttpAnswer {
  const check = new Check();
  if (!isObject(item)) {
    check.add('', 'OBJECT_EXPECTED', 'Object expected');
    return check;
  }
  const poolId = check.string(item, 'pool_id', { required: true, notBlank: true });
  const pool = typeof poolId === 'string' ? state.pools.get(poolId) : undefined;
  if (typeof poolId === 'string' && !pool)
    check.add('pool_id', 'ENTITY_DOES_NOT_EXIST', `Pool ${poolId} does not exist`);
  const input = check.object(item, 'input_values', true);
  const defaultOverlap = pool?.defaults.default_overlap_for_new_tasks;
  if (!(allowDefaults && defaultOverlap !== undefined)) {
    check.number(item, 'overlap', { required: true, integer: true, min: 1 });
  } else {
    check.number(item, 'overlap', { integer: true, min: 1 });
  }
  if (pool) {
    if (pool.status === 'ARCHIVED')
      return errorAnswer(409, 'CONFLICT_STATE', 'Tasks cannot be added to an archived pool');
    if (!isObject(pool.mixer_config)) {
      return errorAnswer(
        409,
        'MIXER_CONFIG_REQUIRED',
        'Single tasks need the pool mixer_config; upload task suites otherwise',
      );
    }
    const project = state.projects.get(pool.project_id);
    const taskSpec = project?.task_spec;
    const spec = isObject(taskSpec) && isObject(taskSpec.input_spec) ? taskSpec.input_spec : {};
    if (input) {
      for (const [name, field] of Object.entries(spec)) {
        if (!isObject(field)) continue;
        const value = input[name];
        if (value === undefined || value === null) {
          if (field.required !== false)
            check.add(`input_values.${name}`, 'VALUE_REQUIRED', 'Value must be present and not equal to null');
          continue;
        }
        checkInputValue(check, field.type, value, `input_values.${name}`);
      }
      for (const name of Object.keys(input)) {
        if (!(name in spec))
          check.add(`input_values.${name}`, 'VALUE_NOT_ALLOWED', 'Field is not in the project input_spec');
      }
    }
  }
  return check;
}

function listAssignments(state: TolokaContractState, query: URLSearchParams): HttpAnswer {
  const check = new Check();
  const poolId = query.get('pool_id');
  const taskId = query.get('task_id');
  const suiteId = query.get('task_suite_id');
  if (!poolId && !taskId && !suiteId) {
    check.add('pool_id', 'VALUE_REQUIRED', 'One of pool_id, task_id or task_suite_id is required');
  }
  const statuses = (query.get('status') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const s of statuses) {
    if (!ASSIGNMENT_STATUSES.includes(s as ContractAssignmentStatus)) {
      check.add('status', 'UNKNOWN_ENUM_VALUE', `Unknown status ${s}`);
    }
  }
  const limitText = query.get('limit');
  const limit = limitText === null ? DEFAULT_PAGE_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    check.add('limit', 'VALUE_OUT_OF_BOUNDS', `limit must be within 1..${MAX_PAGE_LIMIT}`);
  }
  const sort = query.get('sort') ?? 'id';
  const sortField = sort.replace(/^-/, '');
  if (!['id', 'created', 'submitted', 'skipped', 'expired', 'accepted', 'rejected'].includes(sortField)) {
    check.add('sort', 'UNKNOWN_ENUM_VALUE', `Cannot sort by ${sortField}`);
  }
  if (check.failed) return check.answer();

  const idGt = query.get('id_gt');
  const idGte = query.get('id_gte');
  const idLt = query.get('id_lt');
  const idLte = query.get('id_lte');
  const userId = query.get('user_id');
  const matching = [...state.assignments.values()].filter((a) => {
    if (poolId && a.pool_id !== poolId) return false;
    if (suiteId && a.task_suite_id !== suiteId) return false;
    if (taskId && !(Array.isArray(a.tasks) && a.tasks.some((t) => isObject(t) && t.id === taskId))) return false;
    if (userId && a.user_id !== userId) return false;
    if (statuses.length > 0 && !statuses.includes(a.status)) return false;
    if (idGt !== null && !(a.id > idGt)) return false;
    if (idGte !== null && !(a.id >= idGte)) return false;
    if (idLt !== null && !(a.id < idLt)) return false;
    if (idLte !== null && !(a.id <= idLte)) return false;
    return true;
  });
  const direction = sort.startsWith('-') ? -1 : 1;
  matching.sort((x, y) => {
    const a = String(x[sortField] ?? '');
    const b = String(y[sortField] ?? '');
    const primary = a < b ? -1 : a > b ? 1 : 0;
    return direction * (primary !== 0 ? primary : x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
  });
  return new HttpAnswer(200, { items: matching.slice(0, limit), has_more: matching.length > limit });
}

function patchAssignment(state: TolokaContractState, id: string, body: unknown): HttpAnswer {
  const assignment = state.assignments.get(id);
  if (!assignment) return notFound('Assignment', id);
  const check = new Check();
  if (!isObject(body)) {
    check.add('', 'OBJECT_EXPECTED', 'Object expected');
    return check.answer();
  }
  check.enumOf(body, 'status', ['ACCEPTED', 'REJECTED'], true);
  const comment = check.string(body, 'public_comment', { max: 2048 });
  if (body.status === 'REJECTED' && !(typeof comment === 'string' && comment.trim() !== '')) {
    check.add('public_comment', 'VALUE_REQUIRED', 'A rejection needs a comment for the worker');
  }
  if (check.failed) return check.answer();
  const target = body.status as 'ACCEPTED' | 'REJECTED';
  const allowedFrom: ContractAssignmentStatus[] = target === 'ACCEPTED' ? ['SUBMITTED', 'REJECTED'] : ['SUBMITTED'];
  if (!allowedFrom.includes(assignment.status)) {
    return errorAnswer(
      409,
      'INAPPROPRIATE_STATUS',
      'This or related resource is in inappropriate status, operation is not allowed',
      { appropriate_statuses: allowedFrom },
    );
  }
  const now = stamp();
  assignment.status = target;
  if (typeof comment === 'string') assignment.public_comment = comment;
  if (target === 'ACCEPTED') {
    assignment.accepted = now;
    state.charge(assignment.reward * (1 + state.feeRate));
  } else {
    assignment.rejected = now;
  }
  const answer: Json = { status: assignment.status };
  if (assignment.public_comment !== undefined) answer.public_comment = assignment.public_comment;
  return new HttpAnswer(200, answer);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error('body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, answer: HttpAnswer) {
  if (res.destroyed) return;
  const headers: Record<string, string> = { ...answer.headers };
  let payload = '';
  if (answer.status !== 204 && answer.body !== undefined) {
    if (typeof answer.body === 'string') {
      payload = answer.body;
      headers['Content-Type'] ??= 'text/plain; charset=utf-8';
    } else {
      payload = JSON.stringify(answer.body);
      headers['Content-Type'] ??= 'application/json';
    }
  }
  res.writeHead(answer.status, headers);
  res.end(payload);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function handle(state: TolokaContractState, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://contract.local');
  const method = (req.method ?? 'GET').toUpperCase();
  const entry: ContractRequest = {
    method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    body: undefined,
    auth: 'missing',
    status: 0,
  };
  state.requests.push(entry);
  const reply = (answer: HttpAnswer) => {
    entry.status = answer.status;
    send(res, answer);
  };

  let text: string;
  try {
    text = await readBody(req);
  } catch {
    return reply(errorAnswer(400, VALIDATION.code, 'Request body too large'));
  }
  let body: unknown;
  if (text.trim() !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      entry.body = text;
      return reply(
        errorAnswer(400, VALIDATION.code, 'Request body is not JSON', {
          '': { code: 'JSON_EXPECTED', message: 'JSON expected' },
        }),
      );
    }
  }
  entry.body = body;

  const authorization = req.headers.authorization;
  const match = typeof authorization === 'string' ? /^OAuth (.+)$/.exec(authorization) : null;
  entry.auth = !authorization ? 'missing' : match?.[1] && state.tokens.has(match[1]) ? 'ok' : 'invalid';

  let injection = state.takeInjection(url.pathname, method);
  while (injection && injection.status === 0) {
    await sleep(injection.delayMs);
    injection = state.takeInjection(url.pathname, method);
  }
  if (injection) return reply(new HttpAnswer(injection.status, injection.body, injection.headers));

  if (entry.auth !== 'ok') {
    return reply(errorAnswer(401, 'AUTHENTICATION_ERROR', 'Missing or invalid OAuth token'));
  }
  if (!url.pathname.startsWith(`${API}/`)) return reply(errorAnswer(404, 'DOES_NOT_EXIST', 'No such resource'));
  const path = url.pathname.slice(API.length);

  state.tick();
  for (const route of routes) {
    if (route.method !== method) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    return reply(route.handle({ state, body, query: url.searchParams, id: decodeURIComponent(m[1] ?? '') }));
  }
  return reply(errorAnswer(404, 'DOES_NOT_EXIST', `No resource ${method} ${url.pathname}`));
}

export type TolokaContractServer = { url: string; close(): Promise<void>; state: TolokaContractState };

/** Starts the contract server on 127.0.0.1 (port 0: any free port). `url` is the client's baseUrl. */
export async function startTolokaContractServer(
  options: { port?: number; tokens?: string[]; balance?: number } = {},
): Promise<TolokaContractServer> {
  const state = new TolokaContractState({ tokens: options.tokens, balance: options.balance });
  const server = createServer((req, res) => {
    handle(state, req, res).catch((error: unknown) => {
      if (!res.headersSent) {
        send(res, errorAnswer(500, 'INTERNAL_ERROR', `Contract server failure: ${String(error)}`));
      } else {
        res.destroy();
      }
    });
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
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
