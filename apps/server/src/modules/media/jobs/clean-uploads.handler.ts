import type { AppContext } from '../../../context.ts';
import { createUploadArea } from '../uploads.ts';

export async function handle(_payload: Record<string, never>, ctx: AppContext): Promise<void> {
  const removed = await createUploadArea(ctx.config, ctx.deps.media, ctx.log).clean();
  ctx.log.info({ removed }, 'abandoned uploads cleaned');
}
