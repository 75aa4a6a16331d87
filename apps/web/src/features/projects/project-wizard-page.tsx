import { Alert, Button, Group, Paper, SimpleGrid, Stack, Stepper, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowLeft, IconArrowRight, IconCheck, IconInfoCircle } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLeaveGuard } from '../../components/leave-guard.tsx';
import { BackLink } from '../../components/page-notices.tsx';
import { useCreateProject } from './api.ts';
import { FlowTypePicker } from './flow-type-picker.tsx';
import { ProjectFields } from './project-fields.tsx';
import {
  emptyProjectValues,
  type NewProjectFormValues,
  newProjectInput,
  newProjectSchema,
  schemaValidator,
} from './project-form.ts';
import { FlowTypeBadge, useProjectFormat } from './project-ui.tsx';
import { notifyInvalid, showSaveError } from './save-errors.ts';

type Field = keyof NewProjectFormValues;

/** The fields each step checks before the next one opens. */
const STEPS: { key: 'flowType' | 'details' | 'audience' | 'review'; fields: Field[] }[] = [
  { key: 'flowType', fields: ['flow_type'] },
  { key: 'details', fields: ['title', 'description'] },
  { key: 'audience', fields: ['platform', 'respondent_language', 'audience_type', 'required_respondents'] },
  { key: 'review', fields: [] },
];
const REVIEW = STEPS.length - 1;

/** projects/add: create a project step by step (spec section 2, "create via wizard"). */
export function ProjectWizardPage() {
  const { t } = useTranslation('projects');
  const navigate = useNavigate();
  const create = useCreateProject();
  const format = useProjectFormat();
  const [active, setActive] = useState(0);
  const form = useForm<NewProjectFormValues>({
    mode: 'controlled',
    initialValues: emptyProjectValues(),
    validate: schemaValidator(newProjectSchema, newProjectInput),
  });
  const guard = useLeaveGuard(form.isDirty() && !create.isSuccess);

  const stepValid = (step: number) =>
    (STEPS[step]?.fields ?? []).map((field) => form.validateField(field).hasError).every((hasError) => !hasError);

  const next = () => {
    if (stepValid(active)) setActive((step) => Math.min(step + 1, REVIEW));
  };

  /** The stepper's headers go back freely, and forward only through valid steps. */
  const goTo = (step: number) => {
    if (step <= active) return setActive(step);
    for (let s = active; s < step; s += 1) {
      if (!stepValid(s)) return setActive(s);
    }
    setActive(step);
  };

  const submit = () => {
    const result = form.validate();
    if (result.hasErrors) {
      notifyInvalid();
      const first = STEPS.findIndex((step) => step.fields.some((field) => field in result.errors));
      setActive(first === -1 ? 0 : first);
      return;
    }
    create.mutate(newProjectSchema.parse(newProjectInput(form.values)), {
      onSuccess: (project) => {
        guard.allowLeave();
        navigate(`/cabinet/projects/${project.id}`, { replace: true });
      },
      onError: (error) => showSaveError(error, form.setErrors),
    });
  };

  const v = form.values;
  const empty = <Text c="dimmed">{t('review.notSet')}</Text>;

  return (
    <Stack gap="lg" maw={980} data-testid="project-wizard">
      <Stack gap={4}>
        <BackLink to="/cabinet/projects" label={t('project.backToList')} />
        <Title order={2}>{t('wizard.title')}</Title>
        <Text c="dimmed">{t('wizard.subtitle')}</Text>
      </Stack>

      <Paper withBorder radius="lg" p="xl">
        <Stepper active={active} onStepClick={goTo} size="sm" allowNextStepsSelect>
          {STEPS.map((step) => (
            <Stepper.Step
              key={step.key}
              label={t(`wizard.steps.${step.key}.label`)}
              description={t(`wizard.steps.${step.key}.description`)}
            />
          ))}
        </Stepper>

        <Stack gap="lg" mt="xl" data-testid={`wizard-step-${STEPS[active]?.key}`}>
          <Title order={3} size="h4">
            {t(`wizard.steps.${STEPS[active]?.key ?? 'review'}.title`)}
          </Title>
          {active === 0 && (
            <FlowTypePicker
              value={v.flow_type}
              onChange={(value) => form.setFieldValue('flow_type', value)}
              error={form.errors.flow_type}
            />
          )}
          {active === 1 && (
            <ProjectFields input={(field) => form.getInputProps(field)} fields={['title', 'description']} autoFocus />
          )}
          {active === 2 && (
            <ProjectFields
              input={(field) => form.getInputProps(field)}
              fields={['platform', 'respondent_language', 'audience_type', 'required_respondents']}
            />
          )}
          {active === REVIEW && (
            <Stack gap="lg">
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="md" data-testid="wizard-review">
                <ReviewItem label={t('fields.flowType')}>
                  {v.flow_type ? <FlowTypeBadge flowType={v.flow_type} withCalibration /> : empty}
                </ReviewItem>
                <ReviewItem label={t('fields.title')}>{v.title.trim() || empty}</ReviewItem>
                <ReviewItem label={t('fields.description')}>{v.description.trim() || empty}</ReviewItem>
                <ReviewItem label={t('fields.platform')}>
                  {v.platform ? t(`platforms.${v.platform}`) : empty}
                </ReviewItem>
                <ReviewItem label={t('fields.respondentLanguage')}>
                  {v.respondent_language ? t(`languages.${v.respondent_language}`) : empty}
                </ReviewItem>
                <ReviewItem label={t('fields.audienceType')}>
                  {v.audience_type ? t(`audienceTypes.${v.audience_type}`) : empty}
                </ReviewItem>
                <ReviewItem label={t('fields.requiredRespondents')}>
                  {typeof v.required_respondents === 'number' ? format.number(v.required_respondents) : empty}
                </ReviewItem>
              </SimpleGrid>
              <Alert color="indigo" variant="light" icon={<IconInfoCircle size={18} />}>
                {t('review.laterParts')}
              </Alert>
            </Stack>
          )}
        </Stack>

        <Group justify="space-between" mt="xl">
          <Button
            variant="default"
            leftSection={<IconArrowLeft size={16} />}
            onClick={() => setActive((step) => Math.max(step - 1, 0))}
            disabled={active === 0}
          >
            {t('actions.back')}
          </Button>
          {active < REVIEW ? (
            <Button rightSection={<IconArrowRight size={16} />} onClick={next}>
              {t('actions.next')}
            </Button>
          ) : (
            <Button leftSection={<IconCheck size={16} />} onClick={submit} loading={create.isPending}>
              {t('wizard.submit')}
            </Button>
          )}
        </Group>
      </Paper>
      {guard.dialog}
    </Stack>
  );
}

function ReviewItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text component="div" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}
