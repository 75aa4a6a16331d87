import { z } from 'zod';
import { defineJob } from '../../../jobs/define.ts';

/** One calibration check before the content: the attempt's calibration and validation through the engine. */
export const checkCalibrationJob = defineJob({
  name: 'check-calibration',
  payload: z.object({ session_id: z.string().uuid(), attempt: z.number().int().min(1).max(2) }),
  // The respondent waits: one more run after a crashed engine, then "could not run".
  retryLimit: 1,
  policy: 'exclusive',
  // The page gives up after two minutes; a run past that is not written.
  expireInSeconds: 5 * 60,
  heartbeatSeconds: 30,
  concurrency: (ctx) => ctx.deps.engine.size,
  load: () => import('./check-calibration.handler.ts'),
});
