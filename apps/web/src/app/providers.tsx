import { createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiRequestError } from '../api/client.ts';
import { USER_QUERY_KEY } from '../features/auth/api.ts';
import { notifyError } from '../features/errors/notify.ts';

export const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans KR", "Apple SD Gothic Neo", sans-serif',
  headings: { fontWeight: '750' },
  // A person who asked their system for less motion gets dialogs, menus and notifications without their transitions.
  respectReducedMotion: true,
});

function onApiError(client: () => QueryClient, error: unknown, silent: boolean) {
  if (error instanceof ApiRequestError && error.isAuthError) {
    // The cabinet guard sees the user vanish and sends them to the login page.
    client().setQueryData(USER_QUERY_KEY, null);
    return;
  }
  if (!silent) notifyError(error);
}

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => onApiError(() => client, error, query.meta?.silent === true),
    }),
    mutationCache: new MutationCache({
      onError: (error, _v, _c, mutation) => onApiError(() => client, error, mutation.meta?.silent === true),
    }),
    defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
  });
  return client;
}

export function Providers({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <Notifications position="top-center" zIndex={1000} />
      <QueryClientProvider client={client}>
        <ModalsProvider>{children}</ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
