import {
  type DataDeletion,
  DELETION_IDENTIFIER_KINDS,
  type DeletionIdentifierKind,
  deleteRespondentDataInput,
  type Project,
  RETENTION_DAYS,
  RETENTION_MODES,
  retentionInput,
} from '@emolens/contracts';
import {
  Alert,
  Badge,
  Button,
  Divider,
  Group,
  NumberInput,
  Paper,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconDeviceFloppy, IconShieldLock, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { InlineLoadError } from '../../components/load-states.tsx';
import { useDataDeletions, useDeleteRespondentData, useSetRetention } from './api.ts';
import { type RetentionValues, retentionValues, schemaValidator, toRetentionInput } from './project-form.ts';
import { useProjectFormat } from './project-ui.tsx';
import { closeSaveErrors, notifyInvalid, showSaveError } from './save-errors.ts';

/** Phones: the choices stack and the buttons take the whole width. */
function useNarrow(): boolean {
  return useMediaQuery('(max-width: 36em)') ?? false;
}

/**
 * The project page's respondent data: how long it is kept (design section 7) and deleting one
 * respondent's data on request (consent withdrawn), with the record of past deletions. Editable in
 * every status: it is data protection, not research setup (decision 011).
 */
export function DataProtectionPanel({ project }: { project: Project }) {
  const { t } = useTranslation('projects');
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="data-protection-panel">
      <Stack gap="lg">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconShieldLock size={24} style={{ flexShrink: 0, marginTop: 2 }} />
          <Stack gap={2}>
            <Title order={3} size="h4">
              {t('data.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('data.subtitle')}
            </Text>
          </Stack>
        </Group>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl" verticalSpacing="xl">
          <RetentionForm project={project} />
          <DeleteRespondentForm project={project} />
        </SimpleGrid>
        <Divider />
        <DeletionHistory projectId={project.id} />
      </Stack>
    </Paper>
  );
}

function RetentionForm({ project }: { project: Project }) {
  const { t } = useTranslation('projects');
  const save = useSetRetention(project.id);
  const form = useForm<RetentionValues>({
    mode: 'controlled',
    initialValues: retentionValues(project),
    validate: schemaValidator(retentionInput, toRetentionInput),
  });
  const narrow = useNarrow();
  const editable = project.can.manage_data;
  const dirty = form.isDirty();
  const days = form.values.retention_mode === 'delete_after_days';

  const submit = form.onSubmit(
    (values) =>
      save.mutate(retentionInput.parse(toRetentionInput(values)), {
        onSuccess: (saved) => {
          form.setInitialValues(retentionValues(saved));
          form.setValues(retentionValues(saved));
          closeSaveErrors();
          notifications.show({ color: 'green', message: t('data.retention.saved'), autoClose: 4000 });
        },
        onError: (error) => showSaveError(error, form.setErrors),
      }),
    () => notifyInvalid(),
  );

  return (
    <form onSubmit={submit} noValidate data-testid="retention-form">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={4} size="h5">
            {t('data.retention.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('data.retention.hint')}
          </Text>
        </Stack>
        <Radio.Group {...form.getInputProps('retention_mode')} aria-label={t('data.retention.title')}>
          <Stack gap="sm">
            {RETENTION_MODES.map((mode) => (
              <Radio
                key={mode}
                value={mode}
                disabled={!editable}
                label={t(`data.retention.${mode}.label`)}
                description={t(`data.retention.${mode}.text`)}
                data-testid={`retention-${mode}`}
              />
            ))}
          </Stack>
        </Radio.Group>
        {days && (
          <NumberInput
            label={t('data.retention.days')}
            description={t('data.retention.daysHint', { min: RETENTION_DAYS.min, max: RETENTION_DAYS.max })}
            withAsterisk
            min={RETENTION_DAYS.min}
            max={RETENTION_DAYS.max}
            allowDecimal={false}
            allowNegative={false}
            styles={{ wrapper: { maxWidth: 220 } }}
            disabled={!editable}
            data-testid="retention-days"
            {...form.getInputProps('retention_days')}
          />
        )}
        {editable && (
          <Group justify="flex-end" gap="sm">
            {dirty && (
              <Text size="sm" c="orange.8" mr="auto" style={{ flexBasis: narrow ? '100%' : undefined }}>
                {t('project.unsaved')}
              </Text>
            )}
            {/* On a phone the two buttons stack at full width: side by side, Russian labels are cut. */}
            <Button
              variant="default"
              disabled={!dirty || save.isPending}
              onClick={() => form.reset()}
              fullWidth={narrow}
              style={narrow ? { order: 2 } : undefined}
            >
              {t('project.discard')}
            </Button>
            <Button
              type="submit"
              leftSection={<IconDeviceFloppy size={16} />}
              disabled={!dirty}
              loading={save.isPending}
              fullWidth={narrow}
              data-testid="retention-save"
            >
              {t('actions.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

interface DeleteValues {
  identifier_kind: DeletionIdentifierKind;
  identifier: string;
}

function DeleteRespondentForm({ project }: { project: Project }) {
  const { t } = useTranslation('projects');
  const format = useProjectFormat();
  const remove = useDeleteRespondentData(project.id);
  const narrow = useNarrow();
  const form = useForm<DeleteValues>({
    mode: 'controlled',
    initialValues: { identifier_kind: 'participant_id', identifier: '' },
    validate: schemaValidator(deleteRespondentDataInput, (values: DeleteValues) => values),
  });
  const kind = form.values.identifier_kind;

  const run = (values: DeleteValues) =>
    remove.mutateAsync(deleteRespondentDataInput.parse(values), {
      onSuccess: (result) => {
        form.setFieldValue('identifier', '');
        closeSaveErrors();
        notifications.show({
          color: 'green',
          title: t('data.delete.doneTitle'),
          message: t('data.delete.done', {
            count: result.deleted_sessions,
            formatted: format.number(result.deleted_sessions),
          }),
          autoClose: 8000,
        });
      },
      onError: (error) => showSaveError(error, form.setErrors),
    });

  const confirm = form.onSubmit(
    (values) => {
      openConfirm({
        title: t('data.delete.confirmTitle'),
        children: (
          <Stack gap="sm">
            <Text size="sm">{t('data.delete.confirmText')}</Text>
            <Paper withBorder radius="md" p="sm" bg="gray.0">
              <Text size="xs" c="dimmed">
                {t(`data.kind.${values.identifier_kind}`)}
              </Text>
              <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {values.identifier.trim()}
              </Text>
            </Paper>
          </Stack>
        ),
        labels: { confirm: t('data.delete.confirm'), cancel: t('actions.cancel') },
        confirmProps: { color: 'red', 'data-testid': 'confirm-action' },
        centered: true,
        onConfirm: () => run(values),
      });
    },
    () => undefined,
  );

  return (
    <form onSubmit={confirm} noValidate data-testid="delete-respondent-form">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={4} size="h5">
            {t('data.delete.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('data.delete.hint')}
          </Text>
        </Stack>
        <Stack gap={6}>
          <Text size="sm" fw={500}>
            {t('data.delete.by')}
          </Text>
          <SegmentedControl
            fullWidth
            orientation={narrow ? 'vertical' : 'horizontal'}
            data={DELETION_IDENTIFIER_KINDS.map((value) => ({ value, label: t(`data.kind.${value}`) }))}
            value={kind}
            onChange={(value) => {
              form.setFieldValue('identifier_kind', value as DeletionIdentifierKind);
              form.clearFieldError('identifier');
            }}
            data-testid="delete-kind"
          />
        </Stack>
        <TextInput
          label={t(`data.kind.${kind}`)}
          description={t(`data.kindHint.${kind}`)}
          placeholder={t(`data.kindPlaceholder.${kind}`)}
          withAsterisk
          autoComplete="off"
          data-testid="delete-identifier"
          {...form.getInputProps('identifier')}
        />
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} p="sm">
          <Text size="sm">{t('data.delete.warning')}</Text>
        </Alert>
        <Group justify="flex-end" grow={narrow}>
          <Button
            type="submit"
            color="red"
            variant="outline"
            leftSection={<IconTrash size={16} />}
            loading={remove.isPending}
            data-testid="delete-respondent-data"
          >
            {t('data.delete.button')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function DeletionHistory({ projectId }: { projectId: string }) {
  const { t } = useTranslation('projects');
  const query = useDataDeletions(projectId);
  return (
    <Stack gap="sm" data-testid="data-deletions">
      <Group justify="space-between" align="baseline">
        <Title order={4} size="h5">
          {t('data.history.title')}
        </Title>
        {query.data && query.data.total > query.data.items.length && (
          <Text size="xs" c="dimmed">
            {t('data.history.latest', { shown: query.data.items.length, total: query.data.total })}
          </Text>
        )}
      </Group>
      {query.isError && !query.data && (
        <InlineLoadError
          text={t('data.history.loadError')}
          retryLabel={t('actions.retry')}
          onRetry={() => query.refetch()}
        />
      )}
      {query.data && query.data.items.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('data.history.empty')}
        </Text>
      )}
      {query.data?.items.map((item) => (
        <DeletionRow key={item.id} item={item} />
      ))}
    </Stack>
  );
}

function DeletionRow({ item }: { item: DataDeletion }) {
  const { t } = useTranslation('projects');
  const format = useProjectFormat();
  const what = t(`data.history.${item.scope}`, {
    count: item.session_count,
    formatted: format.number(item.session_count),
  });
  const who = item.user ? item.user.name : t('data.history.automatic');
  return (
    <Paper withBorder radius="md" p="sm" data-testid="data-deletion">
      <Stack gap={4}>
        <Group gap="xs" wrap="wrap">
          <Badge
            color={item.reason === 'consent_withdrawn' ? 'red' : 'gray'}
            variant="light"
            radius="sm"
            style={{ flexShrink: 0, maxWidth: 'none' }}
          >
            {t(`data.reason.${item.reason}`)}
          </Badge>
          <Text size="sm" fw={500}>
            {what}
          </Text>
        </Group>
        {item.identifier_kind && item.identifier && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            <Text span c="dimmed" size="sm">
              {t(`data.kind.${item.identifier_kind}`)}:{' '}
            </Text>
            <Text span ff="monospace" size="sm">
              {item.identifier}
            </Text>
          </Text>
        )}
        <Text size="xs" c="dimmed">
          {format.dateTime(item.created_at)} · {who}
        </Text>
      </Stack>
    </Paper>
  );
}
