import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@emolens/contracts';
import { Checkbox, Code, SimpleGrid } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The event types to choose from, each with what it tells. */
export function EventTypesInput(props: {
  value: WebhookEventType[];
  onChange: (value: WebhookEventType[]) => void;
  error?: string | undefined;
}) {
  const { t } = useTranslation('integrations');
  return (
    <Checkbox.Group
      label={t('webhooks.events')}
      value={props.value}
      onChange={(v) => props.onChange(v as WebhookEventType[])}
      error={props.error}
      data-testid="webhook-events"
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <Checkbox
            key={type}
            value={type}
            label={t(`webhooks.eventTypes.${type}`)}
            description={<Code fz="xs">{type}</Code>}
          />
        ))}
      </SimpleGrid>
    </Checkbox.Group>
  );
}
