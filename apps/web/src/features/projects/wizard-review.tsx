import { Alert, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ContentTypeLabel } from '../researches/research-ui.tsx';
import type { NewProjectFormValues } from './project-form.ts';
import { FlowTypeBadge, useProjectFormat } from './project-ui.tsx';
import type { WizardResearchValues } from './wizard-research.ts';

/** The wizard's last step: everything chosen, before the project is created. */
export function WizardReview({
  project: v,
  research,
}: {
  project: NewProjectFormValues;
  research: WizardResearchValues;
}) {
  const { t } = useTranslation('projects');
  const format = useProjectFormat();
  const empty = <Text c="dimmed">{t('review.notSet')}</Text>;
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md" data-testid="wizard-review">
        <ReviewItem label={t('fields.flowType')}>
          {v.flow_type ? <FlowTypeBadge flowType={v.flow_type} withCalibration /> : empty}
        </ReviewItem>
        <ReviewItem label={t('fields.title')}>{v.title.trim() || empty}</ReviewItem>
        <ReviewItem label={t('fields.description')}>{v.description.trim() || empty}</ReviewItem>
        <ReviewItem label={t('fields.platform')}>{v.platform ? t(`platforms.${v.platform}`) : empty}</ReviewItem>
        <ReviewItem label={t('fields.respondentLanguage')}>
          {v.respondent_language ? t(`languages.${v.respondent_language}`) : empty}
        </ReviewItem>
        <ReviewItem label={t('fields.audienceType')}>
          {v.audience_type ? t(`audienceTypes.${v.audience_type}`) : empty}
        </ReviewItem>
        <ReviewItem label={t('fields.requiredRespondents')}>
          {typeof v.required_respondents === 'number' ? format.number(v.required_respondents) : empty}
        </ReviewItem>
        <ReviewItem label={t('review.research')} testId="wizard-review-research">
          {research.content_type ? (
            <Stack gap={4}>
              <ContentTypeLabel type={research.content_type} />
              <Text>{research.title.trim()}</Text>
            </Stack>
          ) : (
            <Text c="dimmed">{t('review.noResearch')}</Text>
          )}
        </ReviewItem>
      </SimpleGrid>
      <Alert color="indigo" variant="light" icon={<IconInfoCircle size={18} />}>
        {t('review.laterParts')}
      </Alert>
    </Stack>
  );
}

function ReviewItem({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={4} data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="div" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}
