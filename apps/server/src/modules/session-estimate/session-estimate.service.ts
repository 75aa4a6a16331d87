import {
  type BatchEstimate,
  type batchEstimateInput,
  CALIBRATION_SECONDS,
  type MessageKey,
  researchSettingsSchema,
  type SessionEstimate,
  sessionsPerInterview,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { checkAccess } from '../access/access.ts';
import type { ResearchMedia } from '../media/media.repository.ts';
import type { ResearchWithProject } from '../researches/researches.repository.ts';
import { galleryOf } from '../researches/researches.service.ts';

export type SessionEstimateDeps = Pick<Deps, 'access' | 'scenarios' | 'projects' | 'researches' | 'media'>;

/**
 * How long a research keeps a respondent, seconds, or undefined while that is not known (a video
 * still being probed, no content yet). Site tasks count their time limit: the longest they take.
 */
export function contentSeconds(research: ResearchWithProject, media: readonly ResearchMedia[]): number | undefined {
  const sum = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) : undefined);
  switch (research.content_type) {
    case 'contentless':
      return researchSettingsSchema.parse(research.settings).contentVideoDuration;
    case 'video': {
      const videos = media.filter((m) => m.campaign_id === research.id && m.kind === 'video');
      if (videos.some((m) => m.duration_seconds === null)) return undefined;
      return sum(videos.map((m) => m.duration_seconds ?? 0));
    }
    case 'pictures':
      return sum(galleryOf(research, media).items.map((item) => item.duration_seconds));
    case 'shelf':
      return sum(research.shelf_content_scenario.map((display) => display.duration_seconds));
    case 'site': {
      const settings = researchSettingsSchema.parse(research.settings);
      return sum(
        settings.webResourceScenario.map((task) => (task.is_timeout ? task.timeout : settings.taskTimeLimitSeconds)),
      );
    }
  }
}

const NOT_FOUND: MessageKey = 'session.estimateNotFound';

/** One interview of a scenario (access checked): its length and the researches of unknown length. */
async function interviewOf(deps: SessionEstimateDeps, scenarioId: string) {
  const scenario = await deps.scenarios.find(scenarioId);
  const project = scenario ? await deps.projects.find(scenario.project_id) : undefined;
  if (!scenario || !project) throw new AppError('not_found', { message: NOT_FOUND });
  const ids = scenario.researches.map((c) => c.id);
  const [rows, media] = await Promise.all([deps.researches.listByIds(ids), deps.media.listForResearches(ids)]);
  let seconds = CALIBRATION_SECONDS[project.flow_type];
  const unknown: SessionEstimate['unknown_durations'] = [];
  // In the scenario's order, so that the unknown ones are named as the analyst lists them.
  for (const research of ids.flatMap((cid) => rows.filter((row) => row.id === cid))) {
    const length = contentSeconds(research, media);
    if (length === undefined) unknown.push({ id: research.id, title: research.title });
    else seconds += length;
  }
  return { scenario, seconds, unknown };
}

/**
 * POST /entity_session/batch-estimate-count/: the sessions (5-minute intervals, spec section 9)
 * the fieldwork of each scenario or quota link will use — calibration plus everything its
 * scenario shows, per respondent, times the respondents. Links of one scenario share its interview.
 */
export async function batchEstimate(
  deps: SessionEstimateDeps,
  user: User,
  input: z.output<typeof batchEstimateInput>,
): Promise<BatchEstimate> {
  const idsOf = (type: (typeof input.items)[number]['type']) =>
    input.items.filter((item) => item.type === type).map((item) => item.id);
  const [scenarios, links] = await Promise.all([
    checkAccess(deps.access, user, 'scenario.manage', idsOf('scenario')),
    checkAccess(deps.access, user, 'quotaLink.manage', idsOf('project_accessor_link')),
  ]);
  const allowed = { scenario: scenarios, project_accessor_link: links };
  if (input.items.some((item) => !allowed[item.type].has(item.id)))
    throw new AppError('not_found', { message: NOT_FOUND });
  const interviews = new Map<string, ReturnType<typeof interviewOf>>();
  const items: SessionEstimate[] = [];
  for (const item of input.items) {
    const link = item.type === 'project_accessor_link' ? await deps.scenarios.findLink(item.id) : undefined;
    const scenarioId = item.type === 'scenario' ? item.id : link?.scenario_id;
    if (!scenarioId) throw new AppError('not_found', { message: NOT_FOUND });
    let interview = interviews.get(scenarioId);
    if (!interview) {
      interview = interviewOf(deps, scenarioId);
      interviews.set(scenarioId, interview);
    }
    const { scenario, seconds, unknown } = await interview;
    const respondents = item.respondents ?? (link ? link.quota_size : scenario.quota);
    const perRespondent = sessionsPerInterview(seconds);
    items.push({
      type: item.type,
      id: item.id,
      respondents,
      interview_seconds: Math.round(seconds * 10) / 10,
      sessions_per_respondent: perRespondent,
      sessions: respondents === null ? null : respondents * perRespondent,
      unknown_durations: unknown,
    });
  }
  return { items, total_sessions: items.reduce((total, item) => total + (item.sessions ?? 0), 0) };
}
