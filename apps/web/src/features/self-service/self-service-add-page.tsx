import { createSelfServiceInput, LANGUAGES, type Language } from '@emolens/contracts';
import { Button, Group, List, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGE_NAMES } from '../../components/language-switcher.tsx';
import { useLeaveGuard } from '../../components/leave-guard.tsx';
import { BackLink } from '../../components/page-notices.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { translateMessage } from '../../i18n/messages.ts';
import { closeSaveErrors, notifySaveInvalid, showSaveError } from '../errors/save-errors.ts';
import { useCreateSelfService } from './api.ts';

interface AddValues {
  title: string;
  language: Language;
}

const STEPS = ['video', 'categories', 'audience', 'survey', 'moderation', 'start'] as const;

/**
 * self-service/add (issue 15, item 2): the name and the respondents' language of a new test; the server makes the
 * draft (its project, research and survey) and the wizard continues on the test's page.
 */
export function SelfServiceAddPage() {
  const { t } = useTranslation('selfService');
  const navigate = useNavigate();
  const create = useCreateSelfService();
  const form = useForm<AddValues>({
    mode: 'controlled',
    initialValues: { title: '', language: currentLanguage() },
    validate: (values) => {
      const result = createSelfServiceInput.safeParse(values);
      if (result.success) return {};
      return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), translateMessage(i.message)]));
    },
  });
  const guard = useLeaveGuard(form.isDirty() && !create.isSuccess);

  const submit = form.onSubmit(
    (values) =>
      create.mutate(values, {
        onSuccess: (test) => {
          closeSaveErrors();
          guard.allowLeave();
          navigate(`/cabinet/self-service/${encodeURIComponent(test.id)}`);
        },
        onError: (error) => showSaveError(error, { setErrors: form.setErrors }),
      }),
    () => notifySaveInvalid(),
  );

  return (
    <Stack gap="lg" maw={960} data-testid="self-service-add">
      <Stack gap={6}>
        <BackLink to="/cabinet/self-service" label={t('page.backToList')} />
        <Title order={2}>{t('add.title')}</Title>
        <Text c="dimmed">{t('add.subtitle')}</Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <form onSubmit={submit} noValidate data-testid="self-service-add-form">
            <Stack gap="md">
              <TextInput
                label={t('add.name')}
                description={t('add.nameHint')}
                placeholder={t('add.namePlaceholder')}
                required
                data-autofocus
                data-testid="self-service-title"
                {...form.getInputProps('title')}
              />
              <Select
                label={t('add.language')}
                description={t('add.languageHint')}
                data={LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
                allowDeselect={false}
                required
                data-testid="self-service-language"
                {...form.getInputProps('language')}
              />
              <Group justify="flex-end">
                <Button
                  type="submit"
                  rightSection={<IconArrowRight size={16} />}
                  loading={create.isPending}
                  data-testid="self-service-create"
                >
                  {t('add.submit')}
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} bg="gray.0">
          <Stack gap="sm">
            <Title order={3} size="h5">
              {t('add.nextTitle')}
            </Title>
            <List type="ordered" spacing={6} size="sm">
              {STEPS.map((step) => (
                <List.Item key={step}>{t(`add.next.${step}`)}</List.Item>
              ))}
            </List>
            <Text size="xs" c="dimmed">
              {t('add.nextHint')}
            </Text>
          </Stack>
        </Paper>
      </SimpleGrid>
      {guard.dialog}
    </Stack>
  );
}
