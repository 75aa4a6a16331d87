import type { AppContext } from '../../../context.ts';
import { sweepDeletedFiles } from '../../media/media.service.ts';
import { queueDotTest } from '../dot-test.service.ts';

/** A queued check whose job has not taken it for this long had its job lost: it is sent again. */
const STALLED_SECONDS = 120;
/** A running analysis writes progress every second; silent past its job's whole expiry, it died for good. */
const DEAD_RUN_SECONDS = 2 * 15 * 60;

export async function handle(_payload: Record<string, never>, ctx: AppContext): Promise<void> {
  const deps = ctx.deps;
  let deleted = 0;
  for (;;) {
    const n = await deps.dotTests.deleteExpired(500);
    deleted += n;
    if (n < 500) break;
  }
  // The chunk rows went to the storage trash with their tests: their files go now (the trash job retries).
  if (deleted) await sweepDeletedFiles(deps);
  const stalled = await deps.dotTests.stalled(STALLED_SECONDS);
  for (const id of stalled) await queueDotTest(deps, id);
  const dead = await deps.dotTests.failStalledRuns(DEAD_RUN_SECONDS);
  if (deleted || stalled.length || dead) {
    ctx.log.info({ deleted, requeued: stalled.length, failed: dead }, 'dot tests cleaned');
  }
}
