import {
  type createReportInput,
  type GazePlot,
  type gazePlotQuery,
  type MessageKey,
  type Playback,
  type PoolableResearch,
  type ReportFilters,
  type ReportSummary,
  ref,
  type reportAreasInput,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { ReportRow, User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { requireAccess } from '../access/access.ts';
import { recordingUrl } from '../fieldwork/fieldwork.service.ts';
import { rescaledGaze } from '../processing/digest.ts';
import { checkAnswerFilters } from '../responses/response-filter.ts';
import { digestOf } from './build/current-digests.ts';
import { fixationsOf } from './build/gaze.ts';
import { itemsOf, scalesOnto } from './build/items.ts';
import { buildReportJob } from './jobs/build-report.job.ts';
import { unmarkedForReports } from './tasks/task-statistics.service.ts';

/**
 * Reports (issue 13; spec sections 2, 3, 8): definitions on a research, built by the `build-report` job into a
 * snapshot. Every refusal of the spec is decided here, before a build is queued, where it can be: a date range
 * that runs backwards ('incorrect timing'), a benchmark on a research with no subtype, filters that take nobody
 * ('no responses for the parameters') or no processed video ('no video processes for the filters'), a second build
 * of the research ('a report is already being generated'); a failed build answers 'the last report failed' to what
 * needs its snapshot.
 */
export type ReportsDeps = Pick<Deps, 'access' | 'reports' | 'surveys' | 'benchmarks' | 'queue' | 'log'>;

type SummaryRow = Omit<ReportRow, 'snapshot' | 'snapshot_text' | 'created_by'>;

function toSummary(row: SummaryRow): ReportSummary {
  const running = row.status === 'in_progress';
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    name: row.name,
    type: row.type,
    step: row.step,
    status: row.status,
    failed: row.failed,
    error_key: row.error_key,
    filters: row.filters,
    segment: row.segment,
    fixations: row.fixations,
    areas: row.areas,
    benchmark: row.benchmark,
    researches: row.researches,
    video_count: row.video_count,
    progress: row.progress,
    created_at: row.created_at.toISOString(),
    built_at: row.built_at?.toISOString() ?? null,
    last_accessed_at: row.last_accessed_at?.toISOString() ?? null,
    can: { rebuild: !running, cancel: running, delete: !running, open: row.status === 'done' },
  };
}

const refuse = (key: MessageKey) => new AppError('invalid_state', { message: key });

/**
 * What must hold before a build is queued: marked tasks where reports use them, a subtype where the report is
 * benchmarked, respondents, processed videos.
 */
async function checkBuildable(
  deps: ReportsDeps,
  researchId: string,
  { filters, benchmark, researches }: { filters: ReportFilters; benchmark: boolean; researches: string[] },
) {
  const pool = [researchId, ...researches];
  for (const id of pool) {
    if ((await unmarkedForReports(deps, id)) > 0) throw refuse('report.unmarkedTasks');
  }
  if (benchmark && !(await deps.benchmarks.subtypeOf(researchId))) throw refuse('report.noSubtype');
  const counts = await deps.reports.counts(pool, filters);
  if (counts.respondents === 0) throw refuse('report.noResponses');
  if (counts.processes === 0) throw refuse('report.noProcesses');
}

async function queueBuild(deps: ReportsDeps, row: SummaryRow) {
  try {
    await deps.queue.send(
      buildReportJob.name,
      { report_id: row.id, generation: row.generation },
      { singletonKey: `${row.id}:${row.generation}` },
    );
  } catch (err) {
    deps.log.error({ err, report: row.id }, 'report build could not be queued');
    await deps.reports.fail(row.id, row.generation, 'report.lastFailed');
  }
}

/**
 * The other researches a report on `researchId` pools (decision 019): each one the user manages, of the same project
 * and content type, showing as many items as the research itself (they are matched by position).
 */
async function checkPool(deps: ReportsDeps, user: User, researchId: string, researches: readonly string[]) {
  if (!researches.length) return;
  const mismatch = () => new AppError('validation_failed', { fields: { researches: 'report.researchMismatch' } });
  if (researches.includes(researchId)) throw mismatch();
  for (const id of researches) await requireAccess(deps.access, user, 'campaign.manage', id);
  const rows = await deps.reports.researches([researchId, ...researches]);
  const home = rows.find((r) => r.id === researchId);
  if (!home || rows.some((r) => r.project_id !== home.project_id || r.content_type !== home.content_type)) {
    throw mismatch();
  }
  const media = await deps.reports.media(rows.map((r) => r.id));
  const count = (row: (typeof rows)[number]) =>
    itemsOf(
      row,
      media.filter((m) => m.campaign_id === row.id),
    ).items.length;
  const own = count(home);
  for (const row of rows) {
    const theirs = count(row);
    if (theirs !== own) {
      throw new AppError('validation_failed', {
        fields: { researches: ref('report.researchItems', { first: own, second: theirs }) },
      });
    }
  }
}

/** GET /api/cabinet/campaigns/{id}/reports/researches/ — what a report on the research may pool. */
export async function poolableResearches(
  deps: ReportsDeps,
  user: User,
  researchId: string,
): Promise<PoolableResearch[]> {
  await requireAccess(deps.access, user, 'campaign.manage', researchId);
  const rows = await deps.reports.poolable(researchId);
  return rows.map((r) => ({ id: r.id, title: r.title, processed: Number(r.processed ?? 0) }));
}

/** GET /api/cabinet/campaigns/{id}/reports/ */
export async function listReports(deps: ReportsDeps, user: User, researchId: string): Promise<ReportSummary[]> {
  await requireAccess(deps.access, user, 'campaign.manage', researchId);
  return (await deps.reports.list(researchId)).map(toSummary);
}

/** POST /api/cabinet/campaigns/{id}/reports/ */
export async function createReport(
  deps: ReportsDeps,
  user: User,
  researchId: string,
  input: z.infer<typeof createReportInput>,
): Promise<ReportSummary> {
  await requireAccess(deps.access, user, 'campaign.manage', researchId);
  const { filters, segment } = input;
  if (filters.date_from && filters.date_to && filters.date_from > filters.date_to) {
    throw new AppError('validation_failed', {
      message: 'report.incorrectTiming',
      fields: { 'filters.date_to': 'report.incorrectTiming' },
    });
  }
  const slots = await deps.surveys.ofResearch(researchId);
  checkAnswerFilters(filters.respondents, [slots.screener, slots.survey], 'filters.respondents');
  if (segment.by === 'answer') {
    const survey = [slots.screener, slots.survey].find((s) => s?.id === segment.survey_id);
    const question = survey?.questions.find((q) => q.id === segment.question);
    if (question?.type !== 'single') {
      throw new AppError('validation_failed', { fields: { 'segment.question': 'survey.unknownQuestion' } });
    }
  }
  await checkPool(deps, user, researchId, input.researches);
  await checkBuildable(deps, researchId, input);
  const row = await deps.reports.create(researchId, user.id, input);
  if (!row) throw refuse('report.alreadyGenerating');
  await queueBuild(deps, row);
  return toSummary(row);
}

export async function reportOf(deps: Pick<ReportsDeps, 'access' | 'reports'>, user: User, id: string) {
  await requireAccess(deps.access, user, 'report.manage', id);
  const row = await deps.reports.summary(id);
  if (!row) throw new AppError('not_found', { message: 'report.notFound' });
  return row;
}

/**
 * GET /api/cabinet/reports/{id}/ — the report and its snapshot in one read, marked accessed: the `reportOutput`
 * JSON, with the snapshot spliced in as the database holds it (the job writes it as the contracts' `ReportSnapshot`).
 */
export async function openReport(deps: ReportsDeps, user: User, id: string): Promise<string> {
  await requireAccess(deps.access, user, 'report.manage', id);
  const row = await deps.reports.open(id);
  if (!row) throw new AppError('not_found', { message: 'report.notFound' });
  const { snapshot_text, ...summary } = row;
  const snapshot = row.status === 'done' && snapshot_text ? snapshot_text : 'null';
  return `${JSON.stringify(toSummary(summary)).slice(0, -1)},"snapshot":${snapshot}}`;
}

/** POST /api/cabinet/reports/{id}/rebuild/ — a new build of the same definition. */
export async function rebuildReport(deps: ReportsDeps, user: User, id: string): Promise<ReportSummary> {
  const current = await reportOf(deps, user, id);
  if (current.status === 'in_progress') throw refuse('report.alreadyGenerating');
  await checkBuildable(deps, current.campaign_id, current);
  const row = await deps.reports.rebuild(id);
  if (!row) throw refuse('report.alreadyGenerating');
  await queueBuild(deps, row);
  return toSummary(row);
}

/**
 * PUT /api/cabinet/reports/{id}/areas/ — areas of interest drawn on a built report's images and video frames, whole;
 * the report is built again with them. Each must name an item of the report that has a size; a time window and key
 * frames belong to a video's area only.
 */
export async function setReportAreas(
  deps: ReportsDeps,
  user: User,
  id: string,
  { areas }: z.infer<typeof reportAreasInput>,
): Promise<ReportSummary> {
  const { snapshot } = await builtSnapshot(deps, user, id);
  const fields: Record<string, MessageKey> = {};
  areas.forEach((a, i) => {
    const item = snapshot.items.find((it) => it.index === a.item);
    if (!item?.width || !item.height) fields[`areas.${i}.item`] = 'validation.choice';
    else if (snapshot.timeline !== 'video' && (a.from !== null || a.to !== null)) {
      fields[`areas.${i}.${a.from !== null ? 'from' : 'to'}`] = 'validation.unknownField';
    } else if (snapshot.timeline !== 'video' && a.key_frames.length) {
      fields[`areas.${i}.key_frames`] = 'validation.unknownField';
    }
  });
  if (Object.keys(fields).length) throw new AppError('validation_failed', { fields });
  // A moving area's shape is its first key frame's (decision 044).
  const stored = areas.map((a) => ({ ...a, shape: a.key_frames[0]?.shape ?? a.shape }));
  const row = await deps.reports.rebuild(id, stored);
  if (!row) throw refuse('report.alreadyGenerating');
  await queueBuild(deps, row);
  return toSummary(row);
}

/** POST /api/cabinet/reports/{id}/cancel/ */
export async function cancelReport(deps: ReportsDeps, user: User, id: string): Promise<ReportSummary> {
  await reportOf(deps, user, id);
  const row = await deps.reports.cancel(id);
  if (!row) throw new AppError('invalid_state', { message: 'errors.invalid_state' });
  return toSummary(row);
}

/** DELETE /api/cabinet/reports/{id}/ — not while it is being built (cancel first). */
export async function deleteReport(deps: ReportsDeps, user: User, id: string): Promise<void> {
  const current = await reportOf(deps, user, id);
  if (current.status === 'in_progress') throw refuse('report.alreadyGenerating');
  await deps.reports.remove(id);
}

/** The snapshot of a done report; the spec's messages for one that is not. */
export async function builtSnapshot(deps: ReportsDeps, user: User, id: string) {
  const row = await reportOf(deps, user, id);
  if (row.failed) throw refuse('report.lastFailed');
  // Read only once the report says it has one.
  const snapshot = row.status === 'done' ? await deps.reports.snapshot(id) : null;
  if (!snapshot) throw refuse('report.notDone');
  return { row, snapshot };
}

/**
 * GET /api/cabinet/reports/{id}/gaze-plot/ — one of the report's respondents' fixations on one item, in order, by the
 * report's own fixation settings (design section 8: gaze plots of single respondents).
 */
/** One of a built report's respondents' gaze track on one item (a picture, shelf, screen or video). */
async function gazeTrackOf(deps: ReportsDeps, user: User, id: string, sessionId: string, index: number) {
  const { row, snapshot } = await builtSnapshot(deps, user, id);
  const person = snapshot.people.find((p) => p.session_id === sessionId);
  if (!person) throw new AppError('not_found', { message: 'fieldwork.sessionNotFound' });
  const item = snapshot.items.find((it) => it.index === index);
  if (!item?.width || !item.height) {
    throw new AppError('validation_failed', { fields: { item: 'validation.choice' } });
  }
  const result = await deps.reports.resultOf(person.process_id);
  if (!result) throw new AppError('not_found', { message: 'fieldwork.sessionNotFound' });
  const read = await digestOf(deps.reports, result);
  // A pooled research's respondent: their gaze scaled onto the report's items (decision 019).
  const digest =
    read && person.campaign_id !== row.campaign_id
      ? rescaledGaze(read, await scalesBetween(deps, row.campaign_id, person.campaign_id))
      : read;
  return { row, item: { ...item, width: item.width, height: item.height }, track: digest?.gaze.get(index) };
}

/** How the items of research `from` map onto those of research `onto`, by position. */
async function scalesBetween(deps: ReportsDeps, onto: string, from: string) {
  const [rows, media] = await Promise.all([deps.reports.researches([onto, from]), deps.reports.media([onto, from])]);
  const itemsIn = (id: string) => {
    const row = rows.find((r) => r.id === id);
    return row
      ? itemsOf(
          row,
          media.filter((m) => m.campaign_id === id),
        ).items
      : [];
  };
  return scalesOnto(itemsIn(onto), itemsIn(from));
}

export async function gazePlot(
  deps: ReportsDeps,
  user: User,
  id: string,
  { session_id, item: index }: z.infer<typeof gazePlotQuery>,
): Promise<GazePlot> {
  const { row, item, track } = await gazeTrackOf(deps, user, id, session_id, index);
  const onset = track?.length ? (track.t[0] as number) : 0;
  const fixations = track ? fixationsOf(track, { width: item.width, height: item.height }, row.fixations) : [];
  return {
    session_id,
    item: index,
    fixations: fixations.map((f) => ({
      start: Math.round((f.start - onset) * 100) / 100,
      end: Math.round((f.end - onset) * 100) / 100,
      x: Math.round(f.x),
      y: Math.round(f.y),
    })),
  };
}

/**
 * GET /api/cabinet/reports/{id}/playback/ — one respondent's gaze on one item over time (at most 10 samples a
 * second, item pixels) and their recording's segments still stored, so the cabinet plays the recording beside the
 * content with the gaze point on it (issue 13, item 6).
 */
export async function playback(
  deps: ReportsDeps,
  user: User,
  id: string,
  { session_id, item: index }: z.infer<typeof gazePlotQuery>,
): Promise<Playback> {
  const { track } = await gazeTrackOf(deps, user, id, session_id, index);
  const onset = track?.length ? (track.t[0] as number) : 0;
  const gaze: Playback['gaze'] = { t: [], x: [], y: [] };
  let last = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < (track?.length ?? 0); i++) {
    const t = (track?.t[i] as number) - onset;
    if (t - last < 0.099) continue;
    last = t;
    gaze.t.push(Math.round(t * 100) / 100);
    gaze.x.push(Math.round(track?.x[i] as number));
    gaze.y.push(Math.round(track?.y[i] as number));
  }
  const segments = await deps.reports.keptSegments(session_id);
  return {
    session_id,
    item: index,
    onset,
    gaze,
    segments: segments.map((s) => ({
      segment: s.segment,
      offset: s.offset_ms / 1000,
      mime_type: s.mime_type,
      url: recordingUrl(session_id, s.segment),
    })),
  };
}
