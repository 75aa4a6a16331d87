import { type AccessRequestInput, accessRequestsOutput, convertAccessRequestOutput } from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';

const requestsKey = ['access-requests'] as const;

/** POST /api/public/access-requests/ — no login. */
export function useRequestAccess() {
  return useMutation({
    mutationFn: (input: AccessRequestInput) =>
      apiRequest('POST', '/public/access-requests/', z.object({ id: z.string() }), input),
  });
}

/** Staff: GET /api/cabinet/access-requests/ */
export function useAccessRequests() {
  return useQuery({
    queryKey: requestsKey,
    queryFn: () => apiRequest('GET', '/cabinet/access-requests/', accessRequestsOutput),
  });
}

/** Staff: makes the customer account of a request; the answer holds its password, once. */
export function useConvertAccessRequest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest('POST', `/cabinet/access-requests/${encodeURIComponent(id)}/account/`, convertAccessRequestOutput),
    onSettled: () => client.invalidateQueries({ queryKey: requestsKey }),
  });
}
