import {
  CHECK_TOKEN_LIMIT,
  type CheckedToken,
  effectiveSessionStatus,
  FIELDWORK_COUNT_KEYS,
  type FieldworkCounts,
  type QuotaStatistics,
  type RespondentSessionItem,
  type respondentSessionListQuery,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import { isUuid } from '../../db/sql.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { checkAccess, requireAccess } from '../access/access.ts';
import type { StoredFile } from '../media/serving.ts';
import { verifyCompletionCodes } from '../respondents/completion-code.ts';
import type { FieldworkGroup, SessionFilter } from './fieldwork.repository.ts';

export type FieldworkDeps = Pick<Deps, 'access' | 'fieldwork' | 'sessionEnds' | 'storage'>;

function emptyCounts(quota: number | null): FieldworkCounts {
  return {
    quota,
    ...(Object.fromEntries(FIELDWORK_COUNT_KEYS.map((key) => [key, 0])) as Omit<FieldworkCounts, 'quota'>),
  };
}

/** The sum, or null (no limit) when there is nothing to add or one of them is unlimited. */
function sumOrNull(values: (number | null)[]): number | null {
  if (!values.length || values.some((v) => v === null)) return null;
  return values.reduce<number>((sum, v) => sum + (v ?? 0), 0);
}

function add(into: FieldworkCounts, group: FieldworkGroup): void {
  for (const key of FIELDWORK_COUNT_KEYS) into[key] += group[key];
}

/**
 * Quota statistics of a project (the public /quote page and the cabinet's fieldwork panel). A
 * complete is a completion whose slot processing has confirmed (quota state `counted`); `pending`
 * is a completion still held while its recording is processed; a released completion (excluded
 * by quality) counts in neither. A started session quiet for `dropOutAfterMinutes` is a drop-out
 * (`effectiveSessionStatus`, the one rule of every view). A respondent the full quota turned away at the
 * start page counts under `quota_full` with the sessions that found it full. A draft's preview sessions
 * are never counted. No personal data: only numbers and the steps.
 */
export async function quotaStatistics(deps: Pick<Deps, 'fieldwork'>, projectId: string): Promise<QuotaStatistics> {
  const project = isUuid(projectId) ? await deps.fieldwork.findProject(projectId) : undefined;
  if (!project) throw new AppError('not_found', { message: 'project.notFound' });
  const [layout, groups, turnAways] = await Promise.all([
    deps.fieldwork.quotaLayout(project.id),
    deps.fieldwork.fieldworkGroups(project.id, new Date()),
    deps.fieldwork.turnAways(project.id),
  ]);
  const linkCounts = new Map(layout.links.map((link) => [link.id, emptyCounts(link.quota_size)]));
  // A scenario's quota is its own, else what its links allow together (unlimited when one link is).
  const scenarioQuota = new Map(
    layout.scenarios.map((s) => {
      const links = layout.links.filter((link) => link.scenario_id === s.id);
      return [s.id, s.quota ?? sumOrNull(links.map((link) => link.quota_size))];
    }),
  );
  const scenarioCounts = new Map(layout.scenarios.map((s) => [s.id, emptyCounts(scenarioQuota.get(s.id) ?? null)]));
  const total = emptyCounts(sumOrNull(layout.scenarios.map((s) => scenarioQuota.get(s.id) ?? null)));
  const droppedAt: Record<string, number> = {};
  for (const group of groups) {
    const link = linkCounts.get(group.link_id);
    if (link) add(link, group);
    const scenario = scenarioCounts.get(group.scenario_id);
    if (scenario) add(scenario, group);
    add(total, group);
    if (group.dropped_out) droppedAt[group.step] = (droppedAt[group.step] ?? 0) + group.dropped_out;
  }
  for (const turned of turnAways) {
    for (const counts of [linkCounts.get(turned.link_id), scenarioCounts.get(turned.scenario_id), total]) {
      if (counts) counts.quota_full += turned.n;
    }
  }
  return {
    project,
    total,
    scenarios: layout.scenarios.map((s) => ({
      id: s.id,
      order_number: s.order_number,
      description: s.description,
      counts: scenarioCounts.get(s.id) ?? emptyCounts(null),
      links: layout.links
        .filter((link) => link.scenario_id === s.id)
        .map((link) => ({ id: link.id, counts: linkCounts.get(link.id) ?? emptyCounts(link.quota_size) })),
    })),
    dropped_at: droppedAt,
  };
}

export async function projectFieldwork(deps: FieldworkDeps, user: User, projectId: string): Promise<QuotaStatistics> {
  await requireAccess(deps.access, user, 'project.manage', projectId);
  return quotaStatistics(deps, projectId);
}

/** Where the cabinet plays a segment's recording. */
export const recordingUrl = (sessionId: string, segment: number) =>
  `/api/cabinet/respondent-sessions/${sessionId}/recordings/${segment}/`;

async function sessionPage(
  deps: FieldworkDeps,
  filter: SessionFilter,
  query: z.output<typeof respondentSessionListQuery>,
) {
  const page = await deps.fieldwork.listSessions(filter, {
    status: query.status,
    now: new Date(),
    limit: query.page_size,
    offset: (query.page - 1) * query.page_size,
  });
  const segments = await deps.fieldwork.segments(page.items.map((s) => s.id));
  const items: RespondentSessionItem[] = page.items.map((s) => ({
    id: s.id,
    link_id: s.link_id,
    scenario_id: s.scenario_id,
    participant_id: s.participant_id,
    platform: s.platform,
    status: s.status,
    step: s.step,
    quota_state: s.quota_state,
    calibration_check: s.calibration_check,
    analysis_site: s.analysis_site,
    fell_back: s.fell_back,
    preview: s.is_preview,
    started_at: s.started_at.toISOString(),
    last_seen_at: s.last_seen_at.toISOString(),
    ended_at: s.ended_at?.toISOString() ?? null,
    segments: segments
      .filter((g) => g.session_id === s.id)
      .map((g) => ({
        segment: g.segment,
        chunks: g.chunks,
        bytes: Number(g.bytes),
        url: recordingUrl(s.id, g.segment),
      })),
  }));
  return { items, total: page.total, page: query.page, page_size: query.page_size };
}

export async function projectSessions(
  deps: FieldworkDeps,
  user: User,
  projectId: string,
  query: z.output<typeof respondentSessionListQuery>,
) {
  await requireAccess(deps.access, user, 'project.manage', projectId);
  return sessionPage(deps, { projectId }, query);
}

export async function researchSessions(
  deps: FieldworkDeps,
  user: User,
  researchId: string,
  query: z.output<typeof respondentSessionListQuery>,
) {
  await requireAccess(deps.access, user, 'campaign.manage', researchId);
  return sessionPage(deps, { researchId }, query);
}

/**
 * A segment's recording as one file: its chunks in order, with their stored sizes (a byte range of the
 * recording reads only the chunks it covers; never a whole recording in memory). The recorder's timeslices
 * of one segment concatenate into one playable WebM (or MP4) stream.
 */
export async function recordingOf(
  deps: FieldworkDeps,
  user: User,
  sessionId: string,
  segment: number,
): Promise<StoredFile> {
  await requireAccess(deps.access, user, 'respondentSession.view', sessionId);
  const recording = await deps.fieldwork.recording(sessionId, segment);
  if (!recording?.chunks.length) throw new AppError('not_found', { message: 'fieldwork.recordingNotFound' });
  const ext = recording.mime_type === 'video/mp4' ? 'mp4' : 'webm';
  return {
    mime: recording.mime_type,
    filename: `${sessionId}-${segment}.${ext}`,
    pieces: recording.chunks.map((c) => ({ key: c.storage_key, size: Number(c.size) })),
  };
}

/** Pasted text → codes: one per line or comma-separated, blanks dropped, repeats once. */
export function splitCodes(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\n,;\r\t ]+/)
        .map((code) => code.trim())
        .filter(Boolean),
    ),
  ];
}

const blank = (code: string, valid: boolean, reason: CheckedToken['reason']): CheckedToken => ({
  code,
  valid,
  reason,
  project: null,
  researches: [],
  participant_id: null,
  outcome: null,
  session_status: null,
  quota_state: null,
  completed_at: null,
});

/**
 * POST /cabinet/check-token/: each pasted code verified — a signed one with the app secret alone (a forged
 * or altered one is never valid), a short one by the session that holds it (none: `session_missing`). A genuine code is matched with its session for the current status,
 * but only within projects the user may see: a code whose session is gone, or belongs to a
 * project the user cannot see, answers `session_missing` with no details (it cannot be told from
 * a deleted session, so nothing of another customer's fieldwork leaks).
 */
export async function checkTokens(deps: FieldworkDeps, user: User, secret: string, text: string) {
  const all = splitCodes(text);
  const codes = all.slice(0, CHECK_TOKEN_LIMIT);
  const verified = await verifyCompletionCodes(secret, codes, deps.sessionEnds.sessionsByCompletionCode);
  const sessionIds = verified.flatMap((v) => (v.valid && isUuid(v.claims.sid) ? [v.claims.sid] : []));
  const sessions = new Map((await deps.fieldwork.codeSessions([...new Set(sessionIds)])).map((s) => [s.id, s]));
  const now = new Date();
  const visible = await checkAccess(
    deps.access,
    user,
    'project.manage',
    [...sessions.values()].map((s) => s.project_id),
  );
  const found = (claims: { sid: string; pid: string }) => {
    const session = sessions.get(claims.sid);
    return session && session.project_id === claims.pid && visible.has(session.project_id) ? session : undefined;
  };
  const projectIds = new Set<string>();
  const researchIds = new Set<string>();
  for (const v of verified) {
    if (!v.valid || !found(v.claims)) continue;
    projectIds.add(v.claims.pid);
    for (const cid of v.claims.cids) if (isUuid(cid)) researchIds.add(cid);
  }
  const [projects, researches] = await Promise.all([
    deps.fieldwork.titles('projects', [...projectIds]),
    deps.fieldwork.titles('campaigns', [...researchIds]),
  ]);
  const projectTitle = new Map(projects.map((p) => [p.id, p.title]));
  const researchTitle = new Map(researches.map((c) => [c.id, c.title]));
  const items = codes.map((code, i): CheckedToken => {
    const v = verified[i];
    if (!v) return blank(code, false, 'malformed');
    if (!v.valid) return blank(code, false, v.reason);
    const session = found(v.claims);
    if (!session) return blank(code, false, 'session_missing');
    return {
      code,
      valid: true,
      reason: null,
      project: { id: session.project_id, title: projectTitle.get(session.project_id) ?? '' },
      researches: v.claims.cids.flatMap((id) => {
        const title = researchTitle.get(id);
        return title === undefined ? [] : [{ id, title }];
      }),
      participant_id: v.claims.par,
      outcome: v.claims.outcome,
      session_status: effectiveSessionStatus(session, now),
      quota_state: session.quota_state,
      completed_at: session.ended_at?.toISOString() ?? null,
    };
  });
  return { items, truncated: all.length > codes.length };
}
