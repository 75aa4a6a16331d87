/**
 * The engine pool (design section 7): session analyses run in child processes, never on the
 * caller's event loop. Children start when a task needs one, load Human once, and serve one task at
 * a time; further tasks wait in a queue. A cancelled task's child is killed, a child that dies fails
 * its task with 'engine_crashed', and a child that grows past the memory cap is replaced.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EngineError } from '../errors.ts';
import type { SessionProgress, SessionResult, SessionTask } from '../session-types.ts';
import type {
  FromChild,
  JobProgress,
  JobResult,
  PoolJob,
  PoolRecordingOptions,
  RecordingProgress,
  SerializedError,
  ToChild,
} from './pool-protocol.ts';
import type { RecordingAnalysis } from './recording.ts';

export type { PoolRecordingOptions, RecordingProgress } from './pool-protocol.ts';

const require = createRequire(import.meta.url);
const CHILD_ENTRY = fileURLToPath(new URL('./pool-child.ts', import.meta.url));
const MB = 1024 * 1024;

export interface EnginePoolOptions {
  /** Most child processes at once. Default os.availableParallelism(). */
  size?: number;
  /**
   * Memory cap per child, MB: the V8 heap limit (--max-old-space-size) and a resident-memory cap
   * (WebAssembly memory lies outside the heap). A running task whose child passes it fails with
   * 'engine_crashed', as an out-of-memory death would. Default 1500.
   */
  memoryMb?: number;
  /** A child resident above this after a task is replaced before the next one. Default 75% of memoryMb. */
  recycleMb?: number;
  /**
   * A child left without work this long exits, giving its memory (the models, ~200 MB) back; the next task starts
   * a fresh one (about a second to load the models). Default 60 000 ms.
   */
  idleMs?: number;
}

export interface RunOptions<P> {
  signal?: AbortSignal;
  onProgress?: (progress: P) => void;
}

export interface PoolProcessStats {
  pid: number;
  busy: boolean;
  tasks: number;
  /** Resident memory, MB (from /proc when readable, else the child's last report). */
  rssMb: number | null;
  /** CPU time the child has used, seconds (its last report, at most a second old). */
  cpuSeconds: number;
}

export interface PoolStats {
  size: number;
  processes: PoolProcessStats[];
  busy: number;
  queued: number;
  /** CPU seconds of every child this pool has run, the gone ones included. */
  cpuSeconds: number;
  /** Children started, ever; crashed, killed on cancel and recycled ones count. */
  started: number;
}

interface Pending {
  id: number;
  job: PoolJob;
  onProgress: ((progress: unknown) => void) | undefined;
  signal: AbortSignal | undefined;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
  onAbort: () => void;
}

interface Child {
  proc: ChildProcess;
  pending: Pending | null;
  tasks: number;
  rss: number | null;
  cpuMicros: number;
  gone: boolean;
  /** Set while the child waits for work: it exits when the timer fires. */
  idle: NodeJS.Timeout | null;
}

/**
 * The loader flags the children need to run TypeScript: the parent's own tsx flags when it runs
 * under tsx (`node --import tsx`), else tsx's loader by absolute path (vitest, plain node).
 */
export function childExecArgv(memoryMb: number, parentArgv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  const loaders = new Set(['--import', '--loader', '--experimental-loader', '--require', '-r']);
  for (let i = 0; i < parentArgv.length; i++) {
    const arg = parentArgv[i] as string;
    const next = parentArgv[i + 1];
    if (loaders.has(arg) && next !== undefined) {
      if (next.includes('tsx')) out.push(arg, next);
      i++;
    } else if (/^--(import|loader|experimental-loader|require)=.*tsx/.test(arg)) {
      out.push(arg);
    }
  }
  if (out.length === 0) out.push('--import', pathToFileURL(require.resolve('tsx')).href);
  out.push(`--max-old-space-size=${Math.round(memoryMb)}`);
  return out;
}

/** Resident memory of a process in bytes from /proc (Linux); null elsewhere or when it is gone. */
function procRss(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

function toError(e: SerializedError): Error {
  const error = e.code ? new EngineError(e.code, e.message) : new Error(e.message);
  if (!e.code) error.name = e.name;
  if (e.stack) error.stack = e.stack;
  return error;
}

export class EnginePool {
  readonly size: number;
  private readonly memoryMb: number;
  private readonly recycleMb: number;
  private readonly idleMs: number;
  private readonly execArgv: string[];
  private children: Child[] = [];
  private queue: Pending[] = [];
  private nextId = 1;
  private started = 0;
  private goneCpuMicros = 0;
  private closed = false;
  private readonly exits = new Set<Promise<void>>();
  private monitor: NodeJS.Timeout | null = null;

  constructor(options: EnginePoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? availableParallelism()));
    this.memoryMb = options.memoryMb ?? 1500;
    this.recycleMb = options.recycleMb ?? this.memoryMb * 0.75;
    this.idleMs = options.idleMs ?? 60_000;
    if (!(this.memoryMb > 0 && this.recycleMb > 0)) throw new EngineError('invalid_options', 'memory caps must be > 0');
    this.execArgv = childExecArgv(this.memoryMb);
  }

  /** One session analysis in a child process. */
  run(task: SessionTask, options: RunOptions<SessionProgress> = {}): Promise<SessionResult> {
    return this.submit({ kind: 'session', task }, options);
  }

  /** One `analyzeRecording` (a file without a session's event log) in a child process. */
  analyzeRecording(
    file: string,
    recordingOptions: PoolRecordingOptions = {},
    options: RunOptions<RecordingProgress> = {},
  ): Promise<RecordingAnalysis> {
    return this.submit({ kind: 'recording', file, options: recordingOptions }, options);
  }

  stats(): PoolStats {
    const processes = this.children
      .filter((c) => !c.gone)
      .map((c): PoolProcessStats => {
        const rss = procRss(c.proc.pid) ?? c.rss;
        return {
          pid: c.proc.pid ?? 0,
          busy: c.pending !== null,
          tasks: c.tasks,
          rssMb: rss === null ? null : rss / MB,
          cpuSeconds: c.cpuMicros / 1e6,
        };
      });
    return {
      size: this.size,
      processes,
      busy: processes.filter((p) => p.busy).length,
      queued: this.queue.length,
      cpuSeconds: (this.goneCpuMicros + this.children.reduce((s, c) => s + c.cpuMicros, 0)) / 1e6,
      started: this.started,
    };
  }

  /** Kills every child; running and queued tasks fail with 'canceled'. */
  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) this.settle(p, new EngineError('canceled', 'The engine pool was closed'));
    for (const child of [...this.children]) {
      if (child.pending) this.settle(child.pending, new EngineError('canceled', 'The engine pool was closed'));
      this.kill(child);
    }
    await Promise.all([...this.exits]);
  }

  private submit<J extends PoolJob>(
    job: J,
    options: RunOptions<JobProgress<J['kind']>>,
  ): Promise<JobResult<J['kind']>> {
    if (this.closed) return Promise.reject(new EngineError('canceled', 'The engine pool is closed'));
    if (options.signal?.aborted) return Promise.reject(new EngineError('canceled', 'The analysis was cancelled'));
    return new Promise((resolve, reject) => {
      const pending: Pending = {
        id: this.nextId++,
        job,
        onProgress: options.onProgress as ((progress: unknown) => void) | undefined,
        signal: options.signal,
        resolve: resolve as (result: unknown) => void,
        reject,
        onAbort: () => this.abort(pending),
      };
      options.signal?.addEventListener('abort', pending.onAbort, { once: true });
      this.queue.push(pending);
      this.dispatch();
    });
  }

  private abort(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) this.queue.splice(queued, 1);
    const child = this.children.find((c) => c.pending === pending);
    this.settle(pending, new EngineError('canceled', 'The analysis was cancelled'));
    // The task may be deep inside WebAssembly: only killing the process stops it now. A fresh
    // child starts when the next task needs one.
    if (child) this.kill(child);
    this.dispatch();
  }

  private settle(pending: Pending, outcome: Error | { result: unknown }): void {
    pending.signal?.removeEventListener('abort', pending.onAbort);
    const child = this.children.find((c) => c.pending === pending);
    if (child) child.pending = null;
    if (outcome instanceof Error) pending.reject(outcome);
    else pending.resolve(outcome.result);
  }

  private dispatch(): void {
    while (this.queue.length && !this.closed) {
      let child = this.children.find((c) => !c.pending && !c.gone);
      if (!child) {
        if (this.children.length >= this.size) break;
        child = this.spawn();
      }
      const pending = this.queue.shift() as Pending;
      if (child.idle) clearTimeout(child.idle);
      child.idle = null;
      child.pending = pending;
      child.tasks++;
      const message: ToChild = { type: 'run', id: pending.id, job: pending.job };
      const target = child;
      target.proc.send(message, (error) => {
        if (!error || target.pending !== pending) return;
        this.settle(
          pending,
          new EngineError('engine_crashed', 'The engine process did not take the task', { cause: error }),
        );
        this.kill(target);
      });
    }
    this.watchMemory();
  }

  private spawn(): Child {
    const proc = fork(CHILD_ENTRY, [], {
      execArgv: this.execArgv,
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.started++;
    const child: Child = { proc, pending: null, tasks: 0, rss: null, cpuMicros: 0, gone: false, idle: null };
    this.children.push(child);
    proc.on('message', (message: FromChild) => this.onMessage(child, message));
    let exited: Promise<void> = Promise.resolve();
    exited = new Promise<void>((resolve) => {
      let done = false;
      const finished = (code: number | null, signal: NodeJS.Signals | null) => {
        if (done) return;
        done = true;
        this.onExit(child, code, signal);
        this.exits.delete(exited);
        resolve();
      };
      proc.once('exit', finished);
      // A fork that never started has no 'exit' to wait for; a broken channel on a live process
      // leaves it unusable: kill it, its 'exit' follows.
      proc.on('error', () => (proc.pid === undefined ? finished(null, null) : this.kill(child)));
    });
    this.exits.add(exited);
    return child;
  }

  private onMessage(child: Child, message: FromChild): void {
    if (message.type === 'usage') {
      child.rss = message.rss;
      child.cpuMicros = message.cpuMicros;
      return;
    }
    const pending = child.pending;
    if (!pending || pending.id !== message.id) return;
    if (message.type === 'progress') {
      pending.onProgress?.(message.progress);
      return;
    }
    this.settle(pending, message.type === 'done' ? { result: message.result } : toError(message.error));
    const rss = procRss(child.proc.pid) ?? child.rss;
    if (rss !== null && rss > this.recycleMb * MB) this.kill(child);
    this.dispatch();
    if (!child.pending && !child.gone) {
      child.idle = setTimeout(() => {
        if (!child.pending) this.kill(child);
      }, this.idleMs);
      child.idle.unref();
    }
  }

  private onExit(child: Child, code: number | null, signal: NodeJS.Signals | null): void {
    child.gone = true;
    if (child.idle) clearTimeout(child.idle);
    this.children = this.children.filter((c) => c !== child);
    this.goneCpuMicros += child.cpuMicros;
    if (child.pending) {
      const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
      this.settle(child.pending, new EngineError('engine_crashed', `The engine process ${how} during the analysis`));
    }
    this.dispatch();
  }

  private kill(child: Child): void {
    if (child.gone) return;
    child.gone = true;
    child.proc.kill('SIGKILL');
  }

  /** While tasks run, a child past the memory cap is killed (its task fails as a crash would). */
  private watchMemory(): void {
    const busy = this.children.some((c) => c.pending);
    if (busy && !this.monitor) {
      this.monitor = setInterval(() => {
        for (const child of this.children) {
          const rss = procRss(child.proc.pid) ?? child.rss;
          if (!child.pending || rss === null || rss <= this.memoryMb * MB) continue;
          this.settle(
            child.pending,
            new EngineError('engine_crashed', `The engine process passed its memory cap of ${this.memoryMb} MB`),
          );
          this.kill(child);
        }
        if (!this.children.some((c) => c.pending)) this.stopMonitor();
      }, 1000);
      this.monitor.unref();
    } else if (!busy) {
      this.stopMonitor();
    }
  }

  private stopMonitor(): void {
    if (this.monitor) clearInterval(this.monitor);
    this.monitor = null;
  }
}
