import {
  type ContentType,
  type CreateProjectInput,
  type changeOwnerInput,
  type createProjectInput,
  type listProjectsQuery,
  type MessageKey,
  type MessageRef,
  missingTranslations,
  PROJECT_TABS,
  PROJECT_TRANSITIONS,
  type Project,
  type ProjectAction,
  type ProjectList,
  type ProjectPreparation,
  ref,
  researchSettingsSchema,
  type retentionInput,
  type updateProjectInput,
} from '@emolens/contracts';
import type { z } from 'zod';
import type { Deps } from '../../context.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { requireAccess, scopeOf } from '../access/access.ts';
import { EDITABLE_STATUSES, projectRules } from './project-rules.ts';
import type { ProjectWithPeople } from './projects.repository.ts';

const STAMPS = { launch: 'launched_at', complete: 'completed_at', archive: 'archived_at' } as const;
const NOT_EDITABLE = 'project.closed';

export type ProjectsDeps = Pick<Deps, 'access' | 'projects' | 'users' | 'media'>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The demo project while it is being made (issue 28 item 11): its respondents (as many as the seeding asked for)
 * taking part, their recordings processed, its report built. Null once the report is built, and for other projects.
 */
export function demoPreparation(row: ProjectWithPeople): ProjectPreparation | null {
  const work = row.demo_work;
  if (!row.is_demo || !work || work.reports_done > 0) return null;
  const respondents = Number(work.respondents);
  const people = Math.max(row.required_respondents ?? 0, respondents);
  const step = (done: number, total: number) => ({ done: Math.min(done, total), total });
  const parts = {
    respondents: step(respondents, people),
    recordings: step(Number(work.recordings), people),
    report: step(0, 1),
  };
  return {
    ...parts,
    done: parts.respondents.done + parts.recordings.done + parts.report.done,
    total: parts.respondents.total + parts.recordings.total + parts.report.total,
    stopped: row.demo_stopped_at !== null || Number(work.reports_failed) > 0,
  };
}

export function toProject(row: ProjectWithPeople): Project {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    platform: row.platform,
    respondent_language: row.respondent_language,
    audience_type: row.audience_type,
    flow_type: row.flow_type,
    status: row.status,
    required_respondents: row.required_respondents,
    retention: { mode: row.retention_mode, days: row.retention_days },
    is_demo: row.is_demo,
    preparation: demoPreparation(row),
    owner: {
      public_user_id: row.owner_public_id,
      username: row.owner_username,
      name: row.owner_name || row.owner_username,
    },
    created_by: {
      public_user_id: row.creator_public_id,
      username: row.creator_username,
      name: row.creator_name || row.creator_username,
    },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    launched_at: iso(row.launched_at),
    completed_at: iso(row.completed_at),
    archived_at: iso(row.archived_at),
    counts: {
      researches: row.research_count,
      scenarios: row.scenario_count,
      quota_links: row.link_count,
      sessions: row.session_count,
    },
    can: {
      edit: projectRules.edit(row.status),
      launch: projectRules.transition('launch', row.status),
      complete: projectRules.transition('complete', row.status),
      archive: projectRules.transition('archive', row.status),
      delete: projectRules.delete(row.status),
      manage_scenarios: projectRules.editSetup(row.status),
      manage_quota_links: projectRules.manageQuotaLinks(row.status),
      manage_data: projectRules.manageData(row.status),
    },
  };
}

/** The project if this user may see it; another user's project is "not found", never "forbidden". */
export async function getProject(deps: Pick<Deps, 'access' | 'projects'>, user: User, id: string): Promise<Project> {
  await requireAccess(deps.access, user, 'project.manage', id);
  return loadProject(deps, id);
}

/** A project whose access was checked (it may have been deleted since). */
async function loadProject(deps: Pick<Deps, 'projects'>, id: string): Promise<Project> {
  const row = await deps.projects.find(id);
  if (!row) throw new AppError('not_found', { message: 'project.notFound' });
  return toProject(row);
}

export async function listProjects(
  deps: ProjectsDeps,
  user: User,
  query: z.output<typeof listProjectsQuery>,
): Promise<ProjectList> {
  const scope = scopeOf(user);
  const filter = { search: query.search || undefined, createdBy: query.created_by_me ? user.id : undefined };
  const status = query.tab ? PROJECT_TABS[query.tab] : undefined;
  const [page, counts] = await Promise.all([
    deps.projects.list(scope, {
      ...filter,
      status,
      limit: query.page_size,
      offset: (query.page - 1) * query.page_size,
    }),
    deps.projects.countByStatus(scope, filter),
  ]);
  return {
    items: page.items.map(toProject),
    total: page.total,
    page: query.page,
    page_size: query.page_size,
    tabs: {
      active: counts.active ?? 0,
      drafts: counts.new ?? 0,
      completed: counts.completed ?? 0,
      archive: counts.archived ?? 0,
    },
  };
}

/** A new draft project of the user's; `demo`: the installation's demo project (decision 017), only the seeding makes one. */
export async function createProject(
  deps: ProjectsDeps,
  user: User,
  input: z.output<typeof createProjectInput> | CreateProjectInput,
  options: { demo?: boolean } = {},
): Promise<Project> {
  const id = await deps.projects.insert({
    title: input.title,
    description: input.description ?? '',
    platform: input.platform,
    respondent_language: input.respondent_language,
    audience_type: input.audience_type,
    flow_type: input.flow_type,
    required_respondents: input.required_respondents ?? null,
    owner_id: user.id,
    created_by: user.id,
    is_demo: options.demo ?? false,
  });
  return getProject(deps, user, id);
}

export async function updateProject(
  deps: ProjectsDeps,
  user: User,
  id: string,
  input: z.output<typeof updateProjectInput>,
): Promise<Project> {
  const current = await getProject(deps, user, id);
  if (!current.can.edit) throw new AppError('invalid_state', { message: NOT_EDITABLE });
  const { updated_at, ...patch } = input;
  if (!(await deps.projects.update(id, new Date(updated_at), EDITABLE_STATUSES, patch))) {
    const now = await loadProject(deps, id);
    throw now.can.edit ? new AppError('conflict') : new AppError('invalid_state', { message: NOT_EDITABLE });
  }
  return loadProject(deps, id);
}

export async function transitionProject(
  deps: ProjectsDeps,
  user: User,
  id: string,
  action: ProjectAction,
): Promise<Project> {
  await getProject(deps, user, id);
  if (action === 'launch') await checkLaunchable(deps, id);
  const { from, to } = PROJECT_TRANSITIONS[action];
  if (!(await deps.projects.transition(id, from, to, STAMPS[action]))) {
    throw new AppError('invalid_state', { message: `project.cannot.${action}` });
  }
  return loadProject(deps, id);
}

export async function deleteProject(deps: Pick<Deps, 'access' | 'projects'>, user: User, id: string): Promise<void> {
  await getProject(deps, user, id);
  if (!(await deps.projects.deleteIn(id, 'new'))) {
    throw new AppError('invalid_state', { message: 'project.deleteDraftOnly' });
  }
}

/** Sets what happens to the project's respondent data (design section 7); any status. */
export async function setRetention(
  deps: Pick<Deps, 'access' | 'projects'>,
  user: User,
  id: string,
  input: z.output<typeof retentionInput>,
): Promise<Project> {
  const current = await getProject(deps, user, id);
  if (!current.can.manage_data) throw new AppError('invalid_state', { message: NOT_EDITABLE });
  if (!(await deps.projects.setRetention(id, input.retention_mode, input.retention_days))) {
    throw new AppError('not_found', { message: 'project.notFound' });
  }
  return loadProject(deps, id);
}

/** Hands the project to another user, found by public id; the old owner loses access at once. */
export async function changeOwner(
  deps: ProjectsDeps,
  user: User,
  id: string,
  input: z.output<typeof changeOwnerInput>,
): Promise<Project> {
  await getProject(deps, user, id);
  const owner = await deps.users.findByPublicId(input.public_user_id);
  if (!owner?.is_active) {
    throw new AppError('validation_failed', {
      message: 'user.doesNotExist',
      fields: { public_user_id: 'user.doesNotExist' },
    });
  }
  await deps.projects.setOwner(id, owner.id);
  return loadProject(deps, id);
}

/** What each content type needs before respondents can see it, as the field message for a research. */
const CONTENT_MISSING = {
  video: 'launch.videoMissing',
  pictures: 'launch.picturesMissing',
  shelf: 'launch.shelfMissing',
  site: 'launch.siteMissing',
} as const satisfies Partial<Record<ContentType, MessageKey>>;

/**
 * A project launches only with something to show (spec section 8, "not enough data to launch"):
 * a scenario, a research in every scenario, the content of every research, a quota link, and every text of
 * its questionnaires in the respondents' language (issue 12: a missing translation is flagged before launch). The
 * answer names each missing part as a field, so the cabinet can list them.
 */
async function checkLaunchable(deps: Pick<Deps, 'projects' | 'media'>, id: string): Promise<void> {
  const setup = await deps.projects.setupOf(id);
  const media = await deps.media.listForResearches(setup.researches.map((c) => c.id));
  const ready = (researchId: string, kind: 'video' | 'image') =>
    media.some((m) => m.campaign_id === researchId && m.kind === kind && m.status === 'ready');
  const fields: Record<string, MessageRef> = {};
  if (!setup.scenarios.length) fields.scenarios = ref('launch.scenarioMissing');
  for (const scenario of setup.scenarios) {
    if (!scenario.campaign_count) {
      fields[`scenarios.${scenario.id}`] = ref('launch.scenarioEmpty', { number: scenario.order_number });
    }
  }
  for (const research of setup.researches) {
    const has = {
      video: () => ready(research.id, 'video'),
      pictures: () => ready(research.id, 'image'),
      shelf: () => research.shelf_content_scenario.length > 0,
      site: () => researchSettingsSchema.parse(research.settings).webResourceScenario.length > 0,
      contentless: () => true,
    }[research.content_type];
    if (research.content_type !== 'contentless' && !has()) {
      fields[`campaigns.${research.id}`] = ref(CONTENT_MISSING[research.content_type], { title: research.title });
    }
  }
  if (!setup.quotaLinks) fields.quota_links = ref('launch.quotaLinkMissing');
  // Respondents read the questionnaires in the project's language: every text must be there.
  for (const survey of setup.surveys) {
    if (missingTranslations(survey, [survey.respondent_language]).length) {
      fields[`surveys.${survey.id}`] = ref('launch.surveyTranslationMissing', {
        title: survey.title,
        language: survey.respondent_language,
      });
    }
  }
  if (Object.keys(fields).length) throw new AppError('launch_incomplete', { fields });
}
