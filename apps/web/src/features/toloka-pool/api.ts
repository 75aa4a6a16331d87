import {
  type CreateTolokaPoolInput,
  type TolokaAcceptanceMode,
  type TolokaDecisionsOutput,
  tolokaDecisionsOutput,
  tolokaPoolOutput,
} from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';

const key = (campaignId: string) => ['toloka-pool', campaignId] as const;
const path = (campaignId: string) => `/cabinet/campaigns/${encodeURIComponent(campaignId)}/toloka/`;

/** GET /api/cabinet/campaigns/{id}/toloka/ — Toloka's own state, asked again every 15 s while the page is open. */
export function useTolokaPool(campaignId: string) {
  return useQuery({
    queryKey: key(campaignId),
    queryFn: () => apiRequest('GET', path(campaignId), tolokaPoolOutput),
    refetchInterval: 15_000,
  });
}

/** Makes the pool, runs it or stops it; each answer is the state after. */
export function useTolokaPoolAction(campaignId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: { kind: 'create'; input: CreateTolokaPoolInput } | { kind: 'open' | 'close' }) =>
      action.kind === 'create'
        ? apiRequest('POST', path(campaignId), tolokaPoolOutput, action.input)
        : apiRequest('POST', `${path(campaignId)}${action.kind}/`, tolokaPoolOutput),
    onSuccess: (data) => client.setQueryData(key(campaignId), data),
    onError: () => client.invalidateQueries({ queryKey: key(campaignId) }),
  });
}

const decisionsKey = (campaignId: string) => ['toloka-decisions', campaignId] as const;

/** GET /api/cabinet/campaigns/{id}/toloka/decisions/ — the decisions on the pool's assignments (issue 14, item 5). */
export function useTolokaDecisions(campaignId: string, enabled: boolean) {
  return useQuery({
    queryKey: decisionsKey(campaignId),
    queryFn: () => apiRequest('GET', `${path(campaignId)}decisions/`, tolokaDecisionsOutput),
    enabled,
  });
}

/** The acceptance setting, checking the submitted codes, and sending the decisions waiting; each answer is the list after. */
export function useTolokaDecisionsAction(campaignId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (
      action:
        | { kind: 'acceptance'; acceptance: TolokaAcceptanceMode }
        | { kind: 'review' }
        | { kind: 'confirm'; assignmentIds?: string[] },
    ): Promise<TolokaDecisionsOutput> => {
      if (action.kind === 'acceptance') {
        return apiRequest('PUT', `${path(campaignId)}acceptance/`, tolokaDecisionsOutput, {
          acceptance: action.acceptance,
        });
      }
      if (action.kind === 'review') return apiRequest('POST', `${path(campaignId)}review/`, tolokaDecisionsOutput);
      return apiRequest('POST', `${path(campaignId)}decisions/confirm/`, tolokaDecisionsOutput, {
        assignment_ids: action.assignmentIds ?? null,
      });
    },
    onSuccess: (data) => client.setQueryData(decisionsKey(campaignId), data),
    onError: () => client.invalidateQueries({ queryKey: decisionsKey(campaignId) }),
  });
}
