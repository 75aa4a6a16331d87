import { z } from 'zod';
import { defineJob } from '../../../jobs/define.ts';

/**
 * The rate-limit counters whose window has passed, and the heartbeats of workers silent for a day (decision 069),
 * removed every ten minutes: the counters table holds only the clients of the last hour or so.
 */
export const cleanSharedStateJob = defineJob({
  name: 'clean-shared-state',
  payload: z.object({}),
  cron: '*/10 * * * *',
  load: () => import('./clean-shared-state.handler.ts'),
});
