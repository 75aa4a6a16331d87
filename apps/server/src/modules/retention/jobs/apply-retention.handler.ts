import type { AppContext } from '../../../context.ts';
import type { JobAttempt } from '../../../jobs/define.ts';
import { applyRetention } from '../retention.service.ts';

export async function handle(_payload: Record<string, never>, ctx: AppContext, attempt: JobAttempt): Promise<void> {
  const run = await applyRetention(ctx.deps, { signal: attempt.signal });
  // Each deletion is also recorded per project in data_deletions.
  ctx.log.info(run, 'retention applied');
}
