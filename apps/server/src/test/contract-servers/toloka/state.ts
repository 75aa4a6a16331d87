/** The Toloka contract server's world: what it holds, and what a test scripts (see server.ts). */
import { randomUUID } from 'node:crypto';
import {
  apiPath,
  type ContractAssignment,
  type ContractAssignmentStatus,
  type ContractOperation,
  type ContractOperationStatus,
  type ContractPool,
  type ContractProject,
  type ContractRequest,
  type ContractTask,
  DEFAULT_ERROR_CODES,
  type Injection,
  stamp,
  TAKEN,
} from './model.ts';

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
