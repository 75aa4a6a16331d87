import { z } from 'zod';
import { defineJob } from '../../../jobs/define.ts';

/** One demo or interview video through the engine pool into its stored result. */
export const analyzeDemoJob = defineJob({
  name: 'analyze-demo',
  payload: z.object({ demo_id: z.string().uuid() }),
  retryLimit: 2,
  policy: 'exclusive',
  // Two hours of interview at the engine's pace, with room; a killed worker is noticed by its heartbeat.
  expireInSeconds: 4 * 3600,
  heartbeatSeconds: 30,
  concurrency: (ctx) => ctx.deps.engine.size,
  load: () => import('./analyze-demo.handler.ts'),
});
