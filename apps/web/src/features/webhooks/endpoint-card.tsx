import type { CreatedWebhookEndpoint, WebhookEndpoint, WebhookEventType } from '@emolens/contracts';
import { Alert, Badge, Button, Code, Group, Modal, Paper, Stack, Switch, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconEdit, IconList, IconRefresh, IconSend, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { notifyError } from '../errors/notify.ts';
import {
  useDeleteWebhookEndpoint,
  useRotateWebhookSecret,
  useSendWebhookTest,
  useUpdateWebhookEndpoint,
} from './api.ts';
import { DeliveryLog } from './delivery-log.tsx';
import { EventTypesInput } from './event-types-input.tsx';

/** One endpoint: its address and events, whether it sends, and what may be done with it (the server's `can`). */
export function EndpointCard({
  endpoint,
  onSecret,
}: {
  endpoint: WebhookEndpoint;
  onSecret: (made: CreatedWebhookEndpoint) => void;
}) {
  const { t, i18n } = useTranslation('integrations');
  const update = useUpdateWebhookEndpoint();
  const rotate = useRotateWebhookSecret();
  const remove = useDeleteWebhookEndpoint();
  const test = useSendWebhookTest();
  const [logOpen, setLogOpen] = useState(false);
  const [editing, setEditing] = useState<WebhookEventType[] | null>(null);
  const name = endpoint.description || endpoint.url;
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  const sendTest = () =>
    test.mutate(endpoint.id, {
      onSuccess: () => {
        setLogOpen(true);
        notifications.show({ color: 'green', message: t('webhooks.testSent'), autoClose: 4000 });
      },
      onError: notifyError,
    });
  const confirmRotate = () =>
    openConfirm({
      title: t('webhooks.rotateTitle'),
      children: <Text size="sm">{t('webhooks.rotateText', { name })}</Text>,
      labels: { confirm: t('webhooks.rotate'), cancel: t('api.cancel') },
      confirmProps: { 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () => rotate.mutateAsync(endpoint.id, { onSuccess: onSecret, onError: notifyError }),
    });
  const confirmDelete = () =>
    openConfirm({
      title: t('webhooks.deleteTitle'),
      children: <Text size="sm">{t('webhooks.deleteText', { name })}</Text>,
      labels: { confirm: t('webhooks.delete'), cancel: t('api.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () => remove.mutateAsync(endpoint.id, { onError: (e) => notifyError(e) }),
    });

  return (
    <Paper withBorder radius="md" p="md" data-testid="webhook-endpoint">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {endpoint.description || t('api.noDescription')}
            </Text>
            <Code style={{ overflowWrap: 'anywhere' }} data-testid="webhook-endpoint-url">
              {endpoint.url}
            </Code>
          </Stack>
          <Switch
            checked={endpoint.enabled}
            disabled={!endpoint.can.edit || update.isPending}
            onChange={(e) =>
              update.mutate({ id: endpoint.id, enabled: e.currentTarget.checked }, { onError: (e) => notifyError(e) })
            }
            label={endpoint.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
            data-testid="webhook-enabled"
          />
        </Group>
        {endpoint.disabled_reason === 'failing' && endpoint.disabled_at && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="webhook-auto-disabled">
            {t('webhooks.autoDisabled', { date: when(endpoint.disabled_at) })}
          </Alert>
        )}
        {endpoint.enabled && endpoint.failing_since && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
            {t('webhooks.failingSince', { date: when(endpoint.failing_since) })}
          </Alert>
        )}
        <Group gap={6}>
          {endpoint.event_types.map((type) => (
            <Badge key={type} variant="light" tt="none">
              {t(`webhooks.eventTypes.${type}`)}
            </Badge>
          ))}
        </Group>
        <Text size="xs" c="dimmed">
          {t('webhooks.secretPrefix')}: <Code fz="xs">{`${endpoint.secret_prefix}…`}</Code> · {t('api.created')}{' '}
          {when(endpoint.created_at)}
        </Text>
        <Group gap="xs">
          <Button
            size="xs"
            variant="light"
            leftSection={<IconSend size={14} />}
            onClick={sendTest}
            loading={test.isPending}
            disabled={!endpoint.can.test}
            data-testid="webhook-test"
          >
            {t('webhooks.sendTest')}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconList size={14} />}
            onClick={() => setLogOpen((o) => !o)}
            data-testid="webhook-log-toggle"
          >
            {logOpen ? t('webhooks.hideLog') : t('webhooks.showLog')}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconEdit size={14} />}
            onClick={() => setEditing(endpoint.event_types)}
            disabled={!endpoint.can.edit}
            data-testid="webhook-edit"
          >
            {t('webhooks.editEvents')}
          </Button>
          <Button
            size="xs"
            variant="default"
            leftSection={<IconRefresh size={14} />}
            onClick={confirmRotate}
            disabled={!endpoint.can.edit}
            data-testid="webhook-rotate"
          >
            {t('webhooks.rotate')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            leftSection={<IconTrash size={14} />}
            onClick={confirmDelete}
            disabled={!endpoint.can.delete}
            data-testid="webhook-delete"
          >
            {t('webhooks.delete')}
          </Button>
        </Group>
        {logOpen && <DeliveryLog endpointId={endpoint.id} />}
      </Stack>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={t('webhooks.editEvents')}
        centered
        size="lg"
      >
        {editing && (
          <Stack gap="md">
            <EventTypesInput value={editing} onChange={setEditing} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                {t('api.cancel')}
              </Button>
              <Button
                loading={update.isPending}
                disabled={editing.length === 0}
                onClick={() =>
                  update.mutate(
                    { id: endpoint.id, event_types: editing },
                    { onSuccess: () => setEditing(null), onError: (e) => notifyError(e) },
                  )
                }
                data-testid="webhook-edit-save"
              >
                {t('webhooks.save')}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Paper>
  );
}
