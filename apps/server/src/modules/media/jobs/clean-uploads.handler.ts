import type { AppContext } from '../../../context.ts';
import { cleanAbandonedUploads } from '../uploads.ts';

export async function handle(_payload: Record<string, never>, ctx: AppContext): Promise<void> {
  const removed = await cleanAbandonedUploads(ctx.config);
  ctx.log.info({ removed }, 'abandoned uploads cleaned');
}
