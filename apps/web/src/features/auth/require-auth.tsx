import { Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router';
import { useUser } from './api.ts';

/** Spec section 2: the cabinet shows a "checking authorization" state, then lets the user in or
 * sends them to the login page, which brings them back here afterwards. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const { data: user, isPending, isError } = useUser();
  if (isPending) {
    return (
      <Center h="100vh" data-testid="checking-authorization">
        <Stack align="center" gap="sm">
          <Loader />
          <Text c="dimmed">{t('auth.checking')}</Text>
        </Stack>
      </Center>
    );
  }
  if (isError || !user) {
    const next = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
  }
  return children;
}
