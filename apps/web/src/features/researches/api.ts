import {
  addNewResearchInput,
  type listResearchesQuery,
  type MessageKey,
  type Research,
  type ResearchDataInput,
  researchListOutput,
  researchOutput,
  updateResearchDataInput,
} from '@emolens/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { z } from 'zod';
import { ApiRequestError, apiRequest } from '../../api/client.ts';
import { projectKeys, useProjectList } from '../projects/api.ts';

export type ListResearchesQuery = z.input<typeof listResearchesQuery>;
export type UpdateResearchInput = z.input<typeof updateResearchDataInput>;

const BASE = '/cabinet/campaigns/';
const researchPath = (id: string) => `${BASE}${encodeURIComponent(id)}/`;

export const researchKeys = {
  all: ['researches'] as const,
  lists: () => ['researches', 'list'] as const,
  list: (query: ListResearchesQuery) => ['researches', 'list', query] as const,
  detail: (id: string) => ['researches', 'detail', id] as const,
};

/** The list address with only the parameters that are set, in the order of the contract. */
export function researchListPath(query: ListResearchesQuery): string {
  const params = new URLSearchParams();
  if (query.project_id) params.set('project_id', query.project_id);
  if (query.search) params.set('search', query.search);
  if (query.content_type) params.set('content_type', query.content_type);
  if (query.page !== undefined) params.set('page', String(query.page));
  if (query.page_size !== undefined) params.set('page_size', String(query.page_size));
  const text = params.toString();
  return text ? `${BASE}?${text}` : BASE;
}

/** Rules of the research form the server answers with its own message (spec section 5). */
export const RULE_MESSAGES: readonly MessageKey[] = ['campaign.notInOwnProject', 'campaign.contentlessForbidden'];

/** GET /cabinet/campaigns/: the previous page stays on screen while the next one loads. */
export function useResearchList(query: ListResearchesQuery) {
  return useQuery({
    queryKey: researchKeys.list(query),
    queryFn: () => apiRequest('GET', researchListPath(query), researchListOutput),
    placeholderData: keepPreviousData,
  });
}

/** A 404 (or another 4xx) does not get better by asking again. */
const retryServerErrors = (count: number, error: unknown) =>
  count < 1 && !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500);

/**
 * GET /cabinet/campaigns/{id}/get-campaign-data/. Silent: the page shows the spec's own load error.
 * `enabled` is false for the placeholder id 'new'.
 */
export function useResearch(id: string, enabled: boolean) {
  return useQuery({
    queryKey: researchKeys.detail(id),
    queryFn: () => apiRequest('GET', `${researchPath(id)}get-campaign-data/`, researchOutput),
    enabled,
    retry: retryServerErrors,
    meta: { silent: true },
  });
}

/** The user's draft projects, the only ones a research can be added to (spec sections 4 and 5). */
export function useDraftProjects() {
  return useProjectList({ tab: 'drafts', page: 1, page_size: 100 });
}

/** Keeps the caches in step after a change: the list, and the projects' research counts. */
function useRefreshLists() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: researchKeys.lists() });
    void client.invalidateQueries({ queryKey: projectKeys.all });
  };
}

/**
 * POST /cabinet/projects/add-new-campaign/ with one research; `fromWizard` for the project wizard,
 * the only place a shelf research is made. Silent: the form shows the errors.
 */
export function useCreateResearch() {
  const client = useQueryClient();
  const refresh = useRefreshLists();
  return useMutation({
    mutationFn: async ({
      projectId,
      data,
      fromWizard = false,
    }: {
      projectId: string;
      data: ResearchDataInput;
      fromWizard?: boolean;
    }): Promise<Research> => {
      const body = addNewResearchInput.parse({
        project_id: projectId,
        campaigns_data: [data],
        from_wizard: fromWizard,
      });
      const result = await apiRequest(
        'POST',
        '/cabinet/projects/add-new-campaign/',
        z.object({ campaigns: z.array(researchOutput) }),
        body,
      );
      const created = result.campaigns[0];
      if (!created) throw new Error('The server created no research');
      return created;
    },
    onSuccess: (research) => {
      client.setQueryData(researchKeys.detail(research.id), research);
      refresh();
    },
    meta: { silent: true },
  });
}

/** PATCH /cabinet/campaigns/{id}/update-campaign-data/. Silent: the form shows field errors and conflicts. */
export function useUpdateResearch(id: string) {
  const client = useQueryClient();
  const refresh = useRefreshLists();
  return useMutation({
    mutationFn: (input: UpdateResearchInput) =>
      apiRequest(
        'PATCH',
        `${researchPath(id)}update-campaign-data/`,
        researchOutput,
        updateResearchDataInput.parse(input),
      ),
    onSuccess: (research) => {
      client.setQueryData(researchKeys.detail(research.id), research);
      refresh();
    },
    meta: { silent: true },
  });
}

/** DELETE /cabinet/campaigns/{id}/ (researches of draft projects only); answers 204 without a body. */
export function useDeleteResearch(id: string) {
  const client = useQueryClient();
  const refresh = useRefreshLists();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', researchPath(id), z.unknown()),
    onSuccess: refresh,
    // invalid_state means the project was launched meanwhile: show the research as it is now.
    onError: () => client.invalidateQueries({ queryKey: researchKeys.detail(id) }),
    meta: { silent: true },
  });
}

/** Drops a research that no longer exists; call it after leaving its page. */
export function useForgetResearch() {
  const client = useQueryClient();
  return useCallback((id: string) => client.removeQueries({ queryKey: researchKeys.detail(id) }), [client]);
}
