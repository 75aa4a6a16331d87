import type {
  AccessorLink,
  createAccessorLinkInput,
  createScenarioInput,
  ProjectStatus,
  Scenario,
  updateScenarioInput,
} from '@emolens/contracts';
import type { z } from 'zod';
import { isUuid } from '../../db/sql.ts';
import type { AccessorLinkRow, User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { randomToken } from '../auth/tokens.ts';
import type { ProjectsRepository } from '../projects/projects.repository.ts';
import { getProject, scopeOf } from '../projects/projects.service.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { ScenariosRepository, ScenarioWithCampaigns } from './scenarios.repository.ts';

const FROZEN = 'The project is launched: its scenarios cannot be changed';
const LINKS_CLOSED = 'Quota links of a completed or archived project cannot be changed';

export interface ScenariosDeps {
  scenarios: ScenariosRepository;
  projects: ProjectsRepository;
  users: UsersRepository;
}

export function toScenario(row: ScenarioWithCampaigns, projectStatus: ProjectStatus): Scenario {
  return {
    id: row.id,
    project_id: row.project_id,
    order_number: row.order_number,
    description: row.description,
    campaigns: row.campaigns,
    is_random_order: row.is_random_order,
    is_use_face_checker: row.is_use_face_checker,
    screener_survey_id: row.screener_survey_id,
    embedded_survey_id: row.embedded_survey_id,
    redirect_links: row.redirect_links,
    quota: row.quota,
    is_paid: row.is_paid,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    can: { edit: projectStatus === 'new' },
  };
}

export function toAccessorLink(row: AccessorLinkRow, origin: string, projectStatus: ProjectStatus): AccessorLink {
  return {
    id: row.id,
    project_id: row.project_id,
    scenario_id: row.scenario_id,
    link: `${origin}/project-research/${row.token}`,
    token: row.token,
    quota_size: row.quota_size,
    is_use_face_checker: row.is_use_face_checker,
    is_request_payment_data: row.is_request_payment_data,
    is_screener_first: row.is_screener_first,
    // Respondent sessions arrive with the respondent flow: none exist yet.
    sessions_count: 0,
    created_at: row.created_at.toISOString(),
    can: { edit: projectStatus === 'new' || projectStatus === 'active' },
  };
}

/** The scenario and its project, when the user may see them; otherwise "not found". */
async function visibleScenario(deps: ScenariosDeps, user: User, id: string) {
  const scenario = isUuid(id) ? await deps.scenarios.find(id) : undefined;
  const project = scenario ? await deps.projects.findVisible(scenario.project_id, scopeOf(user)) : undefined;
  if (!scenario || !project) throw new AppError('not_found', { message: 'Scenario not found' });
  return { scenario, project };
}

async function checkCampaigns(deps: ScenariosDeps, projectId: string, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)];
  const own = await deps.scenarios.campaignsOfProject(
    projectId,
    unique.filter((id) => isUuid(id)),
  );
  if (unique.length !== ids.length || own.size !== unique.length) {
    throw new AppError('validation_failed', {
      fields: { campaign_ids: 'Choose researches of this project, each once' },
    });
  }
}

export async function listScenarios(deps: ScenariosDeps, user: User, projectId: string): Promise<Scenario[]> {
  const project = await getProject(deps, user, projectId);
  return (await deps.scenarios.listByProject(projectId)).map((s) => toScenario(s, project.status));
}

export async function createScenario(
  deps: ScenariosDeps,
  user: User,
  projectId: string,
  input: z.output<typeof createScenarioInput>,
): Promise<Scenario> {
  const project = await getProject(deps, user, projectId);
  if (project.status !== 'new') throw new AppError('invalid_state', { message: FROZEN });
  await checkCampaigns(deps, projectId, input.campaign_ids);
  const { campaign_ids, ...values } = input;
  const id = await deps.scenarios.insert(projectId, values, campaign_ids);
  return getScenario(deps, user, id);
}

export async function getScenario(deps: ScenariosDeps, user: User, id: string): Promise<Scenario> {
  const { scenario, project } = await visibleScenario(deps, user, id);
  return toScenario(scenario, project.status);
}

export async function updateScenario(
  deps: ScenariosDeps,
  user: User,
  id: string,
  input: z.output<typeof updateScenarioInput>,
): Promise<Scenario> {
  const { project } = await visibleScenario(deps, user, id);
  if (project.status !== 'new') throw new AppError('invalid_state', { message: FROZEN });
  const { updated_at, campaign_ids, ...values } = input;
  if (campaign_ids) await checkCampaigns(deps, project.id, campaign_ids);
  if (!(await deps.scenarios.update(id, new Date(updated_at), values, campaign_ids))) throw new AppError('conflict');
  return getScenario(deps, user, id);
}

export async function deleteScenario(deps: ScenariosDeps, user: User, id: string): Promise<void> {
  const { project } = await visibleScenario(deps, user, id);
  if (project.status !== 'new') throw new AppError('invalid_state', { message: FROZEN });
  await deps.scenarios.delete(id, project.id);
}

/** A copy of the scenario, its researches included, at the end of the order. */
export async function duplicateScenario(deps: ScenariosDeps, user: User, id: string): Promise<Scenario> {
  const { scenario, project } = await visibleScenario(deps, user, id);
  if (project.status !== 'new') throw new AppError('invalid_state', { message: FROZEN });
  const copy = await deps.scenarios.insert(
    project.id,
    {
      description: scenario.description,
      is_random_order: scenario.is_random_order,
      is_use_face_checker: scenario.is_use_face_checker,
      screener_survey_id: scenario.screener_survey_id,
      embedded_survey_id: scenario.embedded_survey_id,
      redirect_links: scenario.redirect_links,
      quota: scenario.quota,
      is_paid: scenario.is_paid,
    },
    scenario.campaigns.map((c) => c.id),
  );
  return getScenario(deps, user, copy);
}

export async function reorderScenarios(
  deps: ScenariosDeps,
  user: User,
  projectId: string,
  order: string[],
): Promise<Scenario[]> {
  const project = await getProject(deps, user, projectId);
  if (project.status !== 'new') throw new AppError('invalid_state', { message: FROZEN });
  const current = await deps.scenarios.listByProject(projectId);
  const ids = new Set(current.map((s) => s.id));
  if (order.length !== ids.size || new Set(order).size !== order.length || !order.every((id) => ids.has(id))) {
    throw new AppError('validation_failed', { fields: { order: 'List every scenario of the project exactly once' } });
  }
  await deps.scenarios.reorder(projectId, order);
  return listScenarios(deps, user, projectId);
}

/** The display order of a scenario's researches as CSV (random order noted). */
export async function displayOrderCsv(deps: ScenariosDeps, user: User, id: string): Promise<string> {
  const { scenario } = await visibleScenario(deps, user, id);
  const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
  const lines = ['position,research_id,title,content_type'];
  scenario.campaigns.forEach((c, i) => {
    lines.push([i + 1, c.id, quote(c.title), c.content_type].join(','));
  });
  if (scenario.is_random_order) lines.push('# shown in random order to each respondent');
  return `${lines.join('\n')}\n`;
}

// Quota links.

async function visibleLink(deps: ScenariosDeps, user: User, id: string) {
  const link = isUuid(id) ? await deps.scenarios.findLink(id) : undefined;
  const project = link ? await deps.projects.findVisible(link.project_id, scopeOf(user)) : undefined;
  if (!link || !project) throw new AppError('not_found', { message: 'Quota link not found' });
  return { link, project };
}

export async function createAccessorLink(
  deps: ScenariosDeps,
  user: User,
  scenarioId: string,
  input: z.output<typeof createAccessorLinkInput>,
  origin: string,
): Promise<AccessorLink> {
  const { scenario, project } = await visibleScenario(deps, user, scenarioId);
  if (project.status !== 'new' && project.status !== 'active')
    throw new AppError('invalid_state', { message: LINKS_CLOSED });
  const id = await deps.scenarios.insertLink({
    project_id: project.id,
    scenario_id: scenario.id,
    token: randomToken(18),
    ...input,
  });
  return getAccessorLink(deps, user, id, origin);
}

export async function getAccessorLink(
  deps: ScenariosDeps,
  user: User,
  id: string,
  origin: string,
): Promise<AccessorLink> {
  const { link, project } = await visibleLink(deps, user, id);
  return toAccessorLink(link, origin, project.status);
}

export async function listAccessorLinks(
  deps: ScenariosDeps,
  user: User,
  projectId: string,
  origin: string,
): Promise<AccessorLink[]> {
  const project = await getProject(deps, user, projectId);
  return (await deps.scenarios.listLinks(projectId)).map((l) => toAccessorLink(l, origin, project.status));
}

export async function setAccessorLinkOption(
  deps: ScenariosDeps,
  user: User,
  id: string,
  patch: Partial<
    Pick<AccessorLinkRow, 'quota_size' | 'is_use_face_checker' | 'is_request_payment_data' | 'is_screener_first'>
  >,
  origin: string,
): Promise<AccessorLink> {
  const { project } = await visibleLink(deps, user, id);
  if (project.status !== 'new' && project.status !== 'active')
    throw new AppError('invalid_state', { message: LINKS_CLOSED });
  await deps.scenarios.updateLink(id, patch);
  return getAccessorLink(deps, user, id, origin);
}
