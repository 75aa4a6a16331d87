import { CALIBRATION_SECONDS, type Project, type ProjectAction } from '@emolens/contracts';
import { Alert, Button, Divider, Grid, Group, Paper, SimpleGrid, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import {
  IconArchive,
  IconChartDots3,
  IconCircleCheck,
  IconDeviceFloppy,
  IconEyeOff,
  IconInfoCircle,
  IconLink,
  IconListDetails,
  IconLock,
  IconPlayerPlay,
  IconTrash,
  IconUserShare,
  IconUsers,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ApiRequestError } from '../../api/client.ts';
import { openConfirm } from '../../components/confirm.ts';
import { openDeleteConfirm } from '../../components/confirm-delete.tsx';
import { useLeaveGuard } from '../../components/leave-guard.tsx';
import { ObjectPage, objectPageTexts } from '../../components/load-states.tsx';
import { BackLink, ConflictAlert } from '../../components/page-notices.tsx';
import { useServerVersion } from '../../components/use-server-version.ts';
import { errorMessage } from '../errors/notify.ts';
import { FieldworkPanel } from '../fieldwork/fieldwork-panel.tsx';
import { ScenariosPanel } from '../scenarios/scenarios-panel.tsx';
import { useDeleteProject, useForgetProject, useProject, useProjectAction, useUpdateProject } from './api.ts';
import { ChangeOwnerModal } from './change-owner-modal.tsx';
import { DataProtectionPanel } from './data-protection-panel.tsx';
import { PreparationPanel } from './demo-preparation.tsx';
import { ProjectFields } from './project-fields.tsx';
import {
  editProjectSchema,
  type ProjectFormValues,
  projectInput,
  projectValues,
  schemaValidator,
} from './project-form.ts';
import { DemoBadge, FlowTypeBadge, StatusBadge, useProjectFormat } from './project-ui.tsx';
import { closeSaveErrors, notifyInvalid, showSaveError } from './save-errors.ts';

/** projects/{id}: loads the project first (spec section 2), then shows it. */
export function ProjectPage() {
  const { t } = useTranslation('projects');
  const { id = '' } = useParams();
  const query = useProject(id);
  return (
    <ObjectPage query={query} testId="project" {...objectPageTexts(t, 'project', '/cabinet/projects')}>
      {(project) => <ProjectEditor key={project.id} project={project} refetch={query.refetch} />}
    </ObjectPage>
  );
}

const ACTIONS: { action: ProjectAction; color: string; icon: ReactNode }[] = [
  { action: 'launch', color: 'green', icon: <IconPlayerPlay size={16} /> },
  { action: 'complete', color: 'blue', icon: <IconCircleCheck size={16} /> },
  { action: 'archive', color: 'orange', icon: <IconArchive size={16} /> },
];

function ProjectEditor({
  project,
  refetch,
}: {
  project: Project;
  refetch: () => Promise<{ data?: Project | undefined }>;
}) {
  const { t } = useTranslation('projects');
  const navigate = useNavigate();
  const format = useProjectFormat();
  const forget = useForgetProject();
  const update = useUpdateProject(project.id);
  const act = useProjectAction(project.id);
  const remove = useDeleteProject(project.id);
  const [ownerOpened, ownerDialog] = useDisclosure(false);
  const form = useForm<ProjectFormValues>({
    mode: 'controlled',
    initialValues: projectValues(project),
    validate: schemaValidator(editProjectSchema, projectInput),
  });

  const { base, conflict, setConflict, fill } = useServerVersion(form, project, projectValues, (p) => p.can.edit);

  const editable = project.can.edit;
  const dirty = editable && form.isDirty();
  const guard = useLeaveGuard(dirty);
  const busy = update.isPending || act.isPending || remove.isPending;

  const reload = async () => {
    const result = await refetch();
    if (result.data) fill(result.data);
  };

  const save = form.onSubmit(
    (values) =>
      update.mutate(
        { ...editProjectSchema.parse(projectInput(values)), updated_at: base },
        {
          onSuccess: (saved) => {
            fill(saved);
            closeSaveErrors();
            notifications.show({ color: 'green', message: t('project.saved'), autoClose: 4000 });
          },
          onError: (error) => {
            if (error instanceof ApiRequestError && error.code === 'conflict') {
              setConflict(errorMessage(error));
              return;
            }
            if (error instanceof ApiRequestError && error.code === 'invalid_state') void refetch();
            showSaveError(error, form.setErrors);
          },
        },
      ),
    () => notifyInvalid(),
  );

  const confirmAction = (action: ProjectAction) =>
    openConfirm({
      title: t(`lifecycle.${action}.title`),
      children: <Text size="sm">{t(`lifecycle.${action}.text`)}</Text>,
      labels: { confirm: t(`lifecycle.${action}.confirm`), cancel: t('actions.cancel') },
      confirmProps: { color: ACTIONS.find((a) => a.action === action)?.color, 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () =>
        act.mutateAsync(action, {
          onSuccess: () =>
            notifications.show({ color: 'green', message: t(`lifecycle.${action}.done`), autoClose: 4000 }),
        }),
    });

  const confirmDelete = () =>
    openDeleteConfirm({
      t,
      title: project.title,
      testId: 'confirm-action',
      onConfirm: () =>
        remove.mutateAsync(undefined, {
          onSuccess: () => {
            guard.allowLeave();
            navigate('/cabinet/projects?tab=drafts');
            forget(project.id);
            notifications.show({ color: 'green', message: t('delete.done', { title: project.title }) });
          },
        }),
    });

  const ownerChanged = (changed: Project) => {
    ownerDialog.close();
    guard.allowLeave();
    navigate('/cabinet/projects');
    forget(project.id);
    notifications.show({
      color: 'green',
      message: t('owner.done', { name: changed.owner.name || changed.owner.username }),
      autoClose: 7000,
    });
  };

  /** Status changes wait for the edits: they are saved or discarded first. */
  const blockedByEdits = (button: ReactNode) =>
    dirty ? (
      <Tooltip label={t('lifecycle.saveFirst')} withArrow>
        <span style={{ display: 'block' }}>{button}</span>
      </Tooltip>
    ) : (
      button
    );

  const owner = project.owner.name || project.owner.username;
  const createdBy = project.created_by.name || project.created_by.username;

  return (
    <Stack gap="lg" maw={1200} data-testid="project-page">
      <Stack gap={6}>
        <BackLink to="/cabinet/projects" label={t('project.backToList')} />
        <Group gap="sm" align="center">
          <Title order={2} style={{ overflowWrap: 'anywhere' }} data-testid="project-title">
            {project.title}
          </Title>
          <StatusBadge status={project.status} size="lg" />
          <FlowTypeBadge flowType={project.flow_type} withCalibration size="lg" />
          {project.is_demo && <DemoBadge size="lg" />}
        </Group>
        <Text size="sm" c="dimmed">
          {t('project.meta', { owner, updated: format.dateTime(project.updated_at) })}
        </Text>
      </Stack>

      <StatusNotice project={project} />
      {project.preparation && <PreparationPanel preparation={project.preparation} />}

      {conflict && (
        <ConflictAlert
          title={t('project.conflictTitle')}
          message={conflict}
          text={t('project.conflictText')}
          reloadLabel={t('project.conflictReload')}
          onReload={reload}
          testId="project-conflict"
        />
      )}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            <Paper withBorder radius="lg" p="xl">
              <form onSubmit={save} noValidate data-testid="project-form">
                <Stack gap="lg">
                  <Group justify="space-between" align="center">
                    <Title order={3} size="h4">
                      {t('project.settings')}
                    </Title>
                    {!editable && (
                      <Group gap={6} c="dimmed">
                        <IconLock size={16} />
                        <Text size="sm">{t('project.readOnly')}</Text>
                      </Group>
                    )}
                  </Group>
                  <ProjectFields input={(field) => form.getInputProps(field)} readOnly={!editable} />
                  <Stack gap={4}>
                    <Text size="sm" fw={500}>
                      {t('fields.flowType')}
                    </Text>
                    <Text size="sm">
                      {t('project.flowTypeLine', {
                        name: t(`flowType.${project.flow_type}.title`),
                        seconds: CALIBRATION_SECONDS[project.flow_type],
                      })}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t('flowType.fixedWarning')}
                    </Text>
                  </Stack>
                  {editable && (
                    <Group justify="flex-end" gap="sm">
                      {dirty && (
                        <Text size="sm" c="orange.8" mr="auto" data-testid="unsaved-changes">
                          {t('project.unsaved')}
                        </Text>
                      )}
                      <Button variant="default" disabled={!dirty || busy} onClick={() => fill(project)}>
                        {t('project.discard')}
                      </Button>
                      <Button
                        type="submit"
                        leftSection={<IconDeviceFloppy size={16} />}
                        disabled={!dirty || act.isPending || remove.isPending}
                        loading={update.isPending}
                      >
                        {t('actions.save')}
                      </Button>
                    </Group>
                  )}
                </Stack>
              </form>
            </Paper>
            <ScenariosPanel project={project} />
          </Stack>
        </Grid.Col>

        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="lg">
            <Paper withBorder radius="lg" p="lg" data-testid="project-actions">
              <Stack gap="sm">
                <Title order={3} size="h5">
                  {t('project.actions')}
                </Title>
                {ACTIONS.filter(({ action }) => project.can[action]).map(({ action, color, icon }) => (
                  <div key={action}>
                    {blockedByEdits(
                      <Button
                        fullWidth
                        color={color}
                        variant={action === 'archive' ? 'light' : 'filled'}
                        leftSection={icon}
                        onClick={() => confirmAction(action)}
                        disabled={dirty || busy}
                        loading={act.isPending && act.variables === action}
                      >
                        {t(`lifecycle.${action}.button`)}
                      </Button>,
                    )}
                  </div>
                ))}
                {blockedByEdits(
                  <Button
                    fullWidth
                    variant="default"
                    leftSection={<IconUserShare size={16} />}
                    onClick={ownerDialog.open}
                    disabled={dirty || busy}
                  >
                    {t('owner.button')}
                  </Button>,
                )}
                {project.can.delete && (
                  <>
                    <Divider my={4} />
                    {blockedByEdits(
                      <Button
                        fullWidth
                        color="red"
                        variant="outline"
                        leftSection={<IconTrash size={16} />}
                        onClick={confirmDelete}
                        disabled={dirty || busy}
                        loading={remove.isPending}
                      >
                        {t('delete.button')}
                      </Button>,
                    )}
                    <Text size="xs" c="dimmed">
                      {t('delete.hint')}
                    </Text>
                  </>
                )}
                {!ACTIONS.some(({ action }) => project.can[action]) && !project.can.delete && (
                  <Text size="sm" c="dimmed">
                    {t('project.noActions')}
                  </Text>
                )}
              </Stack>
            </Paper>

            <Paper withBorder radius="lg" p="lg" data-testid="project-contents">
              <Stack gap="md">
                <Title order={3} size="h5">
                  {t('project.contents')}
                </Title>
                {project.status === 'archived' ? (
                  <Alert color="gray" variant="light" icon={<IconEyeOff size={18} />}>
                    {t('project.archivedHidden')}
                  </Alert>
                ) : (
                  <>
                    <SimpleGrid cols={2} spacing="sm">
                      <Stat
                        icon={<IconChartDots3 size={16} />}
                        label={t('counts.researches')}
                        value={project.counts.researches}
                        testId="count-researches"
                      />
                      <Stat
                        icon={<IconListDetails size={16} />}
                        label={t('counts.scenarios')}
                        value={project.counts.scenarios}
                        testId="count-scenarios"
                      />
                      <Stat
                        icon={<IconLink size={16} />}
                        label={t('counts.quotaLinks')}
                        value={project.counts.quota_links}
                        testId="count-quota-links"
                      />
                      <Stat
                        icon={<IconUsers size={16} />}
                        label={t('counts.sessions')}
                        value={project.counts.sessions}
                        testId="count-sessions"
                      />
                    </SimpleGrid>
                    <Text size="sm" c="dimmed">
                      {t('project.contentsHint')}
                    </Text>
                  </>
                )}
              </Stack>
            </Paper>

            <Paper withBorder radius="lg" p="lg" data-testid="project-details">
              <Stack gap="sm">
                <Title order={3} size="h5">
                  {t('project.details')}
                </Title>
                <Detail label={t('project.owner')}>
                  {owner}{' '}
                  <Text span c="dimmed" size="sm">
                    · ID {project.owner.public_user_id}
                  </Text>
                </Detail>
                {createdBy !== owner && <Detail label={t('project.createdBy')}>{createdBy}</Detail>}
                <Detail label={t('project.created')}>{format.dateTime(project.created_at)}</Detail>
                <Detail label={t('project.updated')}>{format.dateTime(project.updated_at)}</Detail>
                {project.launched_at && (
                  <Detail label={t('project.launched')}>{format.dateTime(project.launched_at)}</Detail>
                )}
                {project.completed_at && (
                  <Detail label={t('project.completed')}>{format.dateTime(project.completed_at)}</Detail>
                )}
                {project.archived_at && (
                  <Detail label={t('project.archived')}>{format.dateTime(project.archived_at)}</Detail>
                )}
              </Stack>
            </Paper>
          </Stack>
        </Grid.Col>
      </Grid>

      {/* A draft collects nothing (its previews are not fieldwork): the panel starts with the launch. */}
      {project.status !== 'new' && <FieldworkPanel project={project} />}

      <DataProtectionPanel project={project} />

      <ChangeOwnerModal project={project} opened={ownerOpened} onClose={ownerDialog.close} onChanged={ownerChanged} />
      {guard.dialog}
    </Stack>
  );
}

/** What the status means for this page (spec section 4). */
function StatusNotice({ project }: { project: Project }) {
  const { t } = useTranslation('projects');
  if (project.status === 'completed') {
    return (
      <Alert color="blue" variant="light" icon={<IconLock size={18} />} data-testid="status-notice">
        {t('statusNotice.completed')}
      </Alert>
    );
  }
  if (project.status === 'archived') {
    return (
      <Alert color="gray" variant="light" icon={<IconArchive size={18} />} data-testid="status-notice">
        {t('statusNotice.archived')}
      </Alert>
    );
  }
  if (project.status === 'active') {
    return (
      <Alert color="green" variant="light" icon={<IconInfoCircle size={18} />} data-testid="status-notice">
        {t('statusNotice.active')}
      </Alert>
    );
  }
  return null;
}

function Stat({ icon, label, value, testId }: { icon: ReactNode; label: string; value: number; testId: string }) {
  const format = useProjectFormat();
  return (
    <Paper withBorder radius="md" p="sm" bg="gray.0" data-testid={testId}>
      <Group gap={6} c="dimmed" wrap="nowrap" align="flex-start">
        {icon}
        <Text size="xs" lh={1.4}>
          {label}
        </Text>
      </Group>
      <Text fz={24} fw={700} mt={2}>
        {format.number(value)}
      </Text>
    </Paper>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right">
        {children}
      </Text>
    </Group>
  );
}
