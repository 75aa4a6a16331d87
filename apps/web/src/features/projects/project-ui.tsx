import {
  AUDIENCE_TYPES,
  CALIBRATION_SECONDS,
  type FlowType,
  LANGUAGES,
  PLATFORMS,
  type ProjectStatus,
} from '@emolens/contracts';
import { Badge, type BadgeProps, Tooltip } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n/messages.ts';

export const STATUS_COLORS: Record<ProjectStatus, string> = {
  new: 'gray',
  active: 'green',
  completed: 'blue',
  archived: 'dark',
};

export function StatusBadge({ status, ...props }: { status: ProjectStatus } & BadgeProps) {
  const { t } = useTranslation('projects');
  return (
    <Badge color={STATUS_COLORS[status]} variant="light" miw="max-content" data-testid="project-status" {...props}>
      {t(`status.${status}`)}
    </Badge>
  );
}

export function FlowTypeBadge({
  flowType,
  withCalibration = false,
  short = false,
  ...props
}: { flowType: FlowType; withCalibration?: boolean; short?: boolean } & BadgeProps) {
  const { t } = useTranslation('projects');
  return (
    <Badge
      color={flowType === 'new' ? 'indigo' : 'grape'}
      variant="outline"
      tt="none"
      miw="max-content"
      data-testid="project-flow-type"
      {...props}
    >
      {withCalibration
        ? t('flowType.badgeWithCalibration', {
            name: t(`flowType.${flowType}.title`),
            seconds: CALIBRATION_SECONDS[flowType],
          })
        : t(`flowType.${flowType}.${short ? 'short' : 'title'}`)}
    </Badge>
  );
}

/** The installation's demo project (decision 017): made on first start from real face photos, never in benchmarks. */
export function DemoBadge(props: BadgeProps) {
  const { i18n } = useTranslation();
  return (
    <Tooltip label={translateMessage({ key: 'project.demoHint' }, i18n.language)} multiline w={300} withArrow>
      <Badge color="orange" variant="light" miw="max-content" data-testid="project-demo" {...props}>
        {translateMessage({ key: 'project.demo' }, i18n.language)}
      </Badge>
    </Tooltip>
  );
}

/** Select options of the project's enumerations, in the interface language. */
export function useProjectOptions() {
  // `t` changes with the language, and the labels with it.
  const { t } = useTranslation('projects');
  return useMemo(
    () => ({
      platforms: PLATFORMS.map((value) => ({ value, label: t(`platforms.${value}`) })),
      languages: LANGUAGES.map((value) => ({ value, label: t(`languages.${value}`) })),
      audienceTypes: AUDIENCE_TYPES.map((value) => ({ value, label: t(`audienceTypes.${value}`) })),
    }),
    [t],
  );
}

/** Dates and numbers of the current interface language. */
export function useProjectFormat() {
  const { i18n } = useTranslation('projects');
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    const date = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
    const shortDate = new Intl.DateTimeFormat(language, { dateStyle: 'short' });
    const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    const number = new Intl.NumberFormat(language);
    return {
      date: (iso: string) => date.format(new Date(iso)),
      shortDate: (iso: string) => shortDate.format(new Date(iso)),
      dateTime: (iso: string) => dateTime.format(new Date(iso)),
      number: (value: number) => number.format(value),
    };
  }, [language]);
}
