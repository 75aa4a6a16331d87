import {
  CALIBRATION_SECONDS,
  createReportInput,
  type createSelfServiceInput,
  type MessageKey,
  missingTranslations,
  type moderateSelfServiceInput,
  ref,
  type SelfServiceList,
  type SelfServiceSummary,
  type SelfServiceTest,
  sessionsPerInterview,
  surveyProblems,
  type updateSelfServiceInput,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import { isUuid } from '../../db/sql.ts';
import type { ResearchCategories, User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { can, requireRole } from '../access/access.ts';
import { checkedCategories } from '../benchmarks/benchmarks.service.ts';
import { noticeBalance } from '../licences/licences.service.ts';
import type { ResearchMedia } from '../media/media.repository.ts';
import { notify } from '../notifications/notifications.service.ts';
import { generateReportFile, type ReportFilesDeps } from '../reports/report-files.service.ts';
import { createReport } from '../reports/reports.service.ts';
import type { SelfServiceRow } from './self-service.repository.ts';

/**
 * Self-service video-ad tests (issue 15, items 1 and 2; spec section 4). The states and who moves them:
 * draft → moderation (the owner sends it; irreversible: nothing can be edited after) → moderation_ok (staff
 * approve) or back to draft with the moderators' comment (staff return it) → collection (the owner starts it: the
 * session count is frozen and charged; it cannot be cancelled) → report_processing (the quota is filled with usable
 * respondents: the report is built) → report_completed (the report is built) → completed (owner or staff) →
 * archived. Every move is conditional on the state it leaves, so a second send, approval or start changes nothing.
 */
export type SelfServiceDeps = Pick<
  Deps,
  | 'access'
  | 'selfService'
  | 'media'
  | 'surveys'
  | 'licences'
  | 'notifications'
  | 'benchmarks'
  | 'reports'
  | 'queue'
  | 'log'
>;

const isStaff = (user: User) => can(user, 'selfService.moderate');
const nameOf = (u: { username: string | null; first_name: string | null; last_name: string | null }) =>
  [u.first_name, u.last_name].filter(Boolean).join(' ') || u.username || '';

/**
 * Tells the subscribers (webhooks) the test moved (decision 027). The move is made: a publish that fails is logged,
 * never undone or answered as an error.
 */
async function stateChanged(deps: SelfServiceDeps, testId: string, state: string): Promise<void> {
  try {
    await deps.queue.publish('self_service.state_changed', {
      test_id: testId,
      state,
      changed_at: new Date().toISOString(),
    });
  } catch (err) {
    deps.log.warn({ err, test: testId }, 'self_service.state_changed not published');
  }
}

/** The test, when it is the user's (staff: any); else "not found". */
async function loadTest(deps: SelfServiceDeps, user: User, id: string): Promise<SelfServiceRow> {
  const row = isUuid(id) ? await deps.selfService.find(id) : undefined;
  if (!row || (row.owner_id !== user.id && !isStaff(user))) {
    throw new AppError('not_found', { message: 'selfservice.notFound' });
  }
  return row;
}

/** The test's video (the latest uploaded) and the sessions one interview takes once its length is known. */
function videoIn(row: SelfServiceRow, media: readonly ResearchMedia[]) {
  const video = media
    .filter((m) => m.campaign_id === row.campaign_id && m.kind === 'video')
    .sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime())[0];
  const ready = video?.status === 'ready' && video.duration_seconds !== null;
  const perInterview =
    row.sessions_per_interview ??
    (ready ? sessionsPerInterview(CALIBRATION_SECONDS.new + (video.duration_seconds ?? 0)) : null);
  return { video, ready, perInterview };
}

async function videoOf(deps: SelfServiceDeps, row: SelfServiceRow) {
  return videoIn(row, await deps.media.listForResearches([row.campaign_id]));
}

/** The price in sessions before the start: sessions per interview × respondents (null while the length is unknown). */
function estimate(row: SelfServiceRow, media: readonly ResearchMedia[]): number | null {
  const { perInterview } = videoIn(row, media);
  return perInterview === null ? null : perInterview * row.respondents;
}

/** Why the survey is not ready: empty when every question is sound and every text is there in the test's language. */
async function surveyProblemsOf(deps: SelfServiceDeps, row: SelfServiceRow): Promise<MessageKey[]> {
  const survey = row.survey_id ? await deps.surveys.find(row.survey_id) : undefined;
  if (!survey) return ['selfservice.surveyIncomplete'];
  const body = { type: survey.type, title: survey.title, questions: survey.questions };
  return surveyProblems(body).length || missingTranslations(body, [row.language]).length
    ? ['selfservice.surveyIncomplete']
    : [];
}

/** What a draft lacks before it can be sent to moderation (message keys; empty: nothing). */
function draftProblems(
  row: SelfServiceRow,
  { video, ready }: Pick<ReturnType<typeof videoIn>, 'video' | 'ready'>,
  surveyProblems: MessageKey[],
): MessageKey[] {
  const problems: MessageKey[] = [];
  if (!video) problems.push('selfservice.videoMissing');
  else if (video.status === 'failed') problems.push('selfservice.videoFailed');
  else if (!ready) problems.push('selfservice.videoNotReady');
  if (!row.categories.subtype) problems.push('selfservice.subtypeMissing');
  return [...problems, ...surveyProblems];
}

function summaryOf(row: SelfServiceRow, sessions: number | null): SelfServiceSummary {
  return {
    id: row.id,
    title: row.title,
    state: row.state,
    collected: Number(row.collected ?? 0),
    required: row.respondents,
    sessions,
    owner: { public_user_id: row.public_user_id, username: row.username, name: nameOf(row) },
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    submitted_at: row.submitted_at ? new Date(row.submitted_at).toISOString() : null,
    started_at: row.started_at ? new Date(row.started_at).toISOString() : null,
  };
}

async function toTest(
  deps: SelfServiceDeps,
  user: User,
  row: SelfServiceRow,
  origin: string,
): Promise<SelfServiceTest> {
  const [{ video, ready, perInterview }, surveyProblems, { account }, history] = await Promise.all([
    videoOf(deps, row),
    surveyProblemsOf(deps, row),
    deps.licences.account(row.owner_id),
    deps.selfService.history(row.id),
  ]);
  const sessions = row.session_count ?? (perInterview === null ? null : perInterview * row.respondents);
  const problems: MessageKey[] = row.state === 'draft' ? draftProblems(row, { video, ready }, surveyProblems) : [];
  const balance = account?.balance ?? null;
  if (row.state === 'moderation_ok' && sessions !== null && (balance ?? 0) < sessions) {
    problems.push('selfservice.balanceShort');
  }
  const owner = row.owner_id === user.id;
  const staff = isStaff(user);
  return {
    ...summaryOf(row, sessions),
    language: row.language,
    audience: row.audience,
    categories: row.categories,
    campaign_id: row.campaign_id,
    project_id: row.project_id,
    video: video
      ? { id: video.id, filename: video.filename, status: video.status, duration_seconds: video.duration_seconds }
      : null,
    survey_id: row.survey_id ?? '',
    survey_problems: surveyProblems,
    sessions_per_interview: perInterview,
    balance,
    moderation_comment: row.moderation_comment,
    report_id: row.report_id,
    quota_link: row.link_token ? `${origin}/project-research/${row.link_token}` : null,
    history: history.map((h) => ({
      state: h.state,
      actor: h.username ? nameOf(h) : null,
      comment: h.comment,
      at: new Date(h.created_at).toISOString(),
    })),
    problems,
    can: {
      edit: row.state === 'draft' && owner,
      submit: row.state === 'draft' && owner && problems.length === 0,
      moderate: row.state === 'moderation' && staff,
      start: row.state === 'moderation_ok' && owner && problems.length === 0,
      complete: row.state === 'report_completed' && (owner || staff),
      archive: row.state === 'completed' && (owner || staff),
      delete: row.state === 'draft' && owner,
    },
  };
}

/** GET …/{id}/ — the test as the user sees it; `origin` is the installation's public address (its quota link). */
export async function getTest(deps: SelfServiceDeps, user: User, id: string, origin: string): Promise<SelfServiceTest> {
  return toTest(deps, user, await loadTest(deps, user, id), origin);
}

/** GET /api/cabinet/self-service/ — the user's tests; staff also the moderation queue or every test. */
export async function listTests(
  deps: SelfServiceDeps,
  user: User,
  scope: 'mine' | 'moderation' | 'all',
): Promise<SelfServiceList> {
  if (scope !== 'mine') requireRole(user, 'selfService.moderate');
  const rows = await deps.selfService.list(
    scope === 'mine' ? { ownerId: user.id } : scope === 'moderation' ? { state: 'moderation' } : {},
  );
  // Before the start, the price is the estimate from the video's length (all the tests' videos in one query).
  const media = await deps.media.listForResearches(
    rows.filter((r) => r.session_count === null).map((r) => r.campaign_id),
  );
  return {
    items: rows.map((row) => summaryOf(row, row.session_count ?? estimate(row, media))),
    can: { create: can(user, 'selfService.create'), moderate: can(user, 'selfService.moderate') },
  };
}

/** POST /api/cabinet/self-service/ */
export async function createTest(
  deps: SelfServiceDeps,
  user: User,
  input: z.infer<typeof createSelfServiceInput>,
): Promise<string> {
  requireRole(user, 'selfService.create');
  return deps.selfService.createDraft({ ownerId: user.id, title: input.title, language: input.language });
}

/** PATCH /api/cabinet/self-service/{id}/ — a draft only. */
export async function updateTest(
  deps: SelfServiceDeps,
  user: User,
  id: string,
  input: z.infer<typeof updateSelfServiceInput>,
): Promise<void> {
  const row = await loadTest(deps, user, id);
  // Only its owner edits a draft; what left the draft is frozen for everyone.
  if (row.state !== 'draft' || row.owner_id !== user.id) {
    throw new AppError('invalid_state', { message: 'selfservice.notEditable' });
  }
  let categories: ResearchCategories | undefined;
  if (input.categories) {
    const checked = await checkedCategories(
      deps,
      input.categories,
      { categories: row.categories, content_type: 'video' },
      'video',
    );
    if (Object.keys(checked.fields).length) {
      throw new AppError('validation_failed', { fields: checked.fields });
    }
    categories = { ...row.categories, ...input.categories, ...checked.categories };
  }
  const done = await deps.selfService.updateDraft(id, new Date(input.updated_at), {
    title: input.title,
    respondents: input.respondents,
    audience: input.audience,
    categories,
  });
  if (!done) {
    const now = await deps.selfService.find(id);
    throw now?.state === 'draft'
      ? new AppError('conflict')
      : new AppError('invalid_state', { message: 'selfservice.notEditable' });
  }
}

/** DELETE /api/cabinet/self-service/{id}/ — a draft, with the project and survey made for it. */
export async function deleteTest(deps: SelfServiceDeps, user: User, id: string): Promise<void> {
  const row = await loadTest(deps, user, id);
  if (row.owner_id !== user.id || !(await deps.selfService.deleteDraft(id))) {
    throw new AppError('invalid_state', { message: 'selfservice.cannot.delete' });
  }
}

/** POST …/submit/ — the owner sends a complete draft to moderation; from then on it cannot be edited. */
export async function submitTest(deps: SelfServiceDeps, user: User, id: string): Promise<void> {
  const row = await loadTest(deps, user, id);
  if (row.owner_id !== user.id || row.state !== 'draft') {
    throw new AppError('invalid_state', { message: 'selfservice.cannot.submit' });
  }
  const [video, survey] = await Promise.all([videoOf(deps, row), surveyProblemsOf(deps, row)]);
  const [problem] = draftProblems(row, video, survey);
  if (problem)
    throw new AppError('invalid_state', { message: problem as MessageKey, fields: { test: problem as MessageKey } });
  if (!(await deps.selfService.transition(id, ['draft'], 'moderation', user.id, { submitted: true }))) {
    throw new AppError('invalid_state', { message: 'selfservice.cannot.submit' });
  }
  await stateChanged(deps, id, 'moderation');
}

/** POST …/moderation/ (staff) — approve, or return the test to its owner as a draft with the comment. */
export async function moderateTest(
  deps: SelfServiceDeps,
  user: User,
  id: string,
  input: z.infer<typeof moderateSelfServiceInput>,
): Promise<void> {
  requireRole(user, 'selfService.moderate');
  const row = await loadTest(deps, user, id);
  const approve = input.decision === 'approve';
  const moved = await deps.selfService.transition(id, ['moderation'], approve ? 'moderation_ok' : 'draft', user.id, {
    comment: input.comment || undefined,
    moderationComment: approve ? null : input.comment,
  });
  if (!moved) throw new AppError('invalid_state', { message: 'selfservice.cannot.moderate' });
  await stateChanged(deps, id, approve ? 'moderation_ok' : 'draft');
  await notify(deps, {
    userId: row.owner_id,
    kind: approve ? 'moderation_approved' : 'moderation_returned',
    params: { project: row.title },
    link: `/cabinet/self-service/${id}`,
    dedupeKey: `self_service:${id}:${approve ? 'approved' : 'returned'}:${Date.now()}`,
  });
}

/**
 * POST …/start/ — the owner starts a moderated test: the session count (sessions per interview × respondents) is
 * frozen and charged, refused whole when the balance cannot cover it; then the scenario, survey and quota link are
 * made and the project launched. Started once; a start whose collection was not opened (a crash between the two)
 * opens it when asked again.
 */
export async function startTest(deps: SelfServiceDeps, user: User, id: string): Promise<void> {
  const row = await loadTest(deps, user, id);
  if (row.owner_id !== user.id) throw new AppError('invalid_state', { message: 'selfservice.cannot.start' });
  if (row.state === 'collection' && !row.link_id) {
    await deps.selfService.openCollection(id);
    return;
  }
  const { perInterview } = await videoOf(deps, row);
  if (row.state !== 'moderation_ok' || perInterview === null) {
    throw new AppError('invalid_state', { message: 'selfservice.cannot.start' });
  }
  const sessions = perInterview * row.respondents;
  const started = await deps.selfService.start(id, {
    ownerId: row.owner_id,
    projectId: row.project_id,
    perInterview,
    sessions,
  });
  if (started === 'not_moderated') throw new AppError('invalid_state', { message: 'selfservice.cannot.start' });
  if ('short' in started) {
    throw new AppError('invalid_state', {
      message: ref('selfservice.balanceLow', { needed: sessions, balance: started.balance }),
    });
  }
  await stateChanged(deps, id, 'collection');
  await noticeBalance(deps, { ...started, userId: row.owner_id });
  await deps.selfService.openCollection(id);
}

/** POST …/complete/ — a test whose report is ready is completed (its project too); POST …/archive/ then. */
export async function closeTest(
  deps: SelfServiceDeps,
  user: User,
  id: string,
  action: 'complete' | 'archive',
): Promise<void> {
  await loadTest(deps, user, id);
  const moved =
    action === 'complete'
      ? await deps.selfService.close(id, 'report_completed', 'completed', user.id)
      : await deps.selfService.close(id, 'completed', 'archived', user.id);
  if (!moved) throw new AppError('invalid_state', { message: `selfservice.cannot.${action}` });
  await stateChanged(deps, id, action === 'complete' ? 'completed' : 'archived');
}

/**
 * A respondent of the test's project was counted: when the quota is filled with usable respondents, collection
 * ends (the link answers "quota full" by itself), the owner is told and the report is built as the owner.
 */
export async function collectionProgress(
  deps: SelfServiceDeps & Pick<Deps, 'users'>,
  projectId: string,
): Promise<void> {
  const test = await deps.selfService.byProject(projectId);
  if (test?.state !== 'collection') return;
  const row = await deps.selfService.find(test.id);
  if (!row || Number(row.collected ?? 0) < row.respondents) return;
  if (!(await deps.selfService.transition(test.id, ['collection'], 'report_processing', null))) return;
  await stateChanged(deps, test.id, 'report_processing');
  await notify(deps, {
    userId: row.owner_id,
    kind: 'collection_finished',
    params: { research: row.title },
    link: `/cabinet/self-service/${row.id}`,
    dedupeKey: `self_service:${row.id}:collected`,
  });
  const owner = await deps.users.findById(row.owner_id);
  if (!owner) return;
  try {
    const report = await createReport(
      deps,
      owner,
      row.campaign_id,
      createReportInput.parse({ name: 'Report', segment: { by: 'none' }, benchmark: !!row.categories.subtype }),
    );
    await deps.selfService.setReport(row.id, report.id);
  } catch (err) {
    deps.log.error({ err, test: row.id }, 'self-service report not started');
  }
}

/**
 * A report was built: the test it was made for has its report, and its presentation is made (in the respondents'
 * language) for the owner to download; staff may attach their own in its place on the report's presentation page.
 */
export async function reportBuilt(
  deps: SelfServiceDeps & ReportFilesDeps & Pick<Deps, 'users'>,
  reportId: string,
): Promise<void> {
  const test = await deps.selfService.byReport(reportId);
  if (!test) return;
  if (!(await deps.selfService.transition(test.id, ['report_processing'], 'report_completed', null))) return;
  await stateChanged(deps, test.id, 'report_completed');
  const owner = await deps.users.findById(test.owner_id);
  if (!owner) return;
  try {
    await generateReportFile(deps, owner, reportId, 'presentation', { language: test.language, theme: 'colour' });
  } catch (err) {
    deps.log.error({ err, test: test.id }, 'self-service presentation not started');
  }
}
