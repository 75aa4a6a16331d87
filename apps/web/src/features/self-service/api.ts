import {
  type CreateSelfServiceInput,
  type ModerateSelfServiceInput,
  type SelfServiceTest,
  selfServiceListOutput,
  selfServiceTest,
  type UpdateSelfServiceInput,
} from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiRequestError, apiRequest } from '../../api/client.ts';

const BASE = '/cabinet/self-service/';
const testPath = (id: string) => `${BASE}${encodeURIComponent(id)}/`;

export type ListScope = 'mine' | 'moderation' | 'all';

export const selfServiceKeys = {
  all: ['self-service'] as const,
  lists: () => ['self-service', 'list'] as const,
  list: (scope: ListScope) => ['self-service', 'list', scope] as const,
  item: (id: string) => ['self-service', 'item', id] as const,
};

/** A 404 (or another 4xx) does not get better by asking again. */
const retryServerErrors = (count: number, error: unknown) =>
  count < 1 && !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500);

/**
 * GET /api/cabinet/self-service/?scope=mine — the user's tests, and what the user may do (`can.create`,
 * `can.moderate`). Silent: the page shows its own load error.
 */
export function useSelfServiceList() {
  return useQuery({
    queryKey: selfServiceKeys.list('mine'),
    queryFn: () => apiRequest('GET', `${BASE}?scope=mine`, selfServiceListOutput),
    meta: { silent: true },
  });
}

/** GET /api/cabinet/self-service/?scope=moderation — the tests waiting for moderation; asked only of staff. */
export function useModerationQueue(enabled: boolean) {
  return useQuery({
    queryKey: selfServiceKeys.list('moderation'),
    queryFn: async () => (await apiRequest('GET', `${BASE}?scope=moderation`, selfServiceListOutput)).items,
    enabled,
    retry: retryServerErrors,
    meta: { silent: true },
  });
}

const PROCESSING_VIDEO = 3000;
const COLLECTING = 15_000;
const WAITING = 30_000;

/**
 * How often the test is asked again: every few seconds while its video is being uploaded or probed (its length, and
 * with it the price, becomes known), now and then while staff moderate it or respondents are being collected.
 */
export function pollInterval(test: SelfServiceTest | undefined): number | false {
  if (!test) return false;
  if (test.state === 'draft') {
    const video = test.video;
    if (!video || video.status === 'failed') return false;
    return video.status !== 'ready' || video.duration_seconds === null || test.sessions_per_interview === null
      ? PROCESSING_VIDEO
      : false;
  }
  if (test.state === 'collection' || test.state === 'report_processing') return COLLECTING;
  if (test.state === 'moderation') return WAITING;
  return false;
}

/** GET /api/cabinet/self-service/{id}/. Silent: the page shows its own load error. */
export function useSelfServiceTest(id: string) {
  return useQuery({
    queryKey: selfServiceKeys.item(id),
    queryFn: () => apiRequest('GET', testPath(id), selfServiceTest),
    retry: retryServerErrors,
    refetchInterval: (query) => pollInterval(query.state.data),
    meta: { silent: true },
  });
}

/** Takes a test the server answered with, and has the lists asked again. */
function useAfterChange() {
  const client = useQueryClient();
  return (test?: SelfServiceTest) => {
    if (test) client.setQueryData(selfServiceKeys.item(test.id), test);
    void client.invalidateQueries({ queryKey: selfServiceKeys.lists() });
  };
}

/** POST /api/cabinet/self-service/ — a new draft. Silent: the form shows the errors. */
export function useCreateSelfService() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: (input: CreateSelfServiceInput) => apiRequest('POST', BASE, selfServiceTest, input),
    onSuccess: after,
    meta: { silent: true },
  });
}

/** PATCH /api/cabinet/self-service/{id}/ with the `updated_at` edited; 409 when it changed meanwhile. Silent. */
export function useUpdateSelfService(id: string) {
  const after = useAfterChange();
  return useMutation({
    mutationFn: (input: UpdateSelfServiceInput) => apiRequest('PATCH', testPath(id), selfServiceTest, input),
    onSuccess: after,
    meta: { silent: true },
  });
}

export type SelfServiceAction =
  | { kind: 'submit' | 'start' | 'complete' | 'archive' }
  | { kind: 'moderation'; input: ModerateSelfServiceInput };

/**
 * A change of state: send to moderation, start, complete, archive, or (staff) the moderation's decision. The answer
 * is the test after; a refusal asks for the test again (its `problems` say why). Silent: the page shows the error.
 */
export function useSelfServiceAction(id: string) {
  const after = useAfterChange();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: SelfServiceAction) =>
      apiRequest(
        'POST',
        `${testPath(id)}${action.kind}/`,
        selfServiceTest,
        action.kind === 'moderation' ? action.input : undefined,
      ),
    onSuccess: after,
    onError: () => client.invalidateQueries({ queryKey: selfServiceKeys.item(id) }),
    meta: { silent: true },
  });
}

/** DELETE /api/cabinet/self-service/{id}/ — a draft only. Silent. */
export function useDeleteSelfService(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', testPath(id), z.unknown()),
    // The test's own entry is left: the page leaves it, and a later visit asks again (and is told 404).
    onSuccess: () => client.invalidateQueries({ queryKey: selfServiceKeys.lists() }),
    meta: { silent: true },
  });
}
