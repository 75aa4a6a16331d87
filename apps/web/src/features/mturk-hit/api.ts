import { type CreateMturkHitInput, mturkHitOutput } from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../api/client.ts';

const key = (campaignId: string) => ['mturk-hit', campaignId] as const;
const path = (campaignId: string) => `/cabinet/campaigns/${encodeURIComponent(campaignId)}/mturk/`;

/** GET /api/cabinet/campaigns/{id}/mturk/ — MTurk's own state, asked again every 15 s while the page is open. */
export function useMturkHit(campaignId: string) {
  return useQuery({
    queryKey: key(campaignId),
    queryFn: () => apiRequest('GET', path(campaignId), mturkHitOutput),
    refetchInterval: 15_000,
  });
}

/** Makes the HIT or expires it; each answer is the state after. */
export function useMturkHitAction(campaignId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: { kind: 'create'; input: CreateMturkHitInput } | { kind: 'expire' }) =>
      action.kind === 'create'
        ? apiRequest('POST', path(campaignId), mturkHitOutput, action.input)
        : apiRequest('POST', `${path(campaignId)}expire/`, mturkHitOutput),
    onSuccess: (data) => client.setQueryData(key(campaignId), data),
    onError: () => client.invalidateQueries({ queryKey: key(campaignId) }),
  });
}
