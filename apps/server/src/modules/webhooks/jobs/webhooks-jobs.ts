import { z } from 'zod';
import { defineJob, defineSubscriber } from '../../../jobs/define.ts';

/**
 * Webhooks (decision 066): one subscriber per pipeline event it tells endpoints of, and the delivery job, one run per
 * attempt (its retries are its own messages' schedule, queued with a start time; pg-boss retries only a run that
 * crashed, which the attempt count makes harmless).
 */
export const deliverWebhookJob = defineJob({
  name: 'webhooks.deliver',
  payload: z.object({ message_id: z.string().min(1).max(64) }),
  retryLimit: 2,
  concurrency: () => 4,
  load: async () => {
    const { deliverMessage } = await import('../webhooks.delivery.ts');
    return { handle: (payload, ctx) => deliverMessage(ctx.deps, payload.message_id) };
  },
});

export const webhooksOnSessionCompleted = defineSubscriber({
  name: 'webhooks.on-session-completed',
  event: 'session.completed',
  load: async () => {
    const { onSessionEnd } = await import('../webhooks.events.ts');
    return { handle: (payload, ctx) => onSessionEnd(ctx.deps, payload) };
  },
});

export const webhooksOnSessionEnded = defineSubscriber({
  name: 'webhooks.on-session-ended',
  event: 'session.ended',
  load: async () => {
    const { onSessionEnd } = await import('../webhooks.events.ts');
    return { handle: (payload, ctx) => onSessionEnd(ctx.deps, payload) };
  },
});

export const webhooksOnRecordingProcessed = defineSubscriber({
  name: 'webhooks.on-recording-processed',
  event: 'recording.processed',
  load: async () => {
    const { onRecordingProcessed } = await import('../webhooks.events.ts');
    return { handle: (payload, ctx) => onRecordingProcessed(ctx.deps, payload) };
  },
});

export const webhooksOnReportBuilt = defineSubscriber({
  name: 'webhooks.on-report-built',
  event: 'report.built',
  load: async () => {
    const { onReportBuilt } = await import('../webhooks.events.ts');
    return { handle: (payload, ctx) => onReportBuilt(ctx.deps, payload) };
  },
});

export const webhooksOnSelfServiceStateChanged = defineSubscriber({
  name: 'webhooks.on-self-service-state-changed',
  event: 'self_service.state_changed',
  load: async () => {
    const { onSelfServiceStateChanged } = await import('../webhooks.events.ts');
    return { handle: (payload, ctx) => onSelfServiceStateChanged(ctx.deps, payload) };
  },
});

/** Once a day: the delivery log's finished messages older than `WEBHOOKS_LOG_RETENTION_DAYS` go, with their attempts. */
export const pruneWebhookLogJob = defineJob({
  name: 'webhooks.prune-log',
  payload: z.object({}),
  cron: '23 3 * * *',
  load: async () => ({
    handle: async (_payload, ctx) => {
      const before = new Date(Date.now() - ctx.config.webhooks.logRetentionMs);
      const removed = await ctx.deps.webhooks.pruneLog(before);
      ctx.log.info({ removed, before }, 'webhook delivery log pruned');
    },
  }),
});

export const WEBHOOK_JOBS = [
  deliverWebhookJob,
  pruneWebhookLogJob,
  webhooksOnSessionCompleted,
  webhooksOnSessionEnded,
  webhooksOnRecordingProcessed,
  webhooksOnReportBuilt,
  webhooksOnSelfServiceStateChanged,
];
