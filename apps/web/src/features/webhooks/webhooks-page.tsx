import {
  type CreatedWebhookEndpoint,
  createWebhookEndpointInput,
  WEBHOOK_EVENT_TYPES,
  type WebhookEventType,
} from '@emolens/contracts';
import { Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client.ts';
import { SectionCard, SectionTitle } from '../../components/list-card.tsx';
import { InlineLoadError } from '../../components/load-states.tsx';
import { PageHeading } from '../../components/page-heading.tsx';
import { issueMessages, translateFields } from '../../i18n/messages.ts';
import { SecretShownOnce } from '../api-access/secret-shown-once.tsx';
import { notifyError } from '../errors/notify.ts';
import { useCreateWebhookEndpoint, useWebhookEndpoints } from './api.ts';
import { EndpointCard } from './endpoint-card.tsx';
import { EventTypesInput } from './event-types-input.tsx';

/**
 * Cabinet → Webhooks (issue 33, item 3; decision 066): the account's endpoints — made with the events they receive,
 * their signing secret shown once — each with its delivery log, a test event, its secret rotated, enabled or
 * disabled, deleted.
 */
export function WebhooksPage() {
  const { t } = useTranslation('integrations');
  const endpoints = useWebhookEndpoints();
  const create = useCreateWebhookEndpoint();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<WebhookEventType[]>([...WEBHOOK_EVENT_TYPES]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [shown, setShown] = useState<CreatedWebhookEndpoint | null>(null);

  const submit = () => {
    const body = { url, description, event_types: types };
    const parsed = createWebhookEndpointInput.safeParse(body);
    if (!parsed.success) {
      setErrors(issueMessages(parsed.error));
      return;
    }
    setErrors({});
    create.mutate(body, {
      onSuccess: (made) => {
        setShown(made);
        setUrl('');
        setDescription('');
        setTypes([...WEBHOOK_EVENT_TYPES]);
      },
      onError: (error) => {
        setErrors(error instanceof ApiRequestError ? translateFields(error) : {});
        notifyError(error);
      },
    });
  };

  const items = endpoints.data?.items ?? [];
  return (
    <Stack gap="lg" maw={1100} data-testid="webhooks">
      <PageHeading title={t('webhooks.title')} subtitle={t('webhooks.subtitle')} />

      <SectionCard>
        <Stack gap="md">
          <SectionTitle title={t('webhooks.createTitle')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              label={t('webhooks.url')}
              placeholder="https://example.com/emolens/webhooks"
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              error={errors.url}
              required
              data-testid="webhook-url"
            />
            <TextInput
              label={t('webhooks.description')}
              placeholder={t('webhooks.descriptionPlaceholder')}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              error={errors.description}
              data-testid="webhook-description"
            />
          </SimpleGrid>
          <EventTypesInput value={types} onChange={setTypes} error={errors.event_types} />
          <Group justify="flex-end">
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={submit}
              loading={create.isPending}
              disabled={endpoints.data ? !endpoints.data.can.create : true}
              data-testid="webhook-create"
            >
              {t('webhooks.create')}
            </Button>
          </Group>
        </Stack>
      </SectionCard>

      <SectionCard testId="webhook-list">
        <Stack gap="md">
          <SectionTitle title={t('webhooks.listTitle')} hint={t('webhooks.listHint')} />
          {endpoints.isError && (
            <InlineLoadError
              text={t('webhooks.loadFailed')}
              retryLabel={t('api.retry')}
              onRetry={() => endpoints.refetch()}
            />
          )}
          {endpoints.data && items.length === 0 && (
            <Text size="sm" c="dimmed" data-testid="webhook-none">
              {t('webhooks.none')}
            </Text>
          )}
          {items.map((endpoint) => (
            <EndpointCard key={endpoint.id} endpoint={endpoint} onSecret={setShown} />
          ))}
        </Stack>
      </SectionCard>

      {/* The signing secret, shown once after the endpoint is made or its secret rotated. */}
      <SecretShownOnce
        secret={shown?.secret ?? null}
        title={t('webhooks.secretTitle')}
        warning={t('webhooks.secretOnce')}
        hint={t('webhooks.verifyHint')}
        onClose={() => setShown(null)}
        testId="webhook-secret"
      />
    </Stack>
  );
}
