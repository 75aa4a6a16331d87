import {
  type CreateWebhookEndpointInput,
  createdWebhookEndpointOutput,
  type UpdateWebhookEndpointInput,
  webhookAttemptListOutput,
  webhookEndpointListOutput,
  webhookEndpointSchema,
  webhookTestOutput,
} from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

const ENDPOINTS_KEY = ['webhook-endpoints'] as const;
const BASE = '/users/webhooks/endpoints/';
const one = (id: string) => `${BASE}${encodeURIComponent(id)}/`;

/** GET /api/users/webhooks/endpoints/ */
export function useWebhookEndpoints() {
  return useQuery({
    queryKey: ENDPOINTS_KEY,
    queryFn: () => apiRequest('GET', BASE, webhookEndpointListOutput),
  });
}

/** GET …/{id}/deliveries/ — refreshed while shown, so new attempts appear. */
export function useWebhookAttempts(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...ENDPOINTS_KEY, id, 'deliveries'],
    queryFn: () => apiRequest('GET', `${one(id)}deliveries/`, webhookAttemptListOutput),
    enabled,
    refetchInterval: enabled ? 3000 : false,
  });
}

function useInvalidating<I, O>(fn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => client.invalidateQueries({ queryKey: ENDPOINTS_KEY }) });
}

export const useCreateWebhookEndpoint = () =>
  useInvalidating((input: CreateWebhookEndpointInput) => apiRequest('POST', BASE, createdWebhookEndpointOutput, input));

export const useUpdateWebhookEndpoint = () =>
  useInvalidating(({ id, ...input }: UpdateWebhookEndpointInput & { id: string }) =>
    apiRequest('PATCH', one(id), webhookEndpointSchema, input),
  );

export const useRotateWebhookSecret = () =>
  useInvalidating((id: string) => apiRequest('POST', `${one(id)}rotate-secret/`, createdWebhookEndpointOutput));

export const useDeleteWebhookEndpoint = () =>
  useInvalidating((id: string) => apiRequest('DELETE', one(id), z.unknown()));

export const useSendWebhookTest = () =>
  useInvalidating((id: string) => apiRequest('POST', `${one(id)}test/`, webhookTestOutput));
