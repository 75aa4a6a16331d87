import { z } from 'zod';
import { defineJob } from '../../../jobs/define.ts';

export const cleanExpiredSessionsJob = defineJob({
  name: 'auth-clean-expired-sessions',
  payload: z.object({}),
  cron: '*/15 * * * *',
  load: () => import('./clean-expired-sessions.handler.ts'),
});
