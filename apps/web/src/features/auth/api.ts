import {
  type Language,
  type loginInput,
  okOutput,
  setLanguageInput,
  ssoConfigOutput,
  type UserData,
  userDataOutput,
} from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiRequestError, apiRequest } from '../../api/client.ts';

export const USER_QUERY_KEY = ['user-data'] as const;

/** The logged-in user, or null without a session (a 401 is an answer here, not an error). */
export function useUser() {
  return useQuery({
    queryKey: USER_QUERY_KEY,
    queryFn: async (): Promise<UserData | null> => {
      try {
        return await apiRequest('GET', '/users/user-data/', userDataOutput);
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
    retry: false,
    meta: { silent: false },
  });
}

/** Whether the operator configured single sign-on, and the button's text (decision 067). */
export function useSsoConfig() {
  return useQuery({
    queryKey: ['sso-config'],
    queryFn: () => apiRequest('GET', '/auth/sso/', ssoConfigOutput),
    staleTime: 5 * 60_000,
    retry: false,
    meta: { silent: true },
  });
}

export function useLogin() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof loginInput>) => apiRequest('POST', '/auth/login/', userDataOutput, input),
    onSuccess: (user) => client.setQueryData(USER_QUERY_KEY, user),
    meta: { silent: true },
  });
}

export function useLogout() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('POST', '/auth/logout/', okOutput),
    onSuccess: () => {
      client.clear();
      client.setQueryData(USER_QUERY_KEY, null);
    },
  });
}

/** Stores the interface language on the user; a lost session sends them to log in. */
export function useSaveLanguage() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveUserLanguage,
    onSuccess: (user) => client.setQueryData(USER_QUERY_KEY, user),
  });
}

export function saveUserLanguage(language: Language) {
  return apiRequest(
    'PATCH',
    '/users/user-data/language/',
    userDataOutput,
    setLanguageInput.parse({ current_lang: language }),
  );
}
