import { SURVEY_TYPES, type SurveyType, surveyBodySchema } from '@emolens/contracts';
import { Button, Group, Modal, Radio, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { translateMessage } from '../../i18n/messages.ts';
import { closeSaveErrors, notifySaveInvalid, showSaveError } from '../errors/save-errors.ts';
import { useCreateSurvey } from './api.ts';
import { surveyPath } from './paths.ts';
import { TYPE_ICONS } from './survey-ui.tsx';

interface Values {
  type: SurveyType;
  title: string;
}

/** "New questionnaire": its type (fixed from then on) and title; it opens in the editor, empty and enabled. */
export function CreateSurveyDialog({
  opened,
  onClose,
  initialType,
}: {
  opened: boolean;
  onClose: () => void;
  initialType: SurveyType;
}) {
  const { t } = useTranslation('surveys');
  const navigate = useNavigate();
  const create = useCreateSurvey();
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: { type: initialType, title: '' },
    validate: (values) => {
      const parsed = surveyBodySchema.safeParse({ type: values.type, title: values.title });
      const issue = parsed.error?.issues.find((i) => i.path[0] === 'title');
      return issue ? { title: translateMessage(issue.message) } : {};
    },
  });

  // A dialog opened from a filtered list starts with the list's type.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on opening
  useEffect(() => {
    if (opened) form.setValues({ type: initialType, title: '' });
  }, [opened]);

  const submit = form.onSubmit(
    (values) =>
      create.mutate(
        { type: values.type, title: values.title, enabled: true, questions: [] },
        {
          onSuccess: (survey) => {
            closeSaveErrors();
            onClose();
            navigate(surveyPath(survey.id));
          },
          onError: (error) => showSaveError(error, { setErrors: form.setErrors }),
        },
      ),
    () => notifySaveInvalid(),
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('create.title')}
      size="lg"
      centered
      data-testid="create-survey-dialog"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="lg">
          <Radio.Group
            label={t('create.type')}
            value={form.values.type}
            onChange={(value) => form.setFieldValue('type', value as SurveyType)}
          >
            <Stack gap="sm" mt="xs">
              {SURVEY_TYPES.map((type) => {
                const Icon = TYPE_ICONS[type];
                return (
                  <Radio.Card key={type} value={type} radius="md" p="md" data-testid={`create-type-${type}`}>
                    <Group wrap="nowrap" align="flex-start" gap="md">
                      <Radio.Indicator />
                      <ThemeIcon variant="light" color={type === 'screener' ? 'grape' : 'indigo'} size="lg" radius="md">
                        <Icon size={20} />
                      </ThemeIcon>
                      <Stack gap={2}>
                        <Text fw={600}>{t(`types.${type}`)}</Text>
                        <Text size="sm" c="dimmed">
                          {t(`create.about.${type}`)}
                        </Text>
                      </Stack>
                    </Group>
                  </Radio.Card>
                );
              })}
            </Stack>
          </Radio.Group>
          <TextInput
            label={t('fields.title')}
            required
            data-autofocus
            data-testid="create-survey-title"
            {...form.getInputProps('title')}
          />
          <Text size="sm" c="dimmed">
            {t('create.typeFixed')}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} data-testid="create-survey-submit">
              {t('create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
