import {
  addNewCampaignInput,
  type Campaign,
  type CampaignDataInput,
  campaignListOutput,
  campaignOutput,
  type listCampaignsQuery,
  type MessageKey,
  updateCampaignDataInput,
} from '@emolens/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { z } from 'zod';
import { ApiRequestError, apiRequest } from '../../api/client.ts';
import { projectKeys, useProjectList } from '../projects/api.ts';

export type ListCampaignsQuery = z.input<typeof listCampaignsQuery>;
export type UpdateCampaignInput = z.input<typeof updateCampaignDataInput>;

const BASE = '/cabinet/campaigns/';
const campaignPath = (id: string) => `${BASE}${encodeURIComponent(id)}/`;

export const campaignKeys = {
  all: ['campaigns'] as const,
  lists: () => ['campaigns', 'list'] as const,
  list: (query: ListCampaignsQuery) => ['campaigns', 'list', query] as const,
  detail: (id: string) => ['campaigns', 'detail', id] as const,
};

/** The list address with only the parameters that are set, in the order of the contract. */
export function campaignListPath(query: ListCampaignsQuery): string {
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
export function useCampaignList(query: ListCampaignsQuery) {
  return useQuery({
    queryKey: campaignKeys.list(query),
    queryFn: () => apiRequest('GET', campaignListPath(query), campaignListOutput),
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
export function useCampaign(id: string, enabled: boolean) {
  return useQuery({
    queryKey: campaignKeys.detail(id),
    queryFn: () => apiRequest('GET', `${campaignPath(id)}get-campaign-data/`, campaignOutput),
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
    void client.invalidateQueries({ queryKey: campaignKeys.lists() });
    void client.invalidateQueries({ queryKey: projectKeys.all });
  };
}

/**
 * POST /cabinet/projects/add-new-campaign/ with one research; `fromWizard` for the project wizard,
 * the only place a shelf research is made. Silent: the form shows the errors.
 */
export function useCreateCampaign() {
  const client = useQueryClient();
  const refresh = useRefreshLists();
  return useMutation({
    mutationFn: async ({
      projectId,
      data,
      fromWizard = false,
    }: {
      projectId: string;
      data: CampaignDataInput;
      fromWizard?: boolean;
    }): Promise<Campaign> => {
      const body = addNewCampaignInput.parse({
        project_id: projectId,
        campaigns_data: [data],
        from_wizard: fromWizard,
      });
      const result = await apiRequest(
        'POST',
        '/cabinet/projects/add-new-campaign/',
        z.object({ campaigns: z.array(campaignOutput) }),
        body,
      );
      const created = result.campaigns[0];
      if (!created) throw new Error('The server created no research');
      return created;
    },
    onSuccess: (campaign) => {
      client.setQueryData(campaignKeys.detail(campaign.id), campaign);
      refresh();
    },
    meta: { silent: true },
  });
}

/** PATCH /cabinet/campaigns/{id}/update-campaign-data/. Silent: the form shows field errors and conflicts. */
export function useUpdateCampaign(id: string) {
  const client = useQueryClient();
  const refresh = useRefreshLists();
  return useMutation({
    mutationFn: (input: UpdateCampaignInput) =>
      apiRequest(
        'PATCH',
        `${campaignPath(id)}update-campaign-data/`,
        campaignOutput,
        updateCampaignDataInput.parse(input),
      ),
    onSuccess: (campaign) => {
      client.setQueryData(campaignKeys.detail(campaign.id), campaign);
      refresh();
    },
    meta: { silent: true },
  });
}

/** DELETE /cabinet/campaigns/{id}/ (researches of draft projects only); answers 204 without a body. */
export function useDeleteCampaign(id: string) {
  const client = useQueryClient();
  const refresh = useRefreshLists();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', campaignPath(id), z.unknown()),
    onSuccess: refresh,
    // invalid_state means the project was launched meanwhile: show the research as it is now.
    onError: () => client.invalidateQueries({ queryKey: campaignKeys.detail(id) }),
    meta: { silent: true },
  });
}

/** Drops a research that no longer exists; call it after leaving its page. */
export function useForgetCampaign() {
  const client = useQueryClient();
  return useCallback((id: string) => client.removeQueries({ queryKey: campaignKeys.detail(id) }), [client]);
}
