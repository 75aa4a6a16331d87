import { defineSubscriber } from '../../../jobs/define.ts';

/** A respondent counted and charged: the owner is told when the balance runs low or out. */
export const licencesOnRecordingProcessed = defineSubscriber({
  name: 'licences.on-recording-processed',
  event: 'recording.processed',
  load: async () => {
    const { noticeBalance } = await import('../licences.service.ts');
    return {
      handle: async (payload, ctx) => {
        const charge = payload.counted?.charge;
        if (charge) await noticeBalance(ctx.deps, charge);
      },
    };
  },
});
