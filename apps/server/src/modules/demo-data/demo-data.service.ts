import { existsSync } from 'node:fs';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  addNewResearchInput,
  CALIBRATION_SECONDS,
  createAccessorLinkInput,
  createProjectInput,
  createReportInput,
  createScenarioInput,
  createSurveyInput,
  phantomTruthInput,
} from '@emolens/contracts';
import { PHOTOS, parseSourceId, type TruthFile } from '@emolens/phantom';
import { truthForUpload } from '@emolens/phantom/session-truth';
import type { AppContext, Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { attachUpload } from '../media/media.service.ts';
import { savePhantomTruth } from '../phantom-truths/phantom-truths.service.ts';
import { createProject, deleteProject, transitionProject } from '../projects/projects.service.ts';
import { createReport } from '../reports/reports.service.ts';
import { addNewResearches } from '../researches/researches.service.ts';
import { createAccessorLink, createScenario } from '../scenarios/scenarios.service.ts';
import { createSurvey } from '../surveys/surveys.service.ts';
import { makeWebcamClips } from './demo-clips.ts';
import type { DemoProjectState } from './demo-data.repository.ts';
import { contentPhotos, makeSlideshow, SLIDE } from './demo-media.ts';
import { recordedJourney, takePart } from './demo-respondent.ts';
import {
  CONTENT_FILENAME,
  DEMO_PERSONAS,
  DEMO_PROJECT,
  DEMO_RESEARCH,
  DEMO_SCREENER,
  DEMO_SURVEY,
  type DemoPersona,
  demoReport,
  SLIDE_SECONDS,
} from './demo-script.ts';
import { seedDemoDataJob } from './jobs/seed-demo-data.job.ts';

/**
 * The demo project (issue 13, item 9; decision 017): on an empty installation, the demo account gets one project
 * made the way an analyst and respondents make one — through the same services — whose recordings the engine
 * processes like any other. One `seed-demo-data` job takes it from nothing to a completed project with a report,
 * waiting (asleep, polling the database) while the workers probe its video and process its recordings. Every step
 * first looks at how far the project has come, so a retried job (a worker killed meanwhile) resumes, never repeats.
 */

/** How often a wait for the workers looks again. */
const POLL_MS = 1000;
/** The longest waits for the workers: the video's probe, the recordings' processing (a slow machine's hour). */
const PROBE_WAIT_MS = 5 * 60_000;
const PROCESSING_WAIT_MS = 50 * 60_000;
/** A respondent whose journey failed is tried once more, no more. */
const TRIES_PER_RESPONDENT = 2;

/** The respondents whose photos this installation has (scikit-image's astronaut comes with python3-skimage). */
export function demoPersonas(): DemoPersona[] {
  return DEMO_PERSONAS.filter((p) => existsSync(PHOTOS[parseSourceId(p.source).photo] ?? ''));
}

/**
 * Queues the seeding of the demo project for the demo account just created. A failure to queue is logged, never
 * thrown: the demo is a courtesy, the start-up goes on without it.
 */
export async function queueDemoData(deps: Pick<Deps, 'queue' | 'log'>, userId: string): Promise<void> {
  try {
    await deps.queue.send(seedDemoDataJob.name, { user_id: userId });
  } catch (err) {
    deps.log.warn({ err }, 'demo project: seeding could not be queued');
  }
}

/** `read` again every second until `done` says so or `ms` have passed; its last value. */
async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number, signal?: AbortSignal) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() >= deadline) return value;
    await sleep(POLL_MS, undefined, signal ? { signal } : {});
  }
}

/** A folder of this process's work directory (WORK_DIR) for the files ffmpeg makes, removed after `use`. */
async function withTempDir<T>(ctx: AppContext, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await ctx.deps.workDir.make('demo');
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The research's video, made now and uploaded as an analyst's file is (stored, then probed by the worker). */
async function uploadContent(ctx: AppContext, user: User, researchId: string): Promise<void> {
  await withTempDir(ctx, async (dir) => {
    const file = join(dir, CONTENT_FILENAME);
    await makeSlideshow(contentPhotos(), SLIDE_SECONDS, file);
    await attachUpload(ctx.deps, user, {
      file,
      size: (await stat(file)).size,
      metadata: { filename: CONTENT_FILENAME, filetype: 'video/webm', campaign_id: researchId },
    });
  });
}

/** The draft: the project (marked demo), its video research, the questionnaires, a scenario, a quota link, the content. */
async function setUp(ctx: AppContext, user: User): Promise<void> {
  const deps = ctx.deps;
  const sample = { ...DEMO_PROJECT, required_respondents: demoPersonas().length };
  const project = await createProject(deps, user, createProjectInput.parse(sample), { demo: true });
  const [research] = await addNewResearches(
    deps,
    user,
    addNewResearchInput.parse({
      project_id: project.id,
      campaigns_data: [{ ...DEMO_RESEARCH, content_type: 'video' }],
    }),
  );
  if (!research) throw new Error('the demo research was not created');
  const screener = await createSurvey(deps, user, createSurveyInput.parse(DEMO_SCREENER));
  const survey = await createSurvey(deps, user, createSurveyInput.parse(DEMO_SURVEY));
  const scenario = await createScenario(
    deps,
    user,
    project.id,
    createScenarioInput.parse({
      campaign_ids: [research.id],
      screener_survey_id: screener.id,
      embedded_survey_id: survey.id,
    }),
  );
  await createAccessorLink(deps, user, scenario.id, createAccessorLinkInput.parse({}), ctx.config.publicUrl);
  // Last: a draft with its content is a whole setup.
  await uploadContent(ctx, user, research.id);
  ctx.log.info({ project: project.id }, 'demo project: set up, content being probed');
}

/**
 * The demo project as far as it came; set up when there is none yet, or again when an interrupted job left a draft
 * without its content.
 */
async function draftOrLater(ctx: AppContext, user: User): Promise<DemoProjectState | undefined> {
  const found = await ctx.deps.demoData.project();
  if (found?.status === 'new' && found.content_status === null) await deleteProject(ctx.deps, user, found.id);
  else if (found) return found;
  await setUp(ctx, user);
  return ctx.deps.demoData.project();
}

/** A draft launched once the worker has probed its video; false when the video did not probe. */
async function launch(ctx: AppContext, user: User, state: DemoProjectState, signal?: AbortSignal): Promise<boolean> {
  const probed = await waitFor(
    () => ctx.deps.demoData.project(),
    (s) => s?.content_status !== 'processing',
    PROBE_WAIT_MS,
    signal,
  );
  if (probed?.content_status !== 'ready') {
    ctx.log.error({ project: state.id, content: probed?.content_status }, 'demo project: its video is not playable');
    await ctx.deps.demoData.stop(state.id);
    return false;
  }
  await transitionProject(ctx.deps, user, state.id, 'launch');
  ctx.log.info({ project: state.id }, 'demo project: launched');
  return true;
}

/** The respondents who have not completed yet, each tried at most twice. */
async function dueRespondents(ctx: AppContext, projectId: string): Promise<DemoPersona[]> {
  const done = await ctx.deps.demoData.participants(projectId);
  return demoPersonas().filter((p) => {
    const seen = done.get(p.participant);
    return !seen || (!seen.completed && seen.sessions < TRIES_PER_RESPONDENT);
  });
}

/**
 * The due respondents take part, all at once, each with a recording as long as the journey. One who fails is
 * logged: the demo goes on with the others.
 */
async function fieldwork(ctx: AppContext, user: User, state: DemoProjectState, signal?: AbortSignal): Promise<void> {
  const due = await dueRespondents(ctx, state.id);
  const [first] = due;
  if (!first || !state.token || !state.campaign_id) return;
  const link = {
    token: state.token,
    researchId: state.campaign_id,
    calibrationSeconds: CALIBRATION_SECONDS[DEMO_PROJECT.flow_type],
    videoSeconds: state.content_seconds ?? contentPhotos().length * SLIDE_SECONDS,
  };
  // Every journey lasts as long (only the dots' places differ with the screen).
  const journey = recordedJourney(link.researchId, first.screen, link.calibrationSeconds, link.videoSeconds);
  const seconds = journey.recordingMs / 1000 + 0.5;
  const signing = { secret: ctx.secret };
  await withTempDir(ctx, async (dir) => {
    // Each respondent starts as soon as their recording is made: the journeys run in real time, mostly waiting,
    // while the next recordings are drawn.
    const journeys: Promise<unknown>[] = [];
    const started: string[] = [];
    const input = { dir, participants: due.map((p) => p.participant), link, seconds };
    const drawing = makeWebcamClips({ ...input, content: { width: SLIDE.width, height: SLIDE.height } }, (clip) => {
      const persona = due.find((p) => p.participant === clip.participant);
      if (!persona) return;
      started.push(persona.participant);
      journeys.push(
        (async () => {
          const video = await readFile(clip.video);
          const file = JSON.parse(await readFile(clip.truth, 'utf8')) as TruthFile;
          const truth = phantomTruthInput.parse(truthForUpload(file));
          const { sessionId } = await takePart(ctx.deps, signing, link, persona, video, signal);
          // The phantom's truth beside its session, as for any phantom taken through the respondent API (decision
          // 035): the research statistic page shows the engine's error against it, respondent by respondent.
          await savePhantomTruth(ctx.deps, user, sessionId, truth);
        })(),
      );
    });
    const made = await Promise.allSettled([drawing]);
    if (made[0]?.status === 'rejected') ctx.log.warn({ err: made[0].reason }, 'demo project: recordings not all made');
    ctx.log.info(
      { project: state.id, respondents: started.length },
      'demo project: recordings made, journeys going on',
    );
    const outcomes = await Promise.allSettled(journeys);
    outcomes.forEach((o, i) => {
      if (o.status === 'rejected') {
        ctx.log.warn({ err: o.reason, participant: started[i] }, 'demo respondent failed');
      }
    });
  });
}

/** The report the project opens with, then the project completed: nothing more is collected. */
async function finish(ctx: AppContext, user: User, state: DemoProjectState): Promise<void> {
  if (!state.campaign_id || !state.survey_id) return;
  if ((await ctx.deps.demoData.reportCount(state.campaign_id)) === 0) {
    try {
      await createReport(ctx.deps, user, state.campaign_id, createReportInput.parse(demoReport(state.survey_id)));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Nothing usable to report (say, the engine failed on every recording): the processing states show why.
      ctx.log.warn({ err, project: state.id }, 'demo project: no report could be built');
      await ctx.deps.demoData.stop(state.id);
      return;
    }
  }
  await transitionProject(ctx.deps, user, state.id, 'complete');
  ctx.log.info({ project: state.id }, 'demo project: completed, its report is being built');
}

/** Launched: the respondents take part, the workers process their recordings, then the report. */
async function collect(ctx: AppContext, user: User, state: DemoProjectState, signal?: AbortSignal): Promise<void> {
  const researchId = state.campaign_id;
  if (!researchId) return;
  await fieldwork(ctx, user, state, signal);
  const processing = await waitFor(
    () => ctx.deps.demoData.processing(researchId),
    (p) => p.unfinished === 0,
    PROCESSING_WAIT_MS,
    signal,
  );
  if (processing.unfinished > 0) {
    ctx.log.warn({ project: state.id, ...processing }, 'demo project: recordings still not processed; no report');
    await ctx.deps.demoData.stop(state.id);
    return;
  }
  await finish(ctx, user, state);
}

/** The seeding's last try failed: the demo project is no longer shown as being prepared (issue 28 item 11). */
export async function stopDemoProject(ctx: AppContext): Promise<void> {
  const state = await ctx.deps.demoData.project();
  if (state) await ctx.deps.demoData.stop(state.id);
}

/**
 * The demo project for the demo account, from wherever it is to completed with a report: set up, launched once its
 * video is probed, respondents, their recordings processed, the report. A project that changed hands, was
 * completed or archived is left as it is.
 */
export async function seedDemoProject(ctx: AppContext, userId: string, signal?: AbortSignal): Promise<void> {
  const user = await ctx.deps.users.findById(userId);
  if (!user?.is_active) return;
  const state = await draftOrLater(ctx, user);
  if (!state || state.owner_id !== user.id) return;
  if (state.status === 'new' && !(await launch(ctx, user, state, signal))) return;
  if (state.status !== 'new' && state.status !== 'active') return;
  await collect(ctx, user, { ...state, status: 'active' }, signal);
}
