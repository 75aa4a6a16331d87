import {
  type CreateProjectInput,
  changeOwnerInput,
  createProjectInput,
  type DeleteRespondentDataInput,
  dataDeletionsOutput,
  deleteRespondentDataInput,
  deleteRespondentDataOutput,
  type ListProjectsQuery,
  type Project,
  type ProjectAction,
  projectListOutput,
  projectOutput,
  type RetentionInput,
  retentionInput,
  type UpdateProjectInput,
  updateProjectInput,
} from '@emolens/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiRequestError, apiRequest } from '../../api/client.ts';
import { scenarioKeys } from '../scenarios/api.ts';

const BASE = '/cabinet/projects/';
const projectPath = (id: string) => `${BASE}${encodeURIComponent(id)}/`;

export const projectKeys = {
  all: ['projects'] as const,
  lists: () => ['projects', 'list'] as const,
  list: (query: ListProjectsQuery) => ['projects', 'list', query] as const,
  detail: (id: string) => ['projects', 'detail', id] as const,
  deletions: (id: string) => ['projects', 'data-deletions', id] as const,
};

/** The list address with only the parameters that are set, in the order of the contract. */
export function listPath(query: ListProjectsQuery): string {
  const params = new URLSearchParams();
  if (query.search) params.set('search', query.search);
  if (query.tab) params.set('tab', query.tab);
  if (query.created_by_me === 'true') params.set('created_by_me', 'true');
  if (query.page !== undefined) params.set('page', String(query.page));
  if (query.page_size !== undefined) params.set('page_size', String(query.page_size));
  const text = params.toString();
  return text ? `${BASE}?${text}` : BASE;
}

/** How often a demo project being made (issue 28 item 11) is looked at again. */
const PREPARATION_POLL_MS = 4000;
const preparing = (project: Project) => project.preparation !== null && !project.preparation.stopped;

/** GET /cabinet/projects/: the previous page stays on screen while the next one loads. */
export function useProjectList(query: ListProjectsQuery) {
  return useQuery({
    queryKey: projectKeys.list(query),
    queryFn: () => apiRequest('GET', listPath(query), projectListOutput),
    placeholderData: keepPreviousData,
    // The demo project being made comes along by itself: its steps are looked at again until it is done.
    refetchInterval: (q) => (q.state.data?.items.some(preparing) ? PREPARATION_POLL_MS : false),
  });
}

/** A 404 (or another 4xx) does not get better by asking again. */
const retryServerErrors = (count: number, error: unknown) =>
  count < 1 && !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500);

/** GET /cabinet/projects/{id}/. The page shows its own load error (spec section 8), hence silent. */
export function useProject(id: string) {
  return useQuery({
    queryKey: projectKeys.detail(id),
    queryFn: () => apiRequest('GET', projectPath(id), projectOutput),
    refetchInterval: (q) => (q.state.data && preparing(q.state.data) ? PREPARATION_POLL_MS : false),
    retry: retryServerErrors,
    meta: { silent: true },
  });
}

/** Keeps the cache in step with a project the server has just answered with. */
function useStoreProject() {
  const client = useQueryClient();
  return (project: Project) => {
    client.setQueryData(projectKeys.detail(project.id), project);
    void client.invalidateQueries({ queryKey: projectKeys.lists() });
  };
}

/** POST /cabinet/projects/. Silent: the form shows the server's field errors itself. */
export function useCreateProject() {
  const store = useStoreProject();
  return useMutation({
    mutationFn: (input: CreateProjectInput) => apiRequest('POST', BASE, projectOutput, createProjectInput.parse(input)),
    onSuccess: store,
    meta: { silent: true },
  });
}

/** PATCH /cabinet/projects/{id}/. Silent: the form shows field errors and conflicts itself. */
export function useUpdateProject(id: string) {
  const store = useStoreProject();
  return useMutation({
    mutationFn: (input: UpdateProjectInput) =>
      apiRequest('PATCH', projectPath(id), projectOutput, updateProjectInput.parse(input)),
    onSuccess: store,
    meta: { silent: true },
  });
}

/** POST /cabinet/projects/{id}/launch|complete|archive/ */
export function useProjectAction(id: string) {
  const client = useQueryClient();
  const store = useStoreProject();
  return useMutation({
    mutationFn: (action: ProjectAction) => apiRequest('POST', `${projectPath(id)}${action}/`, projectOutput),
    onSuccess: (project) => {
      store(project);
      // What may be done with the project's scenarios and quota links follows its status.
      void client.invalidateQueries({ queryKey: scenarioKeys.list(id) });
      void client.invalidateQueries({ queryKey: scenarioKeys.links(id) });
    },
    // invalid_state means the project moved on elsewhere: show where it is now.
    onError: () => client.invalidateQueries({ queryKey: projectKeys.detail(id) }),
  });
}

/** DELETE /cabinet/projects/{id}/ (drafts only); answers 204 without a body. */
export function useDeleteProject(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', projectPath(id), z.unknown()),
    onSuccess: () => client.invalidateQueries({ queryKey: projectKeys.lists() }),
    onError: () => client.invalidateQueries({ queryKey: projectKeys.detail(id) }),
  });
}

/** POST /cabinet/projects/{id}/change-owner/. Silent: "User doesn't exist" goes under the field. */
export function useChangeOwner(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof changeOwnerInput>) =>
      apiRequest('POST', `${projectPath(id)}change-owner/`, projectOutput, changeOwnerInput.parse(input)),
    onSuccess: () => client.invalidateQueries({ queryKey: projectKeys.lists() }),
    meta: { silent: true },
  });
}

/**
 * Drops a project the user no longer has (deleted, or given to another owner). Call it after
 * leaving its page, so that the page does not ask for it again on the way out.
 */
export function useForgetProject() {
  const client = useQueryClient();
  return (id: string) => client.removeQueries({ queryKey: projectKeys.detail(id) });
}

/** PATCH /cabinet/projects/{id}/retention/. Silent: the section shows the field errors itself. */
export function useSetRetention(id: string) {
  const store = useStoreProject();
  return useMutation({
    mutationFn: (input: RetentionInput) =>
      apiRequest('PATCH', `${projectPath(id)}retention/`, projectOutput, retentionInput.parse(input)),
    onSuccess: store,
    meta: { silent: true },
  });
}

/** GET /cabinet/projects/{id}/data-deletions/: the record of deleted respondent data. */
export function useDataDeletions(id: string) {
  return useQuery({
    queryKey: projectKeys.deletions(id),
    queryFn: () => apiRequest('GET', `${projectPath(id)}data-deletions/`, dataDeletionsOutput),
    retry: retryServerErrors,
  });
}

/**
 * POST /cabinet/projects/{id}/respondent-data/delete/. Silent: "nothing found" and bad input go under
 * the field. The sessions are gone, so everything that counts or lists them is asked again.
 */
export function useDeleteRespondentData(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: DeleteRespondentDataInput) =>
      apiRequest(
        'POST',
        `${projectPath(id)}respondent-data/delete/`,
        deleteRespondentDataOutput,
        deleteRespondentDataInput.parse(input),
      ),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: projectKeys.deletions(id) });
      void client.invalidateQueries({ queryKey: projectKeys.detail(id) });
      void client.invalidateQueries({ queryKey: projectKeys.lists() });
      void client.invalidateQueries({ queryKey: ['fieldwork'] });
    },
    meta: { silent: true },
  });
}
