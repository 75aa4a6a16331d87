import {
  ANALYSIS_RATES,
  type AnalysisRate,
  DEFAULT_ANALYSIS_RATE,
  type GuidanceEventLike,
  type GuidanceSummary,
  guidanceSummary,
} from '@emolens/contracts';
import {
  type ContentItemSize,
  type ContentKind,
  decodeFramesTable,
  ENGINE_VERSION,
  type GazePrecision,
  type ResearchTarget,
  type SessionEvent,
  type SessionTask,
  storedGazePrecision,
} from '@emolens/engine';
import type { AppContext } from '../../../context.ts';
import type { JobAttempt } from '../../../jobs/define.ts';
import { reportDigest } from '../digest.ts';
import { joinSegments, ProcessError, runEngineWork } from '../engine-job.ts';
import type { ProcessingRepository, ProcessJobInput } from '../processing.repository.ts';
import { readingsSources } from '../readings-sources.ts';

export async function handle(
  payload: { process_id: string; generation: number },
  ctx: AppContext,
  attempt: JobAttempt,
): Promise<void> {
  const repo = ctx.deps.processing;
  const { process_id: id, generation } = payload;
  if (!(await repo.claim(id, generation, ENGINE_VERSION))) return;
  const log = ctx.log.child({ process: id, generation, attempt: attempt.retryCount });
  log.info('video process started');
  let sessionId: string | undefined;
  let guidance: GuidanceSummary | null = null;
  let logged: { events: SessionEvent[]; researchId: string } | undefined;
  const result = await runEngineWork(ctx, attempt, {
    log,
    async prepare(dir, signal) {
      const input = await repo.jobInput(id);
      if (!input) throw new ProcessError('recording_missing');
      sessionId = input.session_id;
      // The live guidance's notice, counted from the same event log (decision 045).
      guidance = guidanceSummary(input.events as GuidanceEventLike[]);
      logged = { events: input.events as SessionEvent[], researchId: input.campaign_id };
      // Privacy mode (decision 064): a device session's readings go to the same task, without video or ffmpeg.
      const readings = await readingsSources(ctx, input.segments, signal);
      if (readings) {
        return { readings: { ...(await taskFor(repo, input, [])), sources: readings } };
      }
      return taskFor(repo, input, await joinSegments(ctx, input.segments, dir, signal));
    },
    // Canceled or restarted meanwhile: the engine stops, nothing is written.
    progress: (percent) => repo.progress(id, generation, 'in_process', percent),
    fail: async (code) => {
      // Failed for good (a retry cannot cure it, or the last attempt): its subscribers tell the project's owner.
      if (await repo.fail(id, generation, code)) {
        await ctx.queue.publish('recording.failed', { process_id: id, generation });
      }
    },
  });
  if (!result || !sessionId) return;
  const status = result.summary.faceFound ? 'done' : 'detection_error';
  // What reports read; should it fail, the result is stored without it and the first report makes it.
  let digest: Uint8Array | undefined;
  try {
    digest = reportDigest(result.frames, result.series, result.summary.windowMs.start);
  } catch (err) {
    log.warn({ err }, 'report digest not made; the first report will make it');
  }
  // The gaze's precision on the validation dots, from the stored gaze and the event log (decision 052).
  let precision: GazePrecision | null = null;
  try {
    precision = logged ? storedGazePrecision(decodeFramesTable(result.frames), logged.events, logged) : null;
  } catch (err) {
    log.warn({ err }, 'gaze precision not measured');
  }
  const session = sessionId;
  // Published in the transaction that writes the result: its subscribers (the quota's self-service test, the
  // balance, retention) are queued if and only if it is written.
  const written = await repo.finish(id, generation, { status, result, digest, precision }, (counted, trx) =>
    ctx.queue
      .publish(
        'recording.processed',
        {
          process_id: id,
          generation,
          session_id: session,
          status,
          counted: counted && { project_id: counted.projectId, charge: counted.charge },
        },
        { transaction: trx },
      )
      .then(() => undefined),
  );
  if (written && guidance) await ctx.deps.guidance.save(session, guidance);
  log.info({ status, written, usable: result.summary.usable, frames: result.frameCount }, 'video processed');
}

const KINDS: Record<string, ContentKind> = {
  video: 'video',
  pictures: 'pictures',
  shelf: 'shelf',
  site: 'site',
  contentless: 'contentless',
};

/** The research's analysis rate (`contentVideoFps`); the default for a research saved before it. */
function analysisRate(setting: unknown): AnalysisRate {
  return ANALYSIS_RATES.find((rate) => rate === setting) ?? DEFAULT_ANALYSIS_RATE;
}

/**
 * What the engine is asked: the research's window of the respondent's recording, its content's item
 * sizes (by the index the event log shows them under) and the research's quality settings.
 */
async function taskFor(
  repo: ProcessingRepository,
  input: ProcessJobInput,
  sources: SessionTask['sources'],
): Promise<SessionTask> {
  const kind = KINDS[input.content_type] ?? 'contentless';
  const events = input.events as SessionEvent[];
  const items: ContentItemSize[] = [];
  let durationSeconds: number | null = null;
  if (kind === 'video' && input.video?.width && input.video.height) {
    items.push({ width: input.video.width, height: input.video.height });
    durationSeconds = input.video.duration_seconds;
  } else if (kind === 'contentless') {
    durationSeconds = Number(input.settings.contentVideoDuration ?? 60);
  } else if (kind !== 'video') {
    const sizes = new Map((await repo.imageSizes(input.campaign_id)).map((m) => [m.id, m]));
    const place = (index: number, image: unknown) => {
      const size = typeof image === 'string' ? sizes.get(image) : undefined;
      if (size?.width && size.height && index >= 0 && index < 1000) {
        items[index] = { width: size.width, height: size.height };
      }
    };
    if (kind === 'site') {
      const tasks = (input.settings.webResourceScenario ?? []) as { image?: string }[];
      for (const [i, t] of tasks.entries()) place(i, t.image);
    } else {
      const shown = kind === 'pictures' ? 'picture_shown' : 'shelf_shown';
      for (const e of events) if (e.type === shown) place(Number(e.index), e.image);
    }
  }
  const research: ResearchTarget = {
    researchId: input.campaign_id,
    kind,
    // Holes (an item never shown) get the screen's shape from the engine: a zero size says "unknown".
    items: Array.from(items, (item) => item ?? { width: 0, height: 0 }),
    durationSeconds,
  };
  return {
    sources,
    events,
    research,
    fps: analysisRate(input.settings.contentVideoFps),
    multiFace: input.settings.multiFacesMode === true,
    allowedBadFrameShare: Number(input.settings.badFramesPercent ?? 25) / 100,
    gazeRequired: kind === 'pictures' || kind === 'shelf' || kind === 'site',
  };
}
