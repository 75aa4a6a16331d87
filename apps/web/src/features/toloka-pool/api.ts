import { type CreateTolokaPoolInput, tolokaPoolOutput } from '@emolens/contracts';
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
