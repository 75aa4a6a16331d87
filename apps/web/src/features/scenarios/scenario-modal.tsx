import { createScenarioInput, type Scenario, type SurveyType } from '@emolens/contracts';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Switch,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiRequestError } from '../../api/client.ts';
import { translateFields } from '../../i18n/messages.ts';
import { notifyError } from '../errors/notify.ts';
import { useResearchList } from '../researches/api.ts';
import { useSurveyList } from '../surveys/api.ts';
import { SURVEYS_PATH } from '../surveys/paths.ts';
import { useCreateScenario, useScenarioList, useUpdateScenario } from './api.ts';
import { type ScenarioValues, scenarioInput, scenarioValidator, scenarioValues } from './scenario-form.ts';

/** Props Mantine's form gives an input: its value, change handler and error. */
type SlotProps = { value?: string | null; onChange: (value: string | null) => void; error?: unknown };

/**
 * The scenario's screener and survey slots: the user's questionnaires of each type (a disabled one is marked:
 * it does not run), none, or a new one made in the editor.
 */
function QuestionnaireSlots({ screener, survey }: { screener: SlotProps; survey: SlotProps }) {
  const { t } = useTranslation('scenarios');
  const list = useSurveyList(null);
  const items = list.data ?? [];
  const slot = (type: SurveyType, props: SlotProps, testId: string) => {
    const data = items
      .filter((s) => s.type === type)
      .map((s) => ({ value: s.id, label: s.enabled ? s.title : `${s.title} · ${t('fields.surveyDisabled')}` }));
    return (
      <Select
        label={t(`fields.${type}Slot`)}
        description={t(`fields.${type}SlotHint`)}
        placeholder={t('fields.surveyNone')}
        data={data}
        value={props.value ?? null}
        onChange={(value) => props.onChange(value)}
        error={typeof props.error === 'string' ? props.error : undefined}
        searchable
        clearable
        nothingFoundMessage={t('fields.surveyNothing')}
        style={{ flex: '1 1 240px' }}
        comboboxProps={{ withinPortal: true }}
        data-testid={testId}
      />
    );
  };
  return (
    <Stack gap={4}>
      <Group gap="md" align="flex-start" wrap="wrap">
        {slot('screener', screener, 'scenario-screener')}
        {slot('survey', survey, 'scenario-survey')}
      </Group>
      <Anchor component={Link} to={SURVEYS_PATH} size="xs" target="_blank">
        {t('fields.surveysLink')}
      </Anchor>
    </Stack>
  );
}

/** Add or edit a scenario; mounted only while open, so that it starts from the scenario each time. */
export function ScenarioModal({
  projectId,
  scenario,
  onClose,
}: {
  projectId: string;
  scenario: Scenario | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('scenarios');
  const researches = useResearchList({ project_id: projectId, page_size: 100 });
  const list = useScenarioList(projectId);
  const create = useCreateScenario(projectId);
  const update = useUpdateScenario(projectId);
  const [base, setBase] = useState(scenario?.updated_at ?? '');
  const [conflict, setConflict] = useState(false);
  const form = useForm<ScenarioValues>({
    mode: 'controlled',
    initialValues: scenarioValues(scenario),
    validate: scenarioValidator(),
    validateInputOnBlur: true,
  });

  const failed = (error: unknown) => {
    if (error instanceof ApiRequestError && error.isAuthError) return;
    if (error instanceof ApiRequestError && error.code === 'conflict') {
      setConflict(true);
      return;
    }
    if (error instanceof ApiRequestError && error.fields && Object.keys(error.fields).length > 0) {
      form.setErrors(translateFields(error));
      return;
    }
    notifyError(error);
    if (error instanceof ApiRequestError && error.code === 'invalid_state') onClose();
  };

  const reload = async () => {
    const result = await list.refetch();
    const fresh = result.data?.find((item) => item.id === scenario?.id);
    if (!fresh) {
      onClose();
      return;
    }
    form.setValues(scenarioValues(fresh));
    form.clearErrors();
    setBase(fresh.updated_at);
    setConflict(false);
  };

  const done = (key: string) => {
    notifications.show({ color: 'green', message: t(key), autoClose: 4000 });
    onClose();
  };

  const submit = form.onSubmit((values) => {
    // The validator has checked the values against this schema.
    const input = createScenarioInput.parse(scenarioInput(values));
    if (scenario) {
      update.mutate(
        { id: scenario.id, input: { ...input, updated_at: base } },
        { onSuccess: () => done('modal.saved'), onError: failed },
      );
    } else {
      create.mutate(input, { onSuccess: () => done('modal.created'), onError: failed });
    }
  });

  const options = (researches.data?.items ?? []).map((c) => ({ value: c.id, label: c.title }));
  // Researches of the scenario that the list does not hold (say, beyond its first page) stay choosable.
  for (const c of scenario?.campaigns ?? []) {
    if (!options.some((o) => o.value === c.id)) options.push({ value: c.id, label: c.title });
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={scenario ? t('modal.editTitle', { number: scenario.order_number }) : t('modal.addTitle')}
      size="lg"
      centered
    >
      <form onSubmit={submit} noValidate data-testid="scenario-form">
        <Stack gap="md">
          {conflict && (
            <Alert color="red" variant="light" icon={<IconRefresh size={18} />} data-testid="scenario-conflict">
              <Stack gap="xs" align="flex-start">
                {t('modal.conflict')}
                <Button size="xs" color="red" variant="light" onClick={reload} loading={list.isFetching}>
                  {t('modal.conflictReload')}
                </Button>
              </Stack>
            </Alert>
          )}
          <Textarea
            label={t('fields.description')}
            placeholder={t('fields.descriptionPlaceholder')}
            autosize
            minRows={2}
            maxRows={6}
            {...form.getInputProps('description')}
          />
          <MultiSelect
            label={t('fields.researches')}
            description={t('fields.researchesHint')}
            placeholder={options.length ? t('fields.researchesPlaceholder') : undefined}
            nothingFoundMessage={t('fields.noResearches')}
            data={options}
            searchable
            clearable
            data-testid="scenario-researches"
            {...form.getInputProps('campaign_ids')}
          />
          <QuestionnaireSlots
            screener={form.getInputProps('screener_survey_id')}
            survey={form.getInputProps('embedded_survey_id')}
          />
          <Group gap="xl">
            <Switch label={t('fields.randomOrder')} {...form.getInputProps('is_random_order', { type: 'checkbox' })} />
            <Switch
              label={t('fields.faceChecker')}
              {...form.getInputProps('is_use_face_checker', { type: 'checkbox' })}
            />
            <Switch label={t('fields.paid')} {...form.getInputProps('is_paid', { type: 'checkbox' })} />
          </Group>
          {/* Signs and decimals stay as typed, so that the contract refuses them with its message. */}
          <NumberInput
            label={t('fields.quota')}
            description={t('fields.quotaHint')}
            min={0}
            clampBehavior="none"
            {...form.getInputProps('quota')}
            data-testid="scenario-quota"
          />
          <TextInput
            label={t('fields.redirectComplete')}
            placeholder="https://"
            {...form.getInputProps('redirect_links.complete')}
          />
          <TextInput
            label={t('fields.redirectQuotaFull')}
            placeholder="https://"
            {...form.getInputProps('redirect_links.quota_full')}
          />
          <TextInput
            label={t('fields.redirectScreenOut')}
            placeholder="https://"
            {...form.getInputProps('redirect_links.screen_out')}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button
              type="submit"
              loading={create.isPending || update.isPending}
              disabled={conflict}
              data-testid="scenario-submit"
            >
              {scenario ? t('actions.save') : t('modal.addSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
