import { sessionsCounted } from '@emolens/contracts';
import { decodeFramesTable, ENGINE_VERSION, FRAME_FLAGS } from '@emolens/engine';
import type { AppContext } from '../../../context.ts';
import type { JobAttempt } from '../../../jobs/define.ts';
import { noticeBalance } from '../../licences/licences.service.ts';
import { runEngineWork } from '../../processing/engine-job.ts';
import type { FlagCounts } from '../interview-analysis.repository.ts';

/** Frames carrying each quality flag. */
export function flagCounts(frames: Uint8Array): FlagCounts {
  const flags = decodeFramesTable(frames).columns.flags;
  const counts: FlagCounts = { no_face: 0, several_faces: 0, head_turned: 0, too_dark: 0 };
  for (const value of flags) {
    for (const name of Object.keys(counts) as (keyof FlagCounts)[]) if (value & FRAME_FLAGS[name]) counts[name]++;
  }
  return counts;
}

export async function handle(payload: { demo_id: string }, ctx: AppContext, attempt: JobAttempt): Promise<void> {
  const repo = ctx.deps.interviewAnalysis;
  const id = payload.demo_id;
  const claimed = await repo.claim(id, ENGINE_VERSION);
  if (!claimed) return;
  const log = ctx.log.child({ demo: id, attempt: attempt.retryCount });
  const result = await ctx.deps.storage.withLocalFile(claimed.storage_key, (file) =>
    runEngineWork(ctx, attempt, {
      log,
      // The whole recording, no research window; interviews track every face.
      prepare: async () => ({
        sources: [{ file, offsetMs: 0 }],
        events: [],
        research: null,
        fps: 10,
        multiFace: claimed.kind === 'interview',
      }),
      // Deleted meanwhile: the engine stops.
      progress: (percent) => repo.progress(id, percent),
      fail: (code) => repo.fail(id, code),
    }),
  );
  if (!result) return;
  const sessions = claimed.kind === 'interview' ? sessionsCounted(result.recordingSeconds) : null;
  const written = await repo.finish(id, result, { flags: flagCounts(result.frames), sessionsCounted: sessions });
  log.info({ written, frames: result.frameCount, seconds: result.recordingSeconds }, 'demo analysed');
  // An interview analysis consumes the sessions it counted from a metered account (issue 15, item 3).
  if (written && sessions) {
    const charge = await ctx.deps.licences.chargeAnalysis(claimed.owner_id, id, result.recordingSeconds, sessions);
    if (charge && 'charged' in charge) await noticeBalance(ctx.deps, { ...charge, userId: claimed.owner_id });
  }
}
