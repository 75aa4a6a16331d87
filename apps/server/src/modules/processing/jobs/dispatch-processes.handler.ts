import type { AppContext } from '../../../context.ts';
import { queueWaiting } from '../processing.service.ts';

export async function handle(_payload: unknown, ctx: AppContext): Promise<void> {
  const sent = await queueWaiting(ctx.deps);
  if (sent) ctx.log.info({ sent }, 'video processes queued by the dispatcher');
}
