import { z } from 'zod';
import { defineJob } from '../../../jobs/define.ts';

/** Stored bytes of deleted files (a file, a research or a project) that the deletion could not remove. */
export const emptyStorageTrashJob = defineJob({
  name: 'media-empty-storage-trash',
  payload: z.object({}),
  cron: '47 * * * *',
  load: () => import('./empty-storage-trash.handler.ts'),
});
