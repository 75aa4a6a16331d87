import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCreateProject } from './api.ts';
import { FlowTypePicker } from './flow-type-picker.tsx';
import { ProjectFields } from './project-fields.tsx';
import { newProjectBody, useNewProjectForm } from './project-form.ts';
import { FlowTypeBadge } from './project-ui.tsx';
import { closeSaveErrors, notifyInvalid, showSaveError } from './save-errors.ts';

const REQUIRED_FIELDS = ['title', 'platform', 'respondent_language', 'audience_type'] as const;

/**
 * "Create project": first the flow type (spec section 2), then the required fields; the new
 * project opens on its own page, where everything else is filled in.
 */
export function CreateProjectDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('projects');
  const navigate = useNavigate();
  const create = useCreateProject();
  const [stage, setStage] = useState<'flow' | 'details'>('flow');
  const form = useNewProjectForm();

  const close = () => {
    onClose();
    // After the closing animation, start from the beginning next time.
    setTimeout(() => {
      form.reset();
      setStage('flow');
    }, 200);
  };

  const next = () => {
    if (!form.validateField('flow_type').hasError) setStage('details');
  };

  const submit = form.onSubmit(
    (values) =>
      create.mutate(newProjectBody(values), {
        onSuccess: (project) => {
          closeSaveErrors();
          onClose();
          navigate(`/cabinet/projects/${project.id}`);
        },
        onError: (error) => showSaveError(error, form.setErrors),
      }),
    () => notifyInvalid(),
  );

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={stage === 'flow' ? t('create.flowTitle') : t('create.detailsTitle')}
      size={stage === 'flow' ? 'xl' : 'lg'}
      centered
      data-testid="create-project-dialog"
    >
      {stage === 'flow' ? (
        <Stack gap="lg">
          <FlowTypePicker
            value={form.values.flow_type}
            onChange={(value) => form.setFieldValue('flow_type', value)}
            error={form.errors.flow_type}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('actions.cancel')}
            </Button>
            <Button onClick={next}>{t('actions.continue')}</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="lg">
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {t('create.flowChosen')}
              </Text>
              {form.values.flow_type && <FlowTypeBadge flowType={form.values.flow_type} withCalibration />}
            </Group>
            <ProjectFields input={(field) => form.getInputProps(field)} fields={REQUIRED_FIELDS} autoFocus />
            <Text size="sm" c="dimmed">
              {t('create.restLater')}
            </Text>
            <Group justify="space-between">
              <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} onClick={() => setStage('flow')}>
                {t('actions.back')}
              </Button>
              <Group gap="sm">
                <Button variant="default" onClick={close}>
                  {t('actions.cancel')}
                </Button>
                <Button type="submit" loading={create.isPending}>
                  {t('create.submit')}
                </Button>
              </Group>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
