import { NumberInput, Select, Stack, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { ProjectFormValues } from './project-form.ts';
import { useProjectOptions } from './project-ui.tsx';

export type ProjectField = keyof ProjectFormValues;
type InputProps = ReturnType<UseFormReturnType<ProjectFormValues>['getInputProps']>;

export const ALL_PROJECT_FIELDS: readonly ProjectField[] = [
  'title',
  'description',
  'platform',
  'respondent_language',
  'audience_type',
  'required_respondents',
];

/**
 * The inputs of a project, shared by the create dialog, the wizard steps and the project page.
 * `input` is the form's `getInputProps`; `readOnly` shows a completed or archived project.
 */
export function ProjectFields({
  input,
  fields = ALL_PROJECT_FIELDS,
  readOnly = false,
  autoFocus = false,
}: {
  input: (field: ProjectField) => InputProps;
  fields?: readonly ProjectField[];
  readOnly?: boolean;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation('projects');
  const options = useProjectOptions();
  const first = fields[0];
  // A completed or archived project reads as a record, not as a form waiting for input.
  const common = (field: ProjectField) => ({
    readOnly,
    variant: readOnly ? 'filled' : 'default',
    autoFocus: autoFocus && field === first,
    ...input(field),
  });
  const noChevron = readOnly ? <span /> : undefined;

  const render: Record<ProjectField, () => React.ReactNode> = {
    title: () => (
      <TextInput
        key="title"
        label={t('fields.title')}
        placeholder={readOnly ? undefined : t('fields.titlePlaceholder')}
        withAsterisk={!readOnly}
        {...common('title')}
      />
    ),
    description: () => (
      <Textarea
        key="description"
        label={t('fields.description')}
        placeholder={readOnly ? undefined : t('fields.descriptionPlaceholder')}
        autosize
        minRows={3}
        maxRows={10}
        {...common('description')}
      />
    ),
    platform: () => (
      <Select
        key="platform"
        label={t('fields.platform')}
        placeholder={readOnly ? undefined : t('fields.platformPlaceholder')}
        withAsterisk={!readOnly}
        data={options.platforms}
        allowDeselect={false}
        rightSection={noChevron}
        {...common('platform')}
      />
    ),
    respondent_language: () => (
      <Select
        key="respondent_language"
        label={t('fields.respondentLanguage')}
        description={readOnly ? undefined : t('fields.respondentLanguageHint')}
        placeholder={readOnly ? undefined : t('fields.selectPlaceholder')}
        withAsterisk={!readOnly}
        data={options.languages}
        allowDeselect={false}
        rightSection={noChevron}
        {...common('respondent_language')}
      />
    ),
    audience_type: () => (
      <Select
        key="audience_type"
        label={t('fields.audienceType')}
        placeholder={readOnly ? undefined : t('fields.selectPlaceholder')}
        withAsterisk={!readOnly}
        data={options.audienceTypes}
        allowDeselect={false}
        rightSection={noChevron}
        {...common('audience_type')}
      />
    ),
    required_respondents: () => (
      <NumberInput
        key="required_respondents"
        label={t('fields.requiredRespondents')}
        description={readOnly ? undefined : t('fields.requiredRespondentsHint')}
        placeholder={readOnly ? undefined : t('fields.requiredRespondentsPlaceholder')}
        min={0}
        max={1_000_000}
        allowDecimal={false}
        allowNegative={false}
        thousandSeparator=" "
        {...common('required_respondents')}
      />
    ),
  };

  return <Stack gap="md">{fields.map((field) => render[field]())}</Stack>;
}
