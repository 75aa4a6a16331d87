import { defineSubscriber } from '../../../jobs/define.ts';

/**
 * Retention "delete after processing": the recording goes as soon as the session's last video is done (the hourly
 * retention run deletes what this misses).
 */
export const retentionOnRecordingProcessed = defineSubscriber({
  name: 'retention.on-recording-processed',
  event: 'recording.processed',
  load: async () => {
    const { deleteRecordingIfProcessed } = await import('../retention.service.ts');
    return {
      handle: async (payload, ctx) => {
        await deleteRecordingIfProcessed(ctx.deps, payload.session_id);
      },
    };
  },
});
