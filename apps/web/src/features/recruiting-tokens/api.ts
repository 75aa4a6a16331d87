import {
  type RECRUITING_PLATFORM_CONTRACTS,
  type RecruitingService,
  type RecruitingTokenList,
  recruitingTokenListOutput,
  recruitingTokenSchema,
} from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

const BASE = '/cabinet/recruiting-tokens';
const tokensKey = (service: RecruitingService) => ['recruiting-tokens', service] as const;
const tokenPath = (id: string) => `${BASE}/${encodeURIComponent(id)}/`;

/** GET /api/cabinet/recruiting-tokens/?service= — the page shows its own load error, hence silent. */
export function useRecruitingTokens(service: RecruitingService) {
  return useQuery({
    queryKey: tokensKey(service),
    queryFn: (): Promise<RecruitingTokenList> =>
      apiRequest('GET', `${BASE}/?service=${service}`, recruitingTokenListOutput),
    meta: { silent: true },
  });
}

/** What the link forms send: a service's `linkToken` input. */
export type LinkInput = z.output<(typeof RECRUITING_PLATFORM_CONTRACTS)[RecruitingService]['linkToken']>;

/** POST /api/cabinet/recruiting-tokens/{toloka|mturk}/ — the form shows the field errors itself. */
export function useLinkRecruitingToken(service: RecruitingService) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: LinkInput) => apiRequest('POST', `${BASE}/${service}/`, recruitingTokenSchema, input),
    onSettled: () => client.invalidateQueries({ queryKey: tokensKey(service) }),
    meta: { silent: true },
  });
}

/** Activate, delete, share and revoke: each answers 204 and changes the list. */
export function useRecruitingTokenActions(service: RecruitingService) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: tokensKey(service) });
  const activate = useMutation({
    mutationFn: (id: string) => apiRequest('POST', `${tokenPath(id)}activate/`, z.unknown()),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', tokenPath(id), z.unknown()),
    onSettled: refresh,
  });
  const share = useMutation({
    mutationFn: ({ id, userId }: { id: string; userId: string }) =>
      apiRequest('POST', `${tokenPath(id)}shares/`, z.unknown(), { user_id: userId }),
    onSettled: refresh,
    // The share dialog shows the field's message itself.
    meta: { silent: true },
  });
  const revoke = useMutation({
    mutationFn: ({ id, publicUserId }: { id: string; publicUserId: string }) =>
      apiRequest('DELETE', `${tokenPath(id)}shares/${encodeURIComponent(publicUserId)}/`, z.unknown()),
    onSettled: refresh,
  });
  return { activate, remove, share, revoke };
}
