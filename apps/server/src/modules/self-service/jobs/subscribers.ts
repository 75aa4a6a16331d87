import { defineSubscriber } from '../../../jobs/define.ts';

/** A respondent was counted: a self-service test whose quota is now filled ends its collection and orders its report. */
export const selfServiceOnRecordingProcessed = defineSubscriber({
  name: 'self-service.on-recording-processed',
  event: 'recording.processed',
  load: async () => {
    const { collectionProgress } = await import('../self-service.service.ts');
    return {
      handle: async (payload, ctx) => {
        if (payload.counted) await collectionProgress(ctx.deps, payload.counted.project_id);
      },
    };
  },
});

/** A report was built: the self-service test it was made for moves on and its presentation is made. */
export const selfServiceOnReportBuilt = defineSubscriber({
  name: 'self-service.on-report-built',
  event: 'report.built',
  load: async () => {
    const { reportBuilt } = await import('../self-service.service.ts');
    return { handle: (payload, ctx) => reportBuilt(ctx.deps, payload.report_id) };
  },
});
