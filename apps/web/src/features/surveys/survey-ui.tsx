import type { Language, QuestionType, Survey, SurveyType } from '@emolens/contracts';
import { Anchor, Badge, type BadgeProps, Group, Stack, Text, Tooltip } from '@mantine/core';
import {
  IconAbc,
  IconFilter,
  IconForms,
  IconInfoCircle,
  IconLayoutGrid,
  IconListCheck,
  IconListNumbers,
  IconLock,
  IconNumber,
  IconSelector,
  type TablerIcon,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export const TYPE_ICONS: Record<SurveyType, TablerIcon> = { screener: IconFilter, survey: IconForms };
export const QUESTION_ICONS: Record<QuestionType, TablerIcon> = {
  single: IconSelector,
  multiple: IconListCheck,
  scale: IconListNumbers,
  number: IconNumber,
  text: IconAbc,
  matrix: IconLayoutGrid,
  info: IconInfoCircle,
};

export function SurveyTypeBadge({ type, ...props }: { type: SurveyType } & BadgeProps) {
  const { t } = useTranslation('surveys');
  const Icon = TYPE_ICONS[type];
  return (
    <Badge
      variant="light"
      color={type === 'screener' ? 'grape' : 'indigo'}
      leftSection={<Icon size={12} />}
      miw="max-content"
      data-testid="survey-type"
      {...props}
    >
      {t(`types.${type}`)}
    </Badge>
  );
}

export function EnabledBadge({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('surveys');
  return (
    <Badge variant="dot" color={enabled ? 'green' : 'gray'} miw="max-content" data-testid="survey-enabled">
      {enabled ? t('state.enabled') : t('state.disabled')}
    </Badge>
  );
}

export function FrozenBadge() {
  const { t } = useTranslation('surveys');
  return (
    <Tooltip label={t('state.frozenHint')} withArrow multiline w={260}>
      <Badge
        variant="light"
        color="gray"
        leftSection={<IconLock size={12} />}
        miw="max-content"
        data-testid="survey-frozen"
      >
        {t('state.frozen')}
      </Badge>
    </Tooltip>
  );
}

/** Where a questionnaire is used: each scenario slot, with its project. */
export function SurveyLinks({ links, size = 'sm' }: { links: Survey['links']; size?: 'xs' | 'sm' }) {
  const { t } = useTranslation('surveys');
  if (links.length === 0) {
    return (
      <Text size={size} c="dimmed" data-testid="survey-links">
        {t('links.none')}
      </Text>
    );
  }
  return (
    <Stack gap={4} data-testid="survey-links">
      {links.map((link) => (
        <Text key={`${link.scenario_id}-${link.slot}`} size={size} lh={1.35}>
          <Anchor component={Link} to={`/cabinet/projects/${link.project_id}`} size={size} inherit>
            {link.project_title}
          </Anchor>
          <Text span c="dimmed" inherit>
            {' · '}
            {t('links.scenarioSlot', { number: link.scenario_order, slot: t(`links.slots.${link.slot}`) })}
          </Text>
        </Text>
      ))}
    </Stack>
  );
}

/** The languages of the linked projects in which some text is missing (the server's check). */
export function MissingTranslations({ languages, linked }: { languages: readonly Language[]; linked: boolean }) {
  const { t } = useTranslation('surveys');
  if (languages.length === 0) {
    return (
      <Text size="sm" c={linked ? 'teal.7' : 'dimmed'} data-testid="survey-missing-translations">
        {linked ? t('translations.complete') : '—'}
      </Text>
    );
  }
  return (
    <Tooltip label={t('translations.missingIn', { languages: languages.map((l) => t(`languages.${l}`)).join(', ') })}>
      <Group gap={4} wrap="nowrap" data-testid="survey-missing-translations">
        {languages.map((l) => (
          <Badge key={l} size="sm" variant="light" color="orange" tt="uppercase">
            {l}
          </Badge>
        ))}
      </Group>
    </Tooltip>
  );
}
