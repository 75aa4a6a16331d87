import { CONTENT_TYPES, type ContentType } from '@emolens/contracts';
import { Select, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconFolder } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { FormSection } from '../../components/form-section.tsx';
import type { ResearchFormValues } from './research-form.ts';
import type { ResearchEditorState } from './use-research-editor.tsx';

/** The research's project (when creating), name, description, content type and site address. */
export function ResearchMainFields({
  editor,
  contentless,
  isArmi,
}: {
  editor: ResearchEditorState;
  contentless: boolean;
  isArmi: boolean;
}) {
  const { t } = useTranslation('researches');
  const { form, mode, editable } = editor;
  return (
    <FormSection title={t('form.main')}>
      {mode === 'create' ? (
        <Select
          label={t('form.project')}
          description={t('form.projectHint')}
          placeholder={t('create.projectPlaceholder')}
          data={editor.drafts.map((p) => ({ value: p.id, label: p.title }))}
          leftSection={<IconFolder size={16} />}
          searchable
          allowDeselect={false}
          withAsterisk
          nothingFoundMessage={t('create.nothingFound')}
          {...form.getInputProps('project_id')}
          error={form.errors.project_id ?? (editor.projectUnavailable ? t('form.projectNotDraft') : undefined)}
          data-testid="campaign-project"
        />
      ) : null}
      <TextInput
        label={t('fields.title')}
        description={editable ? t('fields.titleHint') : undefined}
        placeholder={editable ? t('fields.titlePlaceholder') : undefined}
        withAsterisk={editable}
        readOnly={!editable}
        data-autofocus
        {...form.getInputProps('title')}
      />
      <Textarea
        label={t('fields.description')}
        placeholder={editable ? t('fields.descriptionPlaceholder') : undefined}
        readOnly={!editable}
        autosize
        minRows={2}
        maxRows={8}
        {...form.getInputProps('description')}
      />
      <ContentTypeField form={form} mode={mode} contentless={contentless} isArmi={isArmi} />
      {form.values.content_type === 'site' && (
        <TextInput
          label={t('fields.siteUrl')}
          description={t('fields.siteUrlHint')}
          placeholder="https://"
          readOnly={!editable}
          maxLength={2000}
          {...form.getInputProps('site_url')}
        />
      )}
    </FormSection>
  );
}

/** The content type: chosen when creating (never shelf: spec section 5), fixed afterwards. */
function ContentTypeField({
  form,
  mode,
  contentless,
  isArmi,
}: {
  form: UseFormReturnType<ResearchFormValues>;
  mode: 'create' | 'edit';
  contentless: boolean;
  isArmi: boolean;
}) {
  const { t } = useTranslation('researches');
  if (mode === 'edit' || contentless) {
    const value = form.values.content_type;
    return (
      <TextInput
        label={t('fields.contentType')}
        description={mode === 'edit' ? t('fields.contentTypeFixed') : t('fields.contentlessFixed')}
        value={value ? t(`contentTypes.${value}`) : ''}
        readOnly
        variant="filled"
        data-testid="campaign-content-type-fixed"
      />
    );
  }
  const options = CONTENT_TYPES.filter((type) => !(type === 'contentless' && isArmi)).map((type: ContentType) => ({
    value: type,
    label: t(`contentTypes.${type}`),
    disabled: type === 'shelf',
  }));
  return (
    <Select
      label={t('fields.contentType')}
      description={t('fields.shelfHint')}
      placeholder={t('fields.contentTypePlaceholder')}
      data={options}
      withAsterisk
      allowDeselect={false}
      {...form.getInputProps('content_type')}
      data-testid="campaign-content-type-select"
    />
  );
}
