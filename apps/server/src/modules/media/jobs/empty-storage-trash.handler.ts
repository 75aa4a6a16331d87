import type { AppContext } from '../../../context.ts';
import { emptyStorageTrash } from '../media.service.ts';

export async function handle(_payload: Record<string, never>, ctx: AppContext): Promise<void> {
  const removed = await emptyStorageTrash(ctx.deps);
  ctx.log.info({ removed }, 'stored files of deleted media removed');
}
