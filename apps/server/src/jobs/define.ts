import type { z } from 'zod';
import type { AppContext } from '../context.ts';

export interface JobHandlerModule<P> {
  handle(payload: P, ctx: AppContext): Promise<void>;
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
