import type { WebhookAttempt } from '@emolens/contracts';
import { Badge, Code, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table.tsx';
import { InlineLoadError } from '../../components/load-states.tsx';
import { useWebhookAttempts } from './api.ts';

/** An endpoint's delivery log: each attempt, newest first (refreshed while shown). */
export function DeliveryLog({ endpointId }: { endpointId: string }) {
  const { t } = useTranslation('integrations');
  const attempts = useWebhookAttempts(endpointId, true);
  const items = attempts.data?.items ?? [];
  return (
    <Stack gap="xs" data-testid="webhook-log">
      <Text size="sm" fw={600}>
        {t('webhooks.logTitle')}
      </Text>
      {attempts.isError && (
        <InlineLoadError
          text={t('webhooks.loadFailed')}
          retryLabel={t('api.retry')}
          onRetry={() => attempts.refetch()}
        />
      )}
      {attempts.data && items.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="webhook-log-empty">
          {t('webhooks.logEmpty')}
        </Text>
      )}
      {items.length > 0 && (
        <DataTable
          minWidth={680}
          verticalSpacing="xs"
          fz="sm"
          columns={[
            t('webhooks.logEvent'),
            t('webhooks.logTime'),
            t('webhooks.logAttempt'),
            t('webhooks.logResult'),
            t('webhooks.logDuration'),
          ]}
        >
          {items.map((a) => (
            <AttemptRow key={a.id} attempt={a} />
          ))}
        </DataTable>
      )}
    </Stack>
  );
}

function AttemptRow({ attempt }: { attempt: WebhookAttempt }) {
  const { t, i18n } = useTranslation('integrations');
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(iso));
  const result = attempt.status_code !== null ? `HTTP ${attempt.status_code}` : t(`webhooks.errors.${attempt.error}`);
  return (
    <Table.Tr data-testid="webhook-log-row">
      <Table.Td>
        <Code fz="xs">{attempt.event_type}</Code>
      </Table.Td>
      <Table.Td>{when(attempt.attempted_at)}</Table.Td>
      <Table.Td>{attempt.attempt}</Table.Td>
      <Table.Td>
        <Stack gap={2}>
          <Badge color={attempt.succeeded ? 'green' : 'red'} variant="light" tt="none" data-testid="webhook-log-result">
            {result}
          </Badge>
          {attempt.next_attempt_at && (
            <Text size="xs" c="dimmed">
              {t('webhooks.nextAttempt', { date: when(attempt.next_attempt_at) })}
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>{t('webhooks.ms', { ms: attempt.duration_ms })}</Table.Td>
    </Table.Tr>
  );
}
