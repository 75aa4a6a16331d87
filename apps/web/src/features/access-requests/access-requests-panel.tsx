import type { AccessRequest, ConvertAccessRequestOutput } from '@emolens/contracts';
import {
  ActionIcon,
  Badge,
  Button,
  CopyButton,
  Group,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCheck, IconCopy, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { InlineLoadError } from '../../components/load-states.tsx';
import { useAccessRequests, useConvertAccessRequest } from './api.ts';

/**
 * Staff, under Sessions: the requests for access from the public pages, new first, and the customer account made from
 * one, whose password is shown once (issue 28, item 16).
 */
export function AccessRequestsPanel() {
  const { t } = useTranslation('licences');
  const requests = useAccessRequests();
  const [made, setMade] = useState<ConvertAccessRequestOutput | null>(null);
  const items = requests.data?.items ?? [];
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="access-requests">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={3} size="h4">
            {t('requests.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('requests.subtitle')}
          </Text>
        </Stack>
        {requests.isPending && <Loader size="sm" />}
        {requests.isError && (
          <InlineLoadError text={t('requests.loadFailed')} retryLabel={t('retry')} onRetry={() => requests.refetch()} />
        )}
        {requests.isSuccess && items.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="access-requests-empty">
            {t('requests.empty')}
          </Text>
        )}
        {items.map((request) => (
          <RequestRow key={request.id} request={request} onMade={setMade} />
        ))}
      </Stack>
      <Modal
        opened={made !== null}
        onClose={() => setMade(null)}
        title={t('requests.madeTitle')}
        centered
        closeOnClickOutside={false}
      >
        {made && <MadeAccount made={made} onClose={() => setMade(null)} />}
      </Modal>
    </Paper>
  );
}

function RequestRow({
  request,
  onMade,
}: {
  request: AccessRequest;
  onMade: (made: ConvertAccessRequestOutput) => void;
}) {
  const { t, i18n } = useTranslation('licences');
  const { t: tp } = useTranslation('public');
  const convert = useConvertAccessRequest();
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(request.created_at),
  );
  const confirm = () =>
    openConfirm({
      title: t('requests.confirmTitle'),
      children: <Text size="sm">{t('requests.confirmText', { email: request.email })}</Text>,
      labels: { confirm: t('requests.convert'), cancel: t('cancel') },
      confirmProps: { 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () => convert.mutateAsync(request.id, { onSuccess: onMade }),
    });
  return (
    <Paper withBorder radius="md" p="md" data-testid="access-request" data-status={request.status}>
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Stack gap={4} style={{ flex: 1, minWidth: 220 }}>
          <Group gap="xs" wrap="wrap">
            <Text fw={600}>{request.name}</Text>
            <Text c="dimmed">· {request.company}</Text>
            <Badge variant="light" color={request.status === 'new' ? 'indigo' : 'teal'}>
              {t(`requests.statuses.${request.status}`)}
            </Badge>
          </Group>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {request.email}
          </Text>
          <Text size="xs" c="dimmed">
            {t('requests.package', { name: tp(`price.packages.${request.package}.name`) })} ·{' '}
            {t('requests.received', { date })}
          </Text>
          {request.message && (
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {request.message}
            </Text>
          )}
          {request.account && (
            <Text size="xs" c="teal.8" data-testid="access-request-account">
              {t('requests.account', {
                username: request.account.username,
                publicId: request.account.public_user_id,
              })}
            </Text>
          )}
        </Stack>
        {request.status === 'new' && (
          <Button
            variant="light"
            leftSection={<IconUserPlus size={16} />}
            onClick={confirm}
            loading={convert.isPending}
            data-testid="access-request-convert"
          >
            {t('requests.convert')}
          </Button>
        )}
      </Group>
    </Paper>
  );
}

function MadeAccount({ made, onClose }: { made: ConvertAccessRequestOutput; onClose: () => void }) {
  const { t } = useTranslation('licences');
  const field = (label: string, value: string, testId: string) => (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <TextInput label={label} value={value} readOnly style={{ flex: 1 }} data-testid={testId} />
      <CopyButton value={value}>
        {({ copied, copy }) => (
          <ActionIcon variant="default" size={36} onClick={copy} color={copied ? 'teal' : undefined} aria-label={label}>
            {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          </ActionIcon>
        )}
      </CopyButton>
    </Group>
  );
  return (
    <Stack gap="md" data-testid="access-request-made">
      <Text size="sm">{t('requests.madeText', { email: made.request.email })}</Text>
      {field(t('requests.username'), made.username, 'made-username')}
      {field(t('requests.password'), made.password, 'made-password')}
      {made.request.account && field(t('requests.publicId'), made.request.account.public_user_id, 'made-public-id')}
      <Button onClick={onClose} data-testid="access-request-made-close">
        {t('requests.close')}
      </Button>
    </Stack>
  );
}
