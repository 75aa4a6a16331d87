import {
  type CreateProjectInput,
  type changeOwnerInput,
  type createProjectInput,
  type listProjectsQuery,
  PROJECT_MESSAGES,
  PROJECT_TABS,
  PROJECT_TRANSITIONS,
  type Project,
  type ProjectAction,
  type ProjectList,
  type ProjectStatus,
  type updateProjectInput,
} from '@emolens/contracts';
import type { z } from 'zod';
import { isUuid } from '../../db/sql.ts';
import type { User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import type { ProjectScope, ProjectsRepository, ProjectWithPeople } from './projects.repository.ts';

/** A completed project stays viewable but not editable; an archived one is hidden (spec section 4). */
const EDITABLE: readonly ProjectStatus[] = ['new', 'active'];
const STAMPS = { launch: 'launched_at', complete: 'completed_at', archive: 'archived_at' } as const;

export interface ProjectsDeps {
  projects: ProjectsRepository;
  users: UsersRepository;
}

export function scopeOf(user: User): ProjectScope {
  return { userId: user.id, all: user.role === 'super_user' };
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toProject(row: ProjectWithPeople): Project {
  const can = (action: ProjectAction) =>
    (PROJECT_TRANSITIONS[action].from as readonly ProjectStatus[]).includes(row.status);
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
    // Respondent sessions arrive with the respondent flow: none exist yet.
    counts: { researches: row.research_count, scenarios: row.scenario_count, quota_links: row.link_count, sessions: 0 },
    can: {
      edit: EDITABLE.includes(row.status),
      launch: can('launch'),
      complete: can('complete'),
      archive: can('archive'),
      delete: row.status === 'new',
      manage_scenarios: row.status === 'new',
      manage_quota_links: EDITABLE.includes(row.status),
    },
  };
}

/** The project if this user may see it; another user's project is "not found", never "forbidden". */
export async function getProject(deps: ProjectsDeps, user: User, id: string): Promise<Project> {
  const row = isUuid(id) ? await deps.projects.findVisible(id, scopeOf(user)) : undefined;
  if (!row) throw new AppError('not_found', { message: 'Project not found' });
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

export async function createProject(
  deps: ProjectsDeps,
  user: User,
  input: z.output<typeof createProjectInput> | CreateProjectInput,
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
  if (!current.can.edit)
    throw new AppError('invalid_state', { message: 'A completed or archived project cannot be edited' });
  const { updated_at, ...patch } = input;
  const applied = await deps.projects.update(id, new Date(updated_at), EDITABLE, patch);
  if (!applied) {
    const now = await getProject(deps, user, id);
    if (!now.can.edit)
      throw new AppError('invalid_state', { message: 'A completed or archived project cannot be edited' });
    throw new AppError('conflict');
  }
  return getProject(deps, user, id);
}

export async function transitionProject(
  deps: ProjectsDeps,
  user: User,
  id: string,
  action: ProjectAction,
): Promise<Project> {
  await getProject(deps, user, id);
  const { from, to } = PROJECT_TRANSITIONS[action];
  if (!(await deps.projects.transition(id, from, to, STAMPS[action]))) {
    throw new AppError('invalid_state', { message: `The project cannot ${action} in its current status` });
  }
  return getProject(deps, user, id);
}

export async function deleteProject(deps: ProjectsDeps, user: User, id: string): Promise<void> {
  await getProject(deps, user, id);
  if (!(await deps.projects.deleteIn(id, 'new'))) {
    throw new AppError('invalid_state', { message: 'Only a draft project can be deleted' });
  }
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
      message: PROJECT_MESSAGES.userDoesNotExist,
      fields: { public_user_id: PROJECT_MESSAGES.userDoesNotExist },
    });
  }
  await deps.projects.setOwner(id, owner.id);
  const row = await deps.projects.findVisible(id, { userId: owner.id, all: true });
  if (!row) throw new AppError('not_found', { message: 'Project not found' });
  return toProject(row);
}
