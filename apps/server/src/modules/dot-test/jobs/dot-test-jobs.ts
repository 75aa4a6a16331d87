import { z } from 'zod';
import { defineJob } from '../../../jobs/define.ts';

/** One setup check's recording through the engine (the whole recording: research null). */
export const analyzeDotTestJob = defineJob({
  name: 'analyze-dot-test',
  payload: z.object({ dot_test_id: z.string().uuid() }),
  retryLimit: 2,
  policy: 'exclusive',
  // A check records about 25 s: minutes at the engine's pace even on a busy machine.
  expireInSeconds: 15 * 60,
  heartbeatSeconds: 30,
  concurrency: (ctx) => ctx.deps.engine.size,
  load: () => import('./analyze-dot-test.handler.ts'),
});

/**
 * Deletes setup checks past their retention (7 days), with their recording (its files through the
 * storage trash), and sends the analysis again for a check whose job got lost.
 */
export const cleanDotTestsJob = defineJob({
  name: 'clean-dot-tests',
  payload: z.object({}),
  cron: '*/10 * * * *',
  retryLimit: 0,
  load: () => import('./clean-dot-tests.handler.ts'),
});
