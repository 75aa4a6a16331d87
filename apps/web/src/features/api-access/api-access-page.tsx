import { type ApiToken, type CreatedApiToken, createApiTokenInput } from '@emolens/contracts';
import { Anchor, Badge, Button, Code, Group, Paper, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client.ts';
import { openConfirm } from '../../components/confirm.ts';
import { ListCard, SectionCard, SectionTitle } from '../../components/list-card.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { issueMessages, translateFields } from '../../i18n/messages.ts';
import { notifyError } from '../errors/notify.ts';
import { useApiTokens, useCreateApiToken, useRevokeApiToken } from './api.ts';
import { SecretShownOnce } from './secret-shown-once.tsx';

/**
 * Cabinet → API access (spec sections 2, 3, 7): the user's personal tokens for the report builder's API — made,
 * shown once, rotated, revoked — and how to call the API with one.
 */
export function ApiAccessPage() {
  const { t } = useTranslation('integrations');
  const tokens = useApiTokens();
  const create = useCreateApiToken();
  const revoke = useRevokeApiToken();
  const [description, setDescription] = useState('');
  const [expires, setExpires] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<CreatedApiToken | null>(null);

  const submit = (replace: string | null) => {
    const body = { scope: 'report_builder' as const, description, expires_at: expires || null, replace };
    const parsed = createApiTokenInput.safeParse(body);
    if (!parsed.success) {
      setErrors(issueMessages(parsed.error));
      return;
    }
    setErrors({});
    return create.mutateAsync(body, {
      onSuccess: (made) => {
        setShown(made);
        if (!replace) {
          setDescription('');
          setExpires('');
        }
      },
      onError: (error) => {
        setErrors(error instanceof ApiRequestError ? translateFields(error) : {});
        notifyError(error);
      },
    });
  };

  const confirmRotate = (token: ApiToken) =>
    openConfirm({
      title: t('api.rotateTitle'),
      children: <Text size="sm">{t('api.rotateText', { name: token.description || token.prefix })}</Text>,
      labels: { confirm: t('api.rotate'), cancel: t('api.cancel') },
      confirmProps: { 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () => submit(token.id),
    });
  const confirmRevoke = (token: ApiToken) =>
    openConfirm({
      title: t('api.revokeTitle'),
      children: <Text size="sm">{t('api.revokeText', { name: token.description || token.prefix })}</Text>,
      labels: { confirm: t('api.revoke'), cancel: t('api.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () =>
        revoke.mutateAsync(token.id, {
          onSuccess: () => notifications.show({ color: 'green', message: t('api.revoked'), autoClose: 4000 }),
          onError: notifyError,
        }),
    });

  const items = tokens.data?.items ?? [];
  const curlExample = `curl -H "Authorization: Token emo_…" \\\n  ${window.location.origin}/report_builder/api/campaigns/`;
  return (
    <Stack gap="lg" maw={1100} data-testid="api-access">
      <PageHeading title={t('api.title')} subtitle={t('api.subtitle')} />

      <SectionCard>
        <Stack gap="md">
          <SectionTitle title={t('api.createTitle')} />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <TextInput label={t('api.scope')} value={t('api.scopes.report_builder')} readOnly />
            <TextInput
              label={t('api.description')}
              placeholder={t('api.descriptionPlaceholder')}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              error={errors.description}
              data-testid="token-description"
            />
            <TextInput
              type="date"
              label={t('api.expires')}
              description={t('api.expiresHint')}
              value={expires}
              onChange={(e) => setExpires(e.currentTarget.value)}
              error={errors.expires_at}
              data-testid="token-expires"
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => submit(null)?.catch(() => undefined)}
              loading={create.isPending}
              disabled={tokens.data ? !tokens.data.can.create : true}
              data-testid="token-create"
            >
              {t('api.create')}
            </Button>
          </Group>
        </Stack>
      </SectionCard>

      <ListCard
        title={t('api.listTitle')}
        testId="token-list"
        query={tokens}
        errorText={t('api.loadFailed')}
        retryLabel={t('api.retry')}
        emptyText={t('api.none')}
        emptyTestId="token-none"
        items={items}
        breakpoint="sm"
        minWidth={760}
        columns={[t('api.description'), t('api.token'), t('api.created'), t('api.lastUsed'), t('api.expires'), '']}
        row={(token) => <TokenRow key={token.id} token={token} onRotate={confirmRotate} onRevoke={confirmRevoke} />}
        card={(token) => <TokenCard key={token.id} token={token} onRotate={confirmRotate} onRevoke={confirmRevoke} />}
      />

      <SectionCard>
        <Stack gap="sm">
          <SectionTitle title={t('api.howTitle')} />
          <Text size="sm">{t('api.howText')}</Text>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {curlExample}
          </Code>
          <Anchor href="/api/docs" target="_blank" size="sm">
            {t('api.docs')}
          </Anchor>
        </Stack>
      </SectionCard>

      <SecretShownOnce
        secret={shown?.token ?? null}
        title={t('api.shownTitle')}
        warning={t('api.shownOnce')}
        onClose={() => setShown(null)}
        testId="token-shown"
      />
    </Stack>
  );
}

interface TokenProps {
  token: ApiToken;
  onRotate: (token: ApiToken) => void;
  onRevoke: (token: ApiToken) => void;
}

function useTokenCells({ token, onRotate, onRevoke }: TokenProps) {
  const { t, i18n } = useTranslation('integrations');
  const when = (iso: string | null, dateOnly = false) =>
    iso
      ? new Intl.DateTimeFormat(
          i18n.resolvedLanguage,
          dateOnly ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'short' },
        ).format(new Date(dateOnly ? `${iso}T12:00:00Z` : iso))
      : null;
  const cells: Record<'name' | 'token' | 'created' | 'used' | 'expires' | 'actions', ReactNode> = {
    name: (
      <Text size="sm" fw={500}>
        {token.description || t('api.noDescription')}
      </Text>
    ),
    token: <Code>{`${token.prefix}…`}</Code>,
    created: <Text size="sm">{when(token.created_at)}</Text>,
    used: (
      <Text size="sm" c={token.last_used_at ? undefined : 'dimmed'}>
        {when(token.last_used_at) ?? t('api.never')}
      </Text>
    ),
    expires: token.expired ? (
      <Badge color="red" variant="light" tt="none">
        {t('api.expired', { date: when(token.expires_at, true) })}
      </Badge>
    ) : (
      <Text size="sm" c={token.expires_at ? undefined : 'dimmed'}>
        {when(token.expires_at, true) ?? t('api.noExpiry')}
      </Text>
    ),
    actions: (
      <Group gap="xs" wrap="nowrap" justify="flex-end">
        <Button
          size="xs"
          variant="default"
          leftSection={<IconRefresh size={14} />}
          onClick={() => onRotate(token)}
          data-testid="token-rotate"
        >
          {t('api.rotate')}
        </Button>
        <Button
          size="xs"
          variant="light"
          color="red"
          leftSection={<IconTrash size={14} />}
          onClick={() => onRevoke(token)}
          data-testid="token-revoke"
        >
          {t('api.revoke')}
        </Button>
      </Group>
    ),
  };
  return cells;
}

function TokenRow(props: TokenProps) {
  const c = useTokenCells(props);
  return (
    <Table.Tr data-testid="token-row">
      <Table.Td>{c.name}</Table.Td>
      <Table.Td>{c.token}</Table.Td>
      <Table.Td>{c.created}</Table.Td>
      <Table.Td>{c.used}</Table.Td>
      <Table.Td>{c.expires}</Table.Td>
      <Table.Td>{c.actions}</Table.Td>
    </Table.Tr>
  );
}

function TokenCard(props: TokenProps) {
  const { t } = useTranslation('integrations');
  const c = useTokenCells(props);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="token-card">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap">
          {c.name}
          {c.token}
        </Group>
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            {t('api.created')}:
          </Text>
          {c.created}
        </Group>
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            {t('api.lastUsed')}:
          </Text>
          {c.used}
        </Group>
        <Group gap="xs">
          <Text size="xs" c="dimmed">
            {t('api.expires')}:
          </Text>
          {c.expires}
        </Group>
        {c.actions}
      </Stack>
    </Paper>
  );
}
