import { z } from 'zod';
import { defineJob } from '../../../jobs/define.ts';

/**
 * One video process of one generation (design section 7): the respondent's recording and event log
 * through the engine pool into a stored result. One job per process is queued or running at a time.
 */
export const processRecordingJob = defineJob({
  name: 'process-recording',
  payload: z.object({ process_id: z.string().uuid(), generation: z.number().int().min(0) }),
  retryLimit: 3,
  policy: 'exclusive',
  // Two hours of interview at the engine's pace, with room; a killed worker is noticed by its heartbeat.
  expireInSeconds: 4 * 3600,
  heartbeatSeconds: 10,
  concurrency: (ctx) => ctx.deps.engine.size,
  load: () => import('./process-recording.handler.ts'),
});

/** Sends a job for every process waiting without one (a job lost between a commit and its send). */
export const dispatchProcessesJob = defineJob({
  name: 'dispatch-processes',
  payload: z.object({}),
  cron: '* * * * *',
  retryLimit: 0,
  load: () => import('./dispatch-processes.handler.ts'),
});
