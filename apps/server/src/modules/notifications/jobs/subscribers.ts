import { defineSubscriber } from '../../../jobs/define.ts';

/** The report's maker (else the project's owner) is told it is built, once per generation. */
export const notifyOnReportBuilt = defineSubscriber({
  name: 'notifications.on-report-built',
  event: 'report.built',
  load: async () => {
    const { notifyReportBuild } = await import('../notifications.service.ts');
    return { handle: (payload, ctx) => notifyReportBuild(ctx.deps, payload.report_id, payload.generation, 'done') };
  },
});

/** The report's maker (else the project's owner) is told its build failed, once per generation. */
export const notifyOnReportFailed = defineSubscriber({
  name: 'notifications.on-report-failed',
  event: 'report.failed',
  load: async () => {
    const { notifyReportBuild } = await import('../notifications.service.ts');
    return { handle: (payload, ctx) => notifyReportBuild(ctx.deps, payload.report_id, payload.generation, 'failed') };
  },
});

/** The project's owner is told a respondent's video process failed for good, once per process. */
export const notifyOnRecordingFailed = defineSubscriber({
  name: 'notifications.on-recording-failed',
  event: 'recording.failed',
  load: async () => {
    const { notifyProcessFailed } = await import('../notifications.service.ts');
    return { handle: (payload, ctx) => notifyProcessFailed(ctx.deps, payload.process_id) };
  },
});
