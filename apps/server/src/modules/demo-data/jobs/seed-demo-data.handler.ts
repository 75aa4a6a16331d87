import type { AppContext } from '../../../context.ts';
import type { JobAttempt } from '../../../jobs/define.ts';
import { seedDemoProject } from '../demo-data.service.ts';

/** The demo project, from wherever an earlier run left it to completed with a report. */
export async function handle(payload: { user_id: string }, ctx: AppContext, attempt: JobAttempt): Promise<void> {
  await seedDemoProject(ctx, payload.user_id, attempt.signal);
}
