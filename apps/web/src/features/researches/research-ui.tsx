import type { ContentType, ResearchStatus } from '@emolens/contracts';
import { Badge, type BadgeProps, Group, Text } from '@mantine/core';
import {
  IconBoxMultiple,
  IconCircleOff,
  IconPhoto,
  IconVideo,
  IconWorldWww,
  type TablerIcon,
} from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export const STATUS_COLORS: Record<ResearchStatus, string> = {
  new: 'gray',
  draft: 'gray',
  active: 'green',
  processing: 'blue',
  reprocessing: 'blue',
  paused: 'yellow',
  done: 'teal',
  completed: 'indigo',
  error: 'red',
  archived: 'dark',
};

export const CONTENT_TYPE_ICONS: Record<ContentType, TablerIcon> = {
  site: IconWorldWww,
  video: IconVideo,
  pictures: IconPhoto,
  contentless: IconCircleOff,
  shelf: IconBoxMultiple,
};

export function ResearchStatusBadge({ status, ...props }: { status: ResearchStatus } & BadgeProps) {
  const { t } = useTranslation('researches');
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" miw="max-content" data-testid="campaign-status" {...props}>
      {t(`status.${status}`)}
    </Badge>
  );
}

export function ContentTypeLabel({ type }: { type: ContentType }) {
  const { t } = useTranslation('researches');
  const Icon = CONTENT_TYPE_ICONS[type];
  return (
    <Group gap={6} wrap="nowrap" data-testid="campaign-content-type">
      <Icon size={16} color="var(--mantine-color-indigo-6)" aria-hidden />
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {t(`contentTypes.${type}`)}
      </Text>
    </Group>
  );
}

/** Dates and numbers of the current interface language. */
export function useResearchFormat() {
  const { i18n } = useTranslation('researches');
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
    const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
    return {
      date: (iso: string) => date.format(new Date(iso)),
      dateTime: (iso: string) => dateTime.format(new Date(iso)),
      number: (value: number) => number.format(value),
    };
  }, [language]);
}
