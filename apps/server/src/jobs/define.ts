import type { z } from 'zod';
import type { AppContext } from '../context.ts';

/** Which run of a job this is: a handler that fails on a run that is not the last is retried. */
export interface JobAttempt {
  /** Runs before this one (0 on the first). */
  retryCount: number;
  retryLimit: number;
}

/** The last run of a job: no retry follows a failure. */
export function isFinalAttempt(attempt: JobAttempt): boolean {
  return attempt.retryCount >= attempt.retryLimit;
}

export interface JobHandlerModule<P> {
  handle(payload: P, ctx: AppContext, attempt: JobAttempt): Promise<void>;
}

/** A job: a name, a payload schema, an optional schedule and a handler loaded only when it runs. */
export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  payload: S;
  /** Cron expression (UTC) when the job runs on a schedule. */
  cron?: string;
  retryLimit?: number;
  load(): Promise<JobHandlerModule<z.infer<S>>>;
}

export function defineJob<S extends z.ZodType>(job: JobDefinition<S>): JobDefinition<S> {
  return job;
}
