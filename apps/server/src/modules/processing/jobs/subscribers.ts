import { defineSubscriber } from '../../../jobs/define.ts';

/** A completed session's recordings go to the workers (the dispatcher's sweep sends any this misses). */
export const processCompletedSession = defineSubscriber({
  name: 'processing.on-session-completed',
  event: 'session.completed',
  load: async () => {
    const { queueSession } = await import('../processing.service.ts');
    return { handle: (payload, ctx) => queueSession(ctx.deps, payload.session_id) };
  },
});
