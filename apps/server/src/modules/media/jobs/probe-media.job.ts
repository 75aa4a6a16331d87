import { z } from 'zod';
import { defineJob } from '../../../jobs/define.ts';

/** Reads an uploaded video's duration, frame rate and size, and stores a poster frame. */
export const probeMediaJob = defineJob({
  name: 'media-probe',
  payload: z.object({ media_id: z.string().uuid() }),
  retryLimit: 2,
  load: () => import('./probe-media.handler.ts'),
});
