import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { EVENTS, type EventName, type EventPayload } from '../events/events.ts';

/** Which run of a job this is: a handler that fails on a run that is not the last is retried. */
export interface JobAttempt {
  /** Runs before this one (0 on the first). */
  retryCount: number;
  retryLimit: number;
  /** Aborted when the process stops (graceful shutdown): long handlers end their work early. */
  signal?: AbortSignal;
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
  /** Seconds a run may take before pg-boss fails it (and retries). pg-boss's default: 15 minutes. */
  expireInSeconds?: number;
  /**
   * A running job's heartbeat (seconds, at least 10): a worker killed mid-job stops beating, and the
   * job is retried after this long instead of after its whole expiry.
   */
  heartbeatSeconds?: number;
  /**
   * `exclusive`: one job per `singletonKey` queued or running at a time (a second send returns null),
   * so two workers never run the same thing at once. Default `standard`.
   */
  policy?: 'standard' | 'exclusive';
  /** Jobs of this name one process runs at once (default 1). */
  concurrency?: (ctx: AppContext) => number;
  /** A subscriber's event: the job is queued for each publish of it, with the event's payload. */
  event?: EventName;
  load(): Promise<JobHandlerModule<z.infer<S>>>;
}

export function defineJob<S extends z.ZodType>(job: JobDefinition<S>): JobDefinition<S> {
  return job;
}

/**
 * A subscriber (decision 027): a job queued for each publish of its event, with the event's payload. The publisher
 * never imports it; the composition root hands it to the queue with the other jobs. Its handler may run more than once
 * for one publish (a retry, a redelivery): it reads the current state and does nothing twice.
 */
export function defineSubscriber<E extends EventName>(
  subscriber: Omit<JobDefinition<(typeof EVENTS)[E]>, 'payload' | 'event' | 'cron' | 'load'> & {
    event: E;
    load(): Promise<JobHandlerModule<EventPayload<E>>>;
  },
): JobDefinition<(typeof EVENTS)[E]> {
  return { ...subscriber, payload: EVENTS[subscriber.event] };
}
