import type { AppContext } from '../../../context.ts';
import { isFinalAttempt, type JobAttempt } from '../../../jobs/define.ts';
import { seedDemoProject, stopDemoProject } from '../demo-data.service.ts';

/** The demo project, from wherever an earlier run left it to completed with a report. */
export async function handle(payload: { user_id: string }, ctx: AppContext, attempt: JobAttempt): Promise<void> {
  try {
    await seedDemoProject(ctx, payload.user_id, attempt.signal);
  } catch (err) {
    // No try follows (and the process is not merely stopping): the project will not come along any further.
    if (isFinalAttempt(attempt) && !attempt.signal?.aborted) await stopDemoProject(ctx);
    throw err;
  }
}
