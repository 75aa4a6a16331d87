import type { AppContext } from '../../../context.ts';
import { cleanExpired } from '../auth.service.ts';

export async function handle(_payload: Record<string, never>, ctx: AppContext): Promise<void> {
  const removed = await cleanExpired(ctx.deps);
  ctx.log.info(removed, 'expired sessions cleaned');
}
