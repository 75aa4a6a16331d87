import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { CompiledQuery, type Kysely } from 'kysely';
import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/client.ts';
import type { DB } from '../db/types.ts';
import { EVENTS, type EventName, type EventPayload } from '../events/events.ts';
import type { JobAttempt, JobDefinition } from './define.ts';
import { createWorkerHeartbeatsRepository } from './worker-heartbeats.repository.ts';

/** How often a process that works the queue writes its heartbeat (decision 069); /healthz calls one stale at 4×. */
export const WORKER_HEARTBEAT_MS = 15_000;

/** An id no job has: looking it up only fills pg-boss's queue cache. */
const NO_JOB = '00000000-0000-0000-0000-000000000000';

export class UnknownJobError extends Error {}

export interface PublishOptions {
  /**
   * The transaction that makes the change the event reports: the subscribers' jobs are inserted in it, so they exist
   * if and only if the change commits.
   */
  transaction?: Kysely<DB>;
}

/**
 * pg-boss on the application's own database. An API-only process sends jobs; a worker (or the
 * all-in-one process) also runs them and keeps the schedules.
 */
export class JobQueue {
  private boss: PgBoss | undefined;
  /** Started with `work`: the work directory is this queue's to close. */
  private working = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly jobs: Map<string, JobDefinition>;
  private readonly subscribers = new Map<EventName, JobDefinition[]>();

  /** `jobs`: every job and subscriber this process knows, handed over by the composition root. */
  constructor(
    private readonly runtime: { database: Database; log: Logger; context: () => AppContext },
    jobs: readonly JobDefinition[],
  ) {
    this.jobs = new Map(jobs.map((j) => [j.name, j]));
    for (const job of jobs) {
      if (job.event) this.subscribers.set(job.event, [...(this.subscribers.get(job.event) ?? []), job]);
    }
  }

  async start(options: { work: boolean }): Promise<void> {
    // Only processes that run jobs keep the schedules and the queue maintenance.
    const boss = this.runtime.database.createBoss({
      maintain: options.work,
      superviseSeconds: this.runtime.context().config.jobSuperviseSeconds,
    });
    boss.on('error', (err) => this.runtime.log.error({ err }, 'job queue error'));
    await boss.start();
    this.boss = boss;
    for (const job of this.jobs.values()) {
      await boss.createQueue(job.name, {
        retryLimit: job.retryLimit ?? 3,
        ...(job.policy ? { policy: job.policy } : {}),
        ...(job.expireInSeconds ? { expireInSeconds: job.expireInSeconds } : {}),
        ...(job.heartbeatSeconds ? { heartbeatSeconds: job.heartbeatSeconds } : {}),
      });
      // createQueue drops the queue from pg-boss's cache, and a send that misses the cache looks the queue up on
      // pg-boss's own connection: inside a publish's transaction on PGlite (one connection, held by it) that never
      // returns. A lookup by id goes through the cache and fills it.
      await boss.getJobById(job.name, NO_JOB);
    }
    if (!options.work) return;
    // Before any job runs here: the work files of processes that are gone (killed mid-job) are removed.
    await this.runtime.context().deps.workDir.open(this.runtime.log);
    this.working = true;
    await this.startHeartbeat();
    for (const job of this.jobs.values()) {
      if (job.cron) await boss.schedule(job.name, job.cron, {}, { tz: 'UTC' });
      const concurrency = job.concurrency?.(this.runtime.context()) ?? 1;
      await boss.work(
        job.name,
        { includeMetadata: true, ...(concurrency > 1 ? { localConcurrency: concurrency } : {}) },
        async (batch) => {
          for (const item of batch) {
            await this.run(job, item.data, {
              retryCount: item.retryCount,
              retryLimit: item.retryLimit,
              ...(item.signal ? { signal: item.signal } : {}),
            });
          }
        },
      );
    }
  }

  /**
   * Runs one job's handler in this process (what a worker does for each job it takes). Called
   * directly, it is a single run with no retry after it.
   */
  async run(job: JobDefinition, data: unknown, attempt: JobAttempt = { retryCount: 0, retryLimit: 0 }): Promise<void> {
    const payload = job.payload.parse(data ?? {});
    const handler = await job.load();
    await handler.handle(payload, this.runtime.context(), attempt);
  }

  /**
   * Queues a job; with a `singletonKey`, not again while one with the same key is queued or running; with
   * `startAfter`, not run before that moment.
   */
  async send(
    name: string,
    payload: unknown,
    options: { singletonKey?: string; startAfter?: Date } = {},
  ): Promise<string | null> {
    const job = this.jobs.get(name);
    if (!job) throw new UnknownJobError(`Unknown job ${name}`);
    if (!this.boss) throw new Error('Job queue is not started');
    return this.boss.send(name, job.payload.parse(payload) as object, options);
  }

  /**
   * Tells the event's subscribers (decision 027): one job queued for each, with the checked payload. With
   * `transaction`, the jobs are queued in it. Returns how many subscribers were sent it.
   */
  async publish<E extends EventName>(
    event: E,
    payload: EventPayload<E>,
    options: PublishOptions = {},
  ): Promise<number> {
    const data = EVENTS[event].parse(payload) as object;
    if (!this.boss) throw new Error('Job queue is not started');
    const trx = options.transaction;
    const db = trx && {
      executeSql: async (text: string, values: unknown[] = []) => ({
        rows: (await trx.executeQuery(CompiledQuery.raw(text, values))).rows as unknown[],
      }),
    };
    const subscribers = this.subscribers.get(event) ?? [];
    for (const job of subscribers) await this.boss.send(job.name, data, db ? { db } : {});
    return subscribers.length;
  }

  /**
   * Runs here, one at a time, the jobs queued under these names (default: every subscriber) until none is left, as a
   * worker would; what they publish is run too. For a process that does not work the queue (tests follow an event to
   * its subscribers with it). Returns how many ran; a failed run is marked failed and thrown.
   */
  async runQueued(names: readonly string[] = [...this.jobs.values()].filter((j) => j.event).map((j) => j.name)) {
    const boss = this.boss;
    if (!boss) throw new Error('Job queue is not started');
    let ran = 0;
    for (let found = true; found; ) {
      found = false;
      for (const name of names) {
        const job = this.jobs.get(name);
        if (!job) throw new UnknownJobError(`Unknown job ${name}`);
        for (const item of await boss.fetch(name, { batchSize: 10 })) {
          found = true;
          try {
            await this.run(job, item.data);
          } catch (err) {
            await boss.fail(name, item.id, { message: String(err) });
            throw err;
          }
          await boss.complete(name, item.id);
          ran++;
        }
      }
    }
    return ran;
  }

  get started(): boolean {
    return this.boss !== undefined;
  }

  /**
   * The worker's heartbeat, in the database every WORKER_HEARTBEAT_MS while the process works the queue, so that an
   * API's /healthz can tell whether any worker is alive. A beat the database misses is logged and the next one tried.
   */
  private async startHeartbeat(): Promise<void> {
    const heartbeats = createWorkerHeartbeatsRepository(this.runtime.database.db);
    const host = hostname();
    const worker = { id: `${host}_${process.pid}_${randomBytes(4).toString('hex')}`, host, pid: process.pid };
    const beat = () =>
      heartbeats.beat(worker).catch((err: unknown) => this.runtime.log.warn({ err }, 'worker heartbeat not written'));
    await beat();
    this.heartbeat = setInterval(beat, WORKER_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Lets running jobs finish (up to the timeout), then stops. */
  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    const boss = this.boss;
    this.boss = undefined;
    if (boss) await boss.stop({ graceful: true, timeout: 20_000 });
    if (this.working) {
      this.working = false;
      await this.runtime.context().deps.workDir.close();
    }
  }
}
