import { z } from 'zod';
import { defineJob } from '../../../jobs/define.ts';

/** One generation of a report built into its snapshot. */
export const buildReportJob = defineJob({
  name: 'build-report',
  payload: z.object({ report_id: z.uuid(), generation: z.number().int().min(1) }),
  retryLimit: 1,
  policy: 'exclusive',
  expireInSeconds: 15 * 60,
  heartbeatSeconds: 30,
  load: () => import('./build-report.handler.ts'),
});
