import { z } from 'zod';
import { defineJob } from '../../../jobs/define.ts';

/** The projects' retention settings (design section 7), applied in bounded batches every hour. */
export const applyRetentionJob = defineJob({
  name: 'apply-retention',
  payload: z.object({}),
  cron: '23 * * * *',
  load: () => import('./apply-retention.handler.ts'),
});
