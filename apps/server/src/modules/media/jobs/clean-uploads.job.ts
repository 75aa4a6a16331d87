import { z } from 'zod';
import { defineJob } from '../../../jobs/define.ts';

/** Interrupted uploads leave nothing behind: partial files older than the expiry are removed hourly. */
export const cleanUploadsJob = defineJob({
  name: 'media-clean-abandoned-uploads',
  payload: z.object({}),
  cron: '17 * * * *',
  load: () => import('./clean-uploads.handler.ts'),
});
