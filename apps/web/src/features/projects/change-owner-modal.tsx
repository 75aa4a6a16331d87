import { changeOwnerInput, type Project } from '@emolens/contracts';
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client.ts';
import { translateFields } from '../../i18n/messages.ts';
import { notifyError } from '../errors/notify.ts';
import { useChangeOwner } from './api.ts';
import { schemaValidator } from './project-form.ts';

/**
 * Spec section 6: the owner changes to the user with the given ID, and the old owner loses the
 * project. An unknown ID answers 400 with "User doesn't exist" for the field.
 */
export function ChangeOwnerModal({
  project,
  opened,
  onClose,
  onChanged,
}: {
  project: Project;
  opened: boolean;
  onClose: () => void;
  onChanged: (project: Project) => void;
}) {
  const { t } = useTranslation('projects');
  const change = useChangeOwner(project.id);
  const form = useForm({
    mode: 'controlled',
    initialValues: { public_user_id: '' },
    validate: schemaValidator(changeOwnerInput, (values: { public_user_id: string }) => values),
  });

  const close = () => {
    onClose();
    form.reset();
  };

  const submit = form.onSubmit((values) =>
    change.mutate(changeOwnerInput.parse(values), {
      onSuccess: onChanged,
      onError: (error) => {
        if (error instanceof ApiRequestError && error.isAuthError) return;
        const message = error instanceof ApiRequestError ? translateFields(error).public_user_id : undefined;
        if (message) form.setFieldError('public_user_id', message);
        else notifyError(error);
      },
    }),
  );

  return (
    <Modal opened={opened} onClose={close} title={t('owner.title')} centered data-testid="change-owner-dialog">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm">
            {t('owner.current', {
              name: project.owner.name || project.owner.username,
              id: project.owner.public_user_id,
            })}
          </Text>
          <TextInput
            label={t('owner.field')}
            description={t('owner.fieldHint')}
            withAsterisk
            autoComplete="off"
            data-autofocus
            {...form.getInputProps('public_user_id')}
          />
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />}>
            {t('owner.warning')}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" color="orange" loading={change.isPending}>
              {t('owner.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
