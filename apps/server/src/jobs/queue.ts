import type { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/client.ts';
import type { JobAttempt, JobDefinition } from './define.ts';
import { JOBS } from './registry.ts';

export class UnknownJobError extends Error {}

/**
 * pg-boss on the application's own database. An API-only process sends jobs; a worker (or the
 * all-in-one process) also runs them and keeps the schedules.
 */
export class JobQueue {
  private boss: PgBoss | undefined;
  /** Started with `work`: the work directory is this queue's to close. */
  private working = false;
  private readonly jobs: Map<string, JobDefinition>;

  constructor(
    private readonly runtime: { database: Database; log: Logger; context: () => AppContext },
    jobs: readonly JobDefinition[] = JOBS,
  ) {
    this.jobs = new Map(jobs.map((j) => [j.name, j]));
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
    }
    if (!options.work) return;
    // Before any job runs here: the work files of processes that are gone (killed mid-job) are removed.
    await this.runtime.context().deps.workDir.open(this.runtime.log);
    this.working = true;
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

  /** Queues a job; with a `singletonKey`, not again while one with the same key is queued or running. */
  async send(name: string, payload: unknown, options: { singletonKey?: string } = {}): Promise<string | null> {
    const job = this.jobs.get(name);
    if (!job) throw new UnknownJobError(`Unknown job ${name}`);
    if (!this.boss) throw new Error('Job queue is not started');
    return this.boss.send(name, job.payload.parse(payload) as object, options);
  }

  get started(): boolean {
    return this.boss !== undefined;
  }

  /** Lets running jobs finish (up to the timeout), then stops. */
  async stop(): Promise<void> {
    const boss = this.boss;
    this.boss = undefined;
    if (boss) await boss.stop({ graceful: true, timeout: 20_000 });
    if (this.working) {
      this.working = false;
      await this.runtime.context().deps.workDir.close();
    }
  }
}
