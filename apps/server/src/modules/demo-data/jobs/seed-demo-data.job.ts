import { z } from 'zod';
import { defineJob } from '../../../jobs/define.ts';

/**
 * The demo project of the demo account (decision 017), queued once when the account is created. It waits for the
 * other jobs (the video's probe, the recordings' processing) asleep, so it runs long but costs nothing meanwhile;
 * a retry resumes where the project is.
 */
export const seedDemoDataJob = defineJob({
  name: 'seed-demo-data',
  payload: z.strictObject({ user_id: z.uuid() }),
  retryLimit: 2,
  policy: 'exclusive',
  // Above the longest wait for the processing (50 minutes) with the journeys; a killed worker is noticed sooner.
  expireInSeconds: 60 * 60,
  heartbeatSeconds: 30,
  load: () => import('./seed-demo-data.handler.ts'),
});
