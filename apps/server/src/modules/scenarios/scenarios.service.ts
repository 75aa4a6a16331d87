import {
  type AccessorLink,
  type createAccessorLinkInput,
  type createScenarioInput,
  type MessageKey,
  type ProjectStatus,
  type Scenario,
  type SurveyType,
  scenarioDeviceRefusal,
  storedResearchSettings,
  type updateScenarioInput,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { AccessorLinkRow, User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { checkAccess, requireAccess } from '../access/access.ts';
import { randomToken } from '../auth/tokens.ts';
import { projectRules } from '../projects/project-rules.ts';
import type { LinkWithSessions, ScenarioValues, ScenarioWithResearches } from './scenarios.repository.ts';

const FROZEN: MessageKey = 'scenario.frozen';
const LINKS_CLOSED: MessageKey = 'scenario.linksClosed';

export type ScenariosDeps = Pick<Deps, 'access' | 'scenarios' | 'projects' | 'surveys'>;

/** A scenario's questionnaire slots: the type each takes and the messages of its rules (decision 014). */
const SLOTS = [
  {
    field: 'screener_survey_id',
    type: 'screener',
    wrongType: 'survey.screenerSlot',
    manyResearches: 'survey.linkedScreenerMany',
  },
  {
    field: 'embedded_survey_id',
    type: 'survey',
    wrongType: 'survey.surveySlot',
    manyResearches: 'survey.linkedSurveyMany',
  },
] as const satisfies readonly {
  field: keyof ScenarioValues;
  type: SurveyType;
  wrongType: MessageKey;
  manyResearches: MessageKey;
}[];

type SlotValues = Pick<ScenarioValues, 'screener_survey_id' | 'embedded_survey_id'>;

export function toScenario(row: ScenarioWithResearches, projectStatus: ProjectStatus): Scenario {
  return {
    id: row.id,
    project_id: row.project_id,
    order_number: row.order_number,
    description: row.description,
    campaigns: row.researches,
    is_random_order: row.is_random_order,
    is_use_face_checker: row.is_use_face_checker,
    screener_survey_id: row.screener_survey_id,
    embedded_survey_id: row.embedded_survey_id,
    redirect_links: row.redirect_links,
    quota: row.quota,
    is_paid: row.is_paid,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    can: { edit: projectRules.editSetup(projectStatus) },
  };
}

export function toAccessorLink(row: LinkWithSessions, projectStatus: ProjectStatus, origin: string): AccessorLink {
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
    sessions_count: row.sessions_count,
    created_at: row.created_at.toISOString(),
    can: { edit: projectRules.manageQuotaLinks(projectStatus) },
  };
}

/** The status of a project whose access was checked. */
async function statusOf(deps: Pick<Deps, 'projects'>, projectId: string): Promise<ProjectStatus> {
  const project = await deps.projects.find(projectId);
  if (!project) throw new AppError('not_found', { message: 'project.notFound' });
  return project.status;
}

/** The scenario and its project's status, when the user may act on it; otherwise "not found". */
async function loadScenario(deps: ScenariosDeps, user: User, id: string) {
  await requireAccess(deps.access, user, 'scenario.manage', id);
  const scenario = await deps.scenarios.find(id);
  if (!scenario) throw new AppError('not_found', { message: 'scenario.notFound' });
  return { scenario, status: await statusOf(deps, scenario.project_id) };
}

/** The project's status, when the user may act on it and its scenarios may still change. */
async function editableProject(deps: ScenariosDeps, user: User, projectId: string): Promise<void> {
  await requireAccess(deps.access, user, 'project.manage', projectId);
  if (!projectRules.editSetup(await statusOf(deps, projectId)))
    throw new AppError('invalid_state', { message: FROZEN });
}

/** The scenario, when the user may act on it and it may still change. */
async function editableScenario(deps: ScenariosDeps, user: User, id: string): Promise<ScenarioWithResearches> {
  const { scenario, status } = await loadScenario(deps, user, id);
  if (!projectRules.editSetup(status)) throw new AppError('invalid_state', { message: FROZEN });
  return scenario;
}

/**
 * Researches of the scenario's project, each named once; none analysing several faces beside one whose video stays
 * on the device (they share one recording, decision 072).
 */
async function checkResearches(deps: ScenariosDeps, user: User, projectId: string, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)];
  const allowed = await checkAccess(deps.access, user, 'campaign.manage', unique);
  const own = await deps.scenarios.researchesOfProject(projectId, [...allowed]);
  if (unique.length !== ids.length || own.size !== unique.length) {
    throw new AppError('validation_failed', {
      fields: { campaign_ids: 'scenario.campaignsOfProject' },
    });
  }
  const mixed = scenarioDeviceRefusal([...own.values()].map(storedResearchSettings));
  if (mixed) throw new AppError('validation_failed', { message: mixed, fields: { campaign_ids: mixed } });
}

/**
 * The questionnaires a scenario is given (`given`: the slots this request fills), and the scenario as it will
 * be (`result`): each questionnaire given exists, is the user's to use, and is of its slot's type; and a
 * scenario with a questionnaire shows at most one research, since a questionnaire's answers and screener
 * quotas belong to one research (spec section 8: "… is linked to multiple campaigns").
 */
async function checkQuestionnaires(
  deps: ScenariosDeps,
  user: User,
  given: Partial<SlotValues>,
  result: SlotValues & { researchCount: number },
): Promise<void> {
  const fields: Partial<Record<keyof SlotValues, MessageKey>> = {};
  for (const slot of SLOTS) {
    const id = given[slot.field];
    if (!id) continue;
    const visible = (await checkAccess(deps.access, user, 'survey.manage', [id])).has(id);
    const survey = visible ? await deps.surveys.find(id) : undefined;
    if (!survey) fields[slot.field] = 'survey.notFound';
    else if (survey.type !== slot.type) fields[slot.field] = slot.wrongType;
  }
  if (Object.keys(fields).length) throw new AppError('validation_failed', { fields });
  for (const slot of SLOTS) {
    if (result[slot.field] && result.researchCount > 1) {
      const field = given[slot.field] ? slot.field : 'campaign_ids';
      throw new AppError('validation_failed', {
        message: slot.manyResearches,
        fields: { [field]: slot.manyResearches },
      });
    }
  }
}

export async function listScenarios(deps: ScenariosDeps, user: User, projectId: string): Promise<Scenario[]> {
  await requireAccess(deps.access, user, 'project.manage', projectId);
  const status = await statusOf(deps, projectId);
  return (await deps.scenarios.listByProject(projectId)).map((row) => toScenario(row, status));
}

export async function createScenario(
  deps: ScenariosDeps,
  user: User,
  projectId: string,
  input: z.output<typeof createScenarioInput>,
): Promise<Scenario> {
  await editableProject(deps, user, projectId);
  await checkResearches(deps, user, projectId, input.campaign_ids);
  const { campaign_ids, ...values } = input;
  await checkQuestionnaires(deps, user, values, { ...values, researchCount: campaign_ids.length });
  const id = await deps.scenarios.insert(projectId, values, campaign_ids);
  return getScenario(deps, user, id);
}

export async function getScenario(deps: ScenariosDeps, user: User, id: string): Promise<Scenario> {
  const { scenario, status } = await loadScenario(deps, user, id);
  return toScenario(scenario, status);
}

export async function updateScenario(
  deps: ScenariosDeps,
  user: User,
  id: string,
  input: z.output<typeof updateScenarioInput>,
): Promise<Scenario> {
  const scenario = await editableScenario(deps, user, id);
  const { updated_at, campaign_ids, ...values } = input;
  if (campaign_ids) await checkResearches(deps, user, scenario.project_id, campaign_ids);
  await checkQuestionnaires(deps, user, values, {
    screener_survey_id:
      values.screener_survey_id === undefined ? scenario.screener_survey_id : values.screener_survey_id,
    embedded_survey_id:
      values.embedded_survey_id === undefined ? scenario.embedded_survey_id : values.embedded_survey_id,
    researchCount: campaign_ids ? campaign_ids.length : scenario.researches.length,
  });
  if (!(await deps.scenarios.update(id, new Date(updated_at), values, campaign_ids))) throw new AppError('conflict');
  return getScenario(deps, user, id);
}

export async function deleteScenario(deps: ScenariosDeps, user: User, id: string): Promise<void> {
  const scenario = await editableScenario(deps, user, id);
  await deps.scenarios.delete(id, scenario.project_id);
}

/** A copy of the scenario, its researches included, at the end of the order. */
export async function duplicateScenario(deps: ScenariosDeps, user: User, id: string): Promise<Scenario> {
  const scenario = await editableScenario(deps, user, id);
  await checkQuestionnaires(deps, user, scenario, { ...scenario, researchCount: scenario.researches.length });
  const copy = await deps.scenarios.insert(
    scenario.project_id,
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
    scenario.researches.map((c) => c.id),
  );
  return getScenario(deps, user, copy);
}

export async function reorderScenarios(
  deps: ScenariosDeps,
  user: User,
  projectId: string,
  order: string[],
): Promise<Scenario[]> {
  await editableProject(deps, user, projectId);
  const current = await deps.scenarios.listByProject(projectId);
  const ids = new Set(current.map((s) => s.id));
  if (order.length !== ids.size || new Set(order).size !== order.length || !order.every((id) => ids.has(id))) {
    throw new AppError('validation_failed', { fields: { order: 'scenario.orderComplete' } });
  }
  await deps.scenarios.reorder(projectId, order);
  return listScenarios(deps, user, projectId);
}

/** The display order of a scenario's researches as CSV (random order noted). */
export async function displayOrderCsv(deps: ScenariosDeps, user: User, id: string): Promise<string> {
  const { scenario } = await loadScenario(deps, user, id);
  const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
  const lines = ['position,research_id,title,content_type'];
  scenario.researches.forEach((c, i) => {
    lines.push([i + 1, c.id, quote(c.title), c.content_type].join(','));
  });
  if (scenario.is_random_order) lines.push('# shown in random order to each respondent');
  return `${lines.join('\n')}\n`;
}

// Quota links.

/** The link and its project's status, when the user may act on it; otherwise "not found". */
async function loadLink(deps: ScenariosDeps, user: User, id: string) {
  await requireAccess(deps.access, user, 'quotaLink.manage', id);
  const link = await deps.scenarios.findLink(id);
  if (!link) throw new AppError('not_found', { message: 'scenario.linkNotFound' });
  return { link, status: await statusOf(deps, link.project_id) };
}

export async function createAccessorLink(
  deps: ScenariosDeps,
  user: User,
  scenarioId: string,
  input: z.output<typeof createAccessorLinkInput>,
  origin: string,
): Promise<AccessorLink> {
  const { scenario, status } = await loadScenario(deps, user, scenarioId);
  if (!projectRules.manageQuotaLinks(status)) throw new AppError('invalid_state', { message: LINKS_CLOSED });
  const id = await deps.scenarios.insertLink({
    project_id: scenario.project_id,
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
  const { link, status } = await loadLink(deps, user, id);
  return toAccessorLink(link, status, origin);
}

export async function listAccessorLinks(
  deps: ScenariosDeps,
  user: User,
  projectId: string,
  origin: string,
): Promise<AccessorLink[]> {
  await requireAccess(deps.access, user, 'project.manage', projectId);
  const status = await statusOf(deps, projectId);
  return (await deps.scenarios.listLinks(projectId)).map((l) => toAccessorLink(l, status, origin));
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
  const { status } = await loadLink(deps, user, id);
  if (!projectRules.manageQuotaLinks(status)) throw new AppError('invalid_state', { message: LINKS_CLOSED });
  await deps.scenarios.updateLink(id, patch);
  return getAccessorLink(deps, user, id, origin);
}
