import { Button, Group, Paper, Stack, Stepper, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowLeft, IconArrowRight, IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLeaveGuard } from '../../components/leave-guard.tsx';
import { BackLink } from '../../components/page-notices.tsx';
import { useUser } from '../auth/api.ts';
import { FlowTypePicker } from './flow-type-picker.tsx';
import { ProjectFields } from './project-fields.tsx';
import { type NewProjectFormValues, newProjectBody, useNewProjectForm } from './project-form.ts';
import { notifyInvalid } from './save-errors.ts';
import { useWizardCreate } from './use-wizard-create.ts';
import {
  emptyWizardResearch,
  parseWizardResearch,
  type WizardResearchValues,
  wizardResearchValidator,
} from './wizard-research.ts';
import { WizardResearchStep } from './wizard-research-step.tsx';
import { WizardReview } from './wizard-review.tsx';

type Field = keyof NewProjectFormValues;

/** The fields each step checks before the next one opens. */
const STEPS: { key: 'flowType' | 'details' | 'audience' | 'research' | 'review'; fields: Field[] }[] = [
  { key: 'flowType', fields: ['flow_type'] },
  { key: 'details', fields: ['title', 'description'] },
  { key: 'audience', fields: ['platform', 'respondent_language', 'audience_type', 'required_respondents'] },
  // The research step checks its own form.
  { key: 'research', fields: [] },
  { key: 'review', fields: [] },
];
const RESEARCH = 3;
const REVIEW = STEPS.length - 1;

/** projects/add: create a project step by step (spec section 2, "create via wizard"). */
export function ProjectWizardPage() {
  const { t } = useTranslation('projects');
  const isArmi = useUser().data?.is_armi_user === true;
  const [active, setActive] = useState(0);
  const form = useNewProjectForm();
  const research = useForm<WizardResearchValues>({
    mode: 'controlled',
    initialValues: emptyWizardResearch(),
    validate: wizardResearchValidator(),
  });
  // The guard is read when the project is created, after both are made.
  const wizard = useWizardCreate({ setErrors: form.setErrors, onCreated: () => guard.allowLeave() });
  const guard = useLeaveGuard((form.isDirty() || research.isDirty()) && !wizard.created);

  const stepValid = (step: number) => {
    if (step === RESEARCH) return !research.validate().hasErrors;
    return (STEPS[step]?.fields ?? [])
      .map((field) => form.validateField(field).hasError)
      .every((hasError) => !hasError);
  };

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
    const researchResult = research.validate();
    if (result.hasErrors || researchResult.hasErrors) {
      notifyInvalid();
      const first = STEPS.findIndex((step) => step.fields.some((field) => field in result.errors));
      setActive(first === -1 ? RESEARCH : first);
      return;
    }
    const values = newProjectBody(form.values);
    wizard.start(values, parseWizardResearch(research.values, values.respondent_language));
  };

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
              value={form.values.flow_type}
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
          {active === RESEARCH && <WizardResearchStep form={research} isArmi={isArmi} />}
          {active === REVIEW && <WizardReview project={form.values} research={research.values} />}
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
            <Button
              leftSection={<IconCheck size={16} />}
              onClick={submit}
              loading={wizard.pending}
              data-testid="wizard-submit"
            >
              {t('wizard.submit')}
            </Button>
          )}
        </Group>
      </Paper>
      {guard.dialog}
    </Stack>
  );
}
