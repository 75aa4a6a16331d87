import {
  createSurveyInput,
  type Survey,
  type SurveyType,
  surveyListOutput,
  surveyOutput,
  type updateSurveyInput,
} from '@emolens/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ApiRequestError, apiRequest } from '../../api/client.ts';

export type CreateSurveyInput = z.input<typeof createSurveyInput>;
export type UpdateSurveyInput = z.input<typeof updateSurveyInput>;

const BASE = '/cabinet/surveys/';
const surveyPath = (id: string) => `${BASE}${encodeURIComponent(id)}/`;

export const surveyKeys = {
  all: ['surveys'] as const,
  lists: () => ['surveys', 'list'] as const,
  list: (type: SurveyType | null) => ['surveys', 'list', type ?? 'all'] as const,
  detail: (id: string) => ['surveys', 'detail', id] as const,
};

/** GET /cabinet/surveys/[?type=]: the user's questionnaires, newest change first. */
export function useSurveyList(type: SurveyType | null) {
  return useQuery({
    queryKey: surveyKeys.list(type),
    queryFn: async () => (await apiRequest('GET', type ? `${BASE}?type=${type}` : BASE, surveyListOutput)).items,
    placeholderData: keepPreviousData,
  });
}

/** A 404 (or another 4xx) does not get better by asking again. */
const retryServerErrors = (count: number, error: unknown) =>
  count < 1 && !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500);

/** GET /cabinet/surveys/{id}/. Silent: the page shows its own load error. */
export function useSurvey(id: string) {
  return useQuery({
    queryKey: surveyKeys.detail(id),
    queryFn: () => apiRequest('GET', surveyPath(id), surveyOutput),
    retry: retryServerErrors,
    meta: { silent: true },
  });
}

/** After a change: the lists, and the questionnaire itself when the answer holds it. */
function useAfterChange() {
  const client = useQueryClient();
  return (survey?: Survey) => {
    if (survey) client.setQueryData(surveyKeys.detail(survey.id), survey);
    void client.invalidateQueries({ queryKey: surveyKeys.lists() });
  };
}

/** POST /cabinet/surveys/. Silent: the dialog shows field errors. */
export function useCreateSurvey() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: (input: CreateSurveyInput) => apiRequest('POST', BASE, surveyOutput, createSurveyInput.parse(input)),
    onSuccess: after,
    meta: { silent: true },
  });
}

/**
 * PATCH /cabinet/surveys/{id}/ with the whole questionnaire and the `updated_at` it was read at; 409 when it
 * changed meanwhile. Silent: the editor shows the answer. Not parsed here: the server's field messages (with
 * their paths) are what the editor shows, in the same places as its own.
 */
export function useUpdateSurvey(id: string) {
  const after = useAfterChange();
  return useMutation({
    mutationFn: (input: UpdateSurveyInput) => apiRequest('PATCH', surveyPath(id), surveyOutput, input),
    onSuccess: after,
    meta: { silent: true },
  });
}

/** DELETE /cabinet/surveys/{id}/ (204). */
export function useDeleteSurvey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', surveyPath(id), z.unknown()),
    onSuccess: (_, id) => {
      client.removeQueries({ queryKey: surveyKeys.detail(id) });
      void client.invalidateQueries({ queryKey: surveyKeys.lists() });
    },
  });
}

/** POST /cabinet/surveys/{id}/copy/: a new questionnaire with the same questions, not linked anywhere. */
export function useCopySurvey() {
  const after = useAfterChange();
  return useMutation({
    mutationFn: (id: string) => apiRequest('POST', `${surveyPath(id)}copy/`, surveyOutput),
    onSuccess: after,
  });
}
