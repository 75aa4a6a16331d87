import type { RecruitingService, RecruitingToken } from '@emolens/contracts';
import { Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { ListCard } from '../../components/list-card.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { useRecruitingTokenActions, useRecruitingTokens } from './api.ts';
import { LinkForm } from './link-form.tsx';
import { ShareModal, YourUserId } from './share-modal.tsx';
import { type Handlers, TokenCard, TokenRow } from './token-cells.tsx';
import { toastOk } from './token-feedback.ts';
import { TOKEN_PLATFORMS } from './token-platforms.ts';

/**
 * Cabinet → Toloka (also at /cabinet/yandex-tasks) and Cabinet → Amazon (spec sections 2, 3, 6): the user's
 * tokens of the service and those shared with them — link (checked with the service), activate, delete, share
 * by user ID, revoke a share. Secrets are typed once and never shown again.
 */
export function RecruitingTokensPage({ service }: { service: RecruitingService }) {
  const { t } = useTranslation('integrations');
  const platform = TOKEN_PLATFORMS[service];
  const texts = platform.texts;
  const tokens = useRecruitingTokens(service);
  const actions = useRecruitingTokenActions(service);
  const [sharing, setSharing] = useState<RecruitingToken | null>(null);
  const serviceName = t(`${texts}.service`);
  const nameOf = (token: RecruitingToken) => token.description || token.hint;

  const activate = (token: RecruitingToken) =>
    actions.activate.mutate(token.id, { onSuccess: () => toastOk(t('tokens.activated')) });
  const confirmDelete = (token: RecruitingToken) =>
    openConfirm({
      title: t('tokens.deleteTitle'),
      children: <Text size="sm">{t('tokens.deleteText', { name: nameOf(token), service: serviceName })}</Text>,
      labels: { confirm: t('tokens.delete'), cancel: t('tokens.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () => actions.remove.mutateAsync(token.id, { onSuccess: () => toastOk(t('tokens.deleted')) }),
    });
  const confirmRevoke = (token: RecruitingToken, user: { public_user_id: string; username: string }) =>
    openConfirm({
      title: t('tokens.revokeTitle'),
      children: <Text size="sm">{t('tokens.revokeText', { user: user.username, name: nameOf(token) })}</Text>,
      labels: { confirm: t('tokens.revoke'), cancel: t('tokens.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () =>
        actions.revoke.mutateAsync(
          { id: token.id, publicUserId: user.public_user_id },
          { onSuccess: () => toastOk(t('tokens.revoked')) },
        ),
    });
  const handlers: Handlers = { activate, share: setSharing, remove: confirmDelete, revoke: confirmRevoke };

  const items = tokens.data?.items ?? [];
  return (
    <Stack gap="lg" maw={1180} data-testid={`recruiting-tokens-${service}`}>
      <Group justify="space-between" align="flex-start" gap="md">
        <PageHeading
          title={t(`${texts}.title`)}
          subtitle={t(`${texts}.subtitle`)}
          maw={760}
          style={{ flex: '1 1 420px' }}
        />
        <YourUserId />
      </Group>

      <LinkForm key={service} service={service} canLink={tokens.data?.can.link ?? false} />

      <ListCard
        title={t('tokens.listTitle')}
        hint={t('tokens.listHint')}
        testId="recruiting-token-list"
        query={tokens}
        errorText={t('tokens.loadFailed')}
        retryLabel={t('tokens.retry')}
        emptyText={t('tokens.none')}
        emptyTestId="recruiting-token-none"
        items={items}
        breakpoint="md"
        minWidth={900}
        columns={[
          t('tokens.description'),
          t('tokens.status'),
          t('tokens.environment'),
          t(platform.hintLabel),
          t('tokens.owner'),
          t('tokens.sharedWith'),
          t('tokens.linkedAt'),
          '',
        ]}
        row={(token) => <TokenRow key={token.id} token={token} handlers={handlers} platform={platform} />}
        card={(token) => <TokenCard key={token.id} token={token} handlers={handlers} platform={platform} />}
      />

      <ShareModal service={service} token={sharing} onClose={() => setSharing(null)} />
    </Stack>
  );
}
