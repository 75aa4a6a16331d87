import type { SelfServiceState } from '@emolens/contracts';
import { Badge, type BadgeProps, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export const STATE_COLORS: Record<SelfServiceState, string> = {
  draft: 'gray',
  moderation: 'yellow',
  moderation_ok: 'teal',
  collection: 'blue',
  report_processing: 'violet',
  report_completed: 'green',
  completed: 'indigo',
  archived: 'dark',
};

export function StateBadge({ state, ...props }: { state: SelfServiceState } & Omit<BadgeProps, 'color'>) {
  const { t } = useTranslation('selfService');
  return (
    <Badge
      variant="light"
      color={STATE_COLORS[state]}
      // Never cut short in a narrow table cell.
      miw="max-content"
      data-testid="self-service-state"
      data-state={state}
      {...props}
    >
      {t(`states.${state}`)}
    </Badge>
  );
}

/** Dates, numbers and lengths in the interface language. */
export function useSelfServiceFormat() {
  const { i18n } = useTranslation('selfService');
  const locale = i18n.resolvedLanguage ?? i18n.language;
  const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
  const number = new Intl.NumberFormat(locale);
  return {
    dateTime: (value: string) => dateTime.format(new Date(value)),
    date: (value: string) => date.format(new Date(value)),
    number: (value: number) => number.format(value),
    /** A length in seconds as m:ss. */
    duration: (seconds: number) => {
      const whole = Math.round(seconds);
      return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
    },
  };
}

/** Usable respondents collected of those required: a bar and the numbers. */
export function CollectedProgress({
  collected,
  required,
  size = 'sm',
}: {
  collected: number;
  required: number;
  size?: 'sm' | 'md' | 'lg';
}) {
  const { t } = useTranslation('selfService');
  const format = useSelfServiceFormat();
  const percent = required > 0 ? Math.min(100, Math.round((collected / required) * 100)) : 0;
  return (
    <Stack gap={4} miw={120} data-testid="self-service-progress">
      <Progress
        value={percent}
        size={size}
        color={percent >= 100 ? 'green' : 'blue'}
        aria-label={t('progress.aria', { collected, required })}
      />
      <Group gap={6} justify="space-between" wrap="nowrap">
        <Text size="xs" c="dimmed">
          {t('progress.value', { collected: format.number(collected), required: format.number(required) })}
        </Text>
        <Text size="xs" c="dimmed">
          {percent}%
        </Text>
      </Group>
    </Stack>
  );
}
