import {
  type ApiTokenList,
  apiTokenListOutput,
  type CreateApiTokenInput,
  createdApiTokenOutput,
} from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

const TOKENS_KEY = ['api-tokens'] as const;

/** GET /api/users/api-access/tokens/ */
export function useApiTokens() {
  return useQuery({
    queryKey: TOKENS_KEY,
    queryFn: (): Promise<ApiTokenList> => apiRequest('GET', '/users/api-access/tokens/', apiTokenListOutput),
  });
}

/** POST /api/users/api-access/access-api-token/ — a new token, or a new secret for one (`replace`). */
export function useCreateApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateApiTokenInput) =>
      apiRequest('POST', '/users/api-access/access-api-token/', createdApiTokenOutput, input),
    onSettled: () => client.invalidateQueries({ queryKey: TOKENS_KEY }),
  });
}

/** DELETE /api/users/api-access/tokens/{id}/ */
export function useRevokeApiToken() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest('DELETE', `/users/api-access/tokens/${encodeURIComponent(id)}/`, z.unknown()),
    onSettled: () => client.invalidateQueries({ queryKey: TOKENS_KEY }),
  });
}
