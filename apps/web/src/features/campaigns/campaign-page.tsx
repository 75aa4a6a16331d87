import type { Campaign } from '@emolens/contracts';
import { Button, Center, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEyeOff, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation, useOutletContext, useParams } from 'react-router';
import { ApiRequestError } from '../../api/client.ts';
import { campaignKeys, useCampaign } from './api.ts';

/** The placeholder id of a research being created (spec section 2). */
export const NEW_ID = 'new';

export interface CampaignContext {
  /** null while creating (`campaign/new/...`). */
  campaign: Campaign | null;
  refetch: () => Promise<{ data?: Campaign | undefined }>;
}

/** What the children of campaign/{id} get from it. */
export function useCampaignContext(): CampaignContext {
  return useOutletContext<CampaignContext>();
}

/**
 * campaign/{id}: loads the research first (spec section 2), then renders its child page. The id
 * 'new' means create: nothing is loaded, and no research stored from an earlier page is kept.
 */
export function CampaignPage() {
  const { t } = useTranslation('campaigns');
  const { id = '' } = useParams();
  const isNew = id === NEW_ID;
  const client = useQueryClient();
  const query = useCampaign(id, !isNew);
  const notFound = query.error instanceof ApiRequestError && query.error.status === 404;

  // A research being created starts from nothing: drop anything cached under the placeholder id.
  useEffect(() => {
    if (isNew) client.removeQueries({ queryKey: campaignKeys.detail(NEW_ID) });
  }, [isNew, client]);

  // Spec section 8: a failed load is a red notification with the spec's text.
  useEffect(() => {
    if (!query.error) return;
    if (query.error instanceof ApiRequestError && query.error.isAuthError) return;
    notifications.show({ color: 'red', message: t('load.error'), autoClose: 10_000 });
  }, [query.error, t]);

  if (isNew) return <Outlet context={{ campaign: null, refetch: query.refetch } satisfies CampaignContext} />;
  if (query.data) {
    return <Outlet context={{ campaign: query.data, refetch: query.refetch } satisfies CampaignContext} />;
  }
  if (notFound) {
    return (
      <Center py={96} px="md" data-testid="campaign-not-found">
        <Stack align="center" gap="md" maw={520}>
          <ThemeIcon size={64} radius="xl" variant="light" color="gray">
            <IconEyeOff size={32} />
          </ThemeIcon>
          <Title order={2} ta="center">
            {t('load.notFoundTitle')}
          </Title>
          <Text c="dimmed" ta="center">
            {t('load.notFoundText')}
          </Text>
          <Button component={Link} to="/cabinet/campaigns">
            {t('form.backToList')}
          </Button>
        </Stack>
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Center py={96} px="md" data-testid="campaign-load-error">
        <Stack align="center" gap="md" maw={520}>
          <Text c="dimmed" ta="center">
            {t('load.error')}
          </Text>
          <Button leftSection={<IconRefresh size={16} />} onClick={() => void query.refetch()}>
            {t('actions.retry')}
          </Button>
        </Stack>
      </Center>
    );
  }
  return (
    <Center h="60vh" data-testid="campaign-loading">
      <Loader />
    </Center>
  );
}

/** campaign/{id} itself: the research's form (contentless researches have their own). */
export function CampaignIndex() {
  const { campaign } = useCampaignContext();
  const { search } = useLocation();
  const child = campaign?.content_type === 'contentless' ? 'contentless' : 'form';
  return <Navigate to={`${child}${search}`} replace />;
}
