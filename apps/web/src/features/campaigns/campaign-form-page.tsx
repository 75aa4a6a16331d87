import { type Campaign, CONTENT_TYPES, type ContentType } from '@emolens/contracts';
import {
  Alert,
  Anchor,
  Button,
  Divider,
  Grid,
  Group,
  Paper,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { type UseFormReturnType, useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { IconDeviceFloppy, IconFolder, IconInfoCircle, IconLock, IconTrash, IconUpload } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { ApiRequestError } from '../../api/client.ts';
import { useLeaveGuard } from '../../components/leave-guard.tsx';
import { BackLink, ConflictAlert } from '../../components/page-notices.tsx';
import { useUser } from '../auth/use-user.ts';
import { ResearchContent } from '../content/research-content.tsx';
import { errorMessage } from '../errors/notify.ts';
import { closeSaveErrors, notifySaveInvalid, type SaveErrorTarget, showSaveError } from '../errors/save-errors.ts';
import { RULE_MESSAGES, useCreateCampaign, useDeleteCampaign, useForgetCampaign, useUpdateCampaign } from './api.ts';
import {
  CATEGORY_FIELDS,
  type CampaignFormValues,
  campaignValidator,
  campaignValues,
  emptyCampaignValues,
  isFormPath,
  parseCreate,
  parseUpdate,
  serverFieldErrors,
} from './campaign-form.ts';
import { useCampaignContext } from './campaign-page.tsx';
import { CampaignSettingsFields } from './campaign-settings-fields.tsx';
import { CampaignStatusBadge, ContentTypeLabel, useCampaignFormat } from './campaign-ui.tsx';
import { campaignPath } from './campaigns-list-page.tsx';
import { useDraftProjects } from './choose-project-dialog.tsx';
import { translateValidation, VALIDATION_KEYS } from './messages.ts';

type T = (key: string, options?: Record<string, unknown>) => string;

/**
 * campaign/{id}/form and campaign/{id}/contentless: create (id 'new', project from `?project=`)
 * or edit a research. The contentless form fixes the content type and is closed to ARMI users.
 */
export function CampaignFormPage({ contentless = false }: { contentless?: boolean }) {
  const { campaign, refetch } = useCampaignContext();
  const user = useUser().data;
  const [params] = useSearchParams();
  const projectParam = params.get('project');

  // Spec sections 2 and 6: the contentless form sends an ARMI user to the researches list.
  if (contentless && user?.is_armi_user) return <Navigate to="/cabinet/campaigns" replace />;
  if (campaign && contentless && campaign.content_type !== 'contentless') {
    return <Navigate to={`/cabinet/campaign/${campaign.id}/form`} replace />;
  }
  return (
    <CampaignEditor
      // A new research in another project (or another research) starts from a fresh form.
      key={campaign ? campaign.id : `new:${projectParam ?? ''}:${contentless}`}
      campaign={campaign}
      refetch={refetch}
      projectParam={projectParam}
      contentless={contentless || campaign?.content_type === 'contentless'}
      isArmi={user?.is_armi_user === true}
    />
  );
}

function CampaignEditor({
  campaign,
  refetch,
  projectParam,
  contentless,
  isArmi,
}: {
  campaign: Campaign | null;
  refetch: () => Promise<{ data?: Campaign | undefined }>;
  projectParam: string | null;
  contentless: boolean;
  isArmi: boolean;
}) {
  const { t } = useTranslation('campaigns');
  const navigate = useNavigate();
  const format = useCampaignFormat();
  const mode = campaign ? 'edit' : 'create';
  const drafts = useDraftProjects();
  const create = useCreateCampaign();
  const update = useUpdateCampaign(campaign?.id ?? '');
  const remove = useDeleteCampaign(campaign?.id ?? '');
  const forget = useForgetCampaign();
  /** The version the form was filled from: a save sends it, and a newer one on the server answers 409. */
  const [base, setBase] = useState(campaign?.updated_at ?? '');
  const [conflict, setConflict] = useState<string | null>(null);

  const form = useForm<CampaignFormValues>({
    mode: 'controlled',
    initialValues: campaign
      ? campaignValues(campaign)
      : emptyCampaignValues(projectParam, contentless ? 'contentless' : null),
    validate: campaignValidator(mode, t),
    validateInputOnBlur: true,
  });

  const fill = (next: Campaign) => {
    const values = campaignValues(next);
    form.setInitialValues(values);
    form.setValues(values);
    form.resetDirty(values);
    form.clearErrors();
    setBase(next.updated_at);
    setConflict(null);
  };

  // A newer version from the server replaces the form unless the user is editing it; a research
  // that can no longer be edited (its project was launched) replaces it always.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the server's version only
  useEffect(() => {
    if (campaign && campaign.updated_at !== base && (!form.isDirty() || !campaign.can_edit)) fill(campaign);
  }, [campaign]);

  const editable = campaign ? campaign.can_edit : true;
  const dirty = editable && form.isDirty();
  const guard = useLeaveGuard(dirty);
  const busy = create.isPending || update.isPending || remove.isPending;

  const draftItems = drafts.data?.items ?? [];
  const chosenProject = draftItems.find((p) => p.id === form.values.project_id);
  // A project from the address that is not one of the user's drafts cannot take a research.
  const projectUnavailable =
    mode === 'create' && !!form.values.project_id && drafts.isSuccess && chosenProject === undefined;

  const reload = async () => {
    const result = await refetch();
    if (result.data) fill(result.data);
  };

  const showError = (error: unknown) => showSaveError(error, saveErrorTarget(form, t));

  const save = form.onSubmit(
    (values) => {
      if (mode === 'create') {
        if (!values.project_id || projectUnavailable) {
          form.setFieldError('project_id', t('form.projectNotDraft'));
          notifySaveInvalid(t('validation.saveInvalid'));
          return;
        }
        create.mutate(
          { projectId: values.project_id, data: parseCreate(values) },
          {
            onSuccess: (created) => {
              closeSaveErrors();
              guard.allowLeave();
              navigate(campaignPath(created), { replace: true });
              notifications.show({ color: 'green', message: t('form.created'), autoClose: 5000 });
            },
            onError: (error) => {
              if (error instanceof ApiRequestError && error.code === 'invalid_state') void drafts.refetch();
              showError(error);
            },
          },
        );
        return;
      }
      update.mutate(
        { ...parseUpdate(values), updated_at: base },
        {
          onSuccess: (saved) => {
            fill(saved);
            closeSaveErrors();
            notifications.show({ color: 'green', message: t('form.saved'), autoClose: 4000 });
          },
          onError: (error) => {
            if (error instanceof ApiRequestError && error.code === 'conflict') {
              setConflict(errorMessage(error));
              return;
            }
            if (error instanceof ApiRequestError && error.code === 'invalid_state') void refetch();
            showError(error);
          },
        },
      );
    },
    () => notifySaveInvalid(t('validation.saveInvalid')),
  );

  const confirmDelete = () => {
    if (!campaign) return;
    modals.openConfirmModal({
      title: t('delete.title'),
      children: <Text size="sm">{t('delete.text', { title: campaign.title })}</Text>,
      labels: { confirm: t('delete.confirm'), cancel: t('actions.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' },
      centered: true,
      onConfirm: () =>
        remove.mutate(undefined, {
          onSuccess: () => {
            guard.allowLeave();
            navigate('/cabinet/campaigns');
            forget(campaign.id);
            notifications.show({ color: 'green', message: t('delete.done', { title: campaign.title }) });
          },
          onError: showError,
        }),
    });
  };

  const contentType = form.values.content_type;
  const heading = campaign ? campaign.title : contentless ? t('form.newContentlessTitle') : t('form.newTitle');

  return (
    <Stack gap="lg" maw={1200} data-testid="campaign-form-page">
      <Stack gap={6}>
        <BackLink to="/cabinet/campaigns" label={t('form.backToList')} />
        <Group gap="sm" align="center">
          <Title order={2} style={{ overflowWrap: 'anywhere' }} data-testid="campaign-heading">
            {heading}
          </Title>
          {campaign && <CampaignStatusBadge status={campaign.status} size="lg" />}
        </Group>
        {campaign ? (
          <Group gap="xs" c="dimmed">
            <Text size="sm">{t('form.inProject')}</Text>
            <Anchor component={Link} to={`/cabinet/projects/${campaign.project.id}`} size="sm">
              {campaign.project.title}
            </Anchor>
            <Text size="sm">· {t('form.updatedAt', { date: format.dateTime(campaign.updated_at) })}</Text>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            {contentless ? t('form.newContentlessSubtitle') : t('form.newSubtitle')}
          </Text>
        )}
      </Stack>

      {campaign && !campaign.can_edit && (
        <Alert color="blue" variant="light" icon={<IconLock size={18} />} data-testid="campaign-read-only">
          {t('form.readOnly')}
        </Alert>
      )}

      {conflict && (
        <ConflictAlert
          title={t('form.conflictTitle')}
          message={conflict}
          text={t('form.conflictText')}
          reloadLabel={t('form.conflictReload')}
          onReload={reload}
          testId="campaign-conflict"
        />
      )}

      <form onSubmit={save} noValidate>
        <Grid gutter="lg">
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack gap="lg">
              <Section title={t('form.main')}>
                {mode === 'create' ? (
                  <Select
                    label={t('form.project')}
                    description={t('form.projectHint')}
                    placeholder={t('create.projectPlaceholder')}
                    data={draftItems.map((p) => ({ value: p.id, label: p.title }))}
                    leftSection={<IconFolder size={16} />}
                    searchable
                    allowDeselect={false}
                    withAsterisk
                    nothingFoundMessage={t('create.nothingFound')}
                    {...form.getInputProps('project_id')}
                    error={form.errors.project_id ?? (projectUnavailable ? t('form.projectNotDraft') : undefined)}
                    data-testid="campaign-project"
                  />
                ) : null}
                <TextInput
                  label={t('fields.title')}
                  description={editable ? t('fields.titleHint') : undefined}
                  placeholder={editable ? t('fields.titlePlaceholder') : undefined}
                  withAsterisk={editable}
                  readOnly={!editable}
                  maxLength={255}
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
                  maxLength={5000}
                  {...form.getInputProps('description')}
                />
                <ContentTypeField form={form} mode={mode} contentless={contentless} isArmi={isArmi} />
                {contentType === 'site' && (
                  <TextInput
                    label={t('fields.siteUrl')}
                    description={t('fields.siteUrlHint')}
                    placeholder="https://"
                    readOnly={!editable}
                    maxLength={2000}
                    {...form.getInputProps('site_url')}
                  />
                )}
              </Section>

              <Section title={t('content.title')}>
                {campaign && !contentless ? (
                  <ResearchContent form={form} campaign={campaign} />
                ) : (
                  <Alert
                    variant="light"
                    color="gray"
                    icon={contentless ? <IconInfoCircle size={18} /> : <IconUpload size={18} />}
                    data-testid="campaign-content-note"
                  >
                    {contentless ? t('content.contentless') : t('content.afterSaving')}
                  </Alert>
                )}
              </Section>

              <Section title={t('categories.title')} description={t('categories.description')}>
                <Grid gutter="md">
                  {CATEGORY_FIELDS.map((field) => (
                    <Grid.Col key={field} span={{ base: 12, sm: 6 }}>
                      <TextInput
                        label={t(`categories.${field}`)}
                        readOnly={!editable}
                        maxLength={255}
                        {...form.getInputProps(`categories.${field}`)}
                      />
                    </Grid.Col>
                  ))}
                </Grid>
              </Section>

              <CampaignSettingsFields form={form} readOnly={!editable} contentType={contentType} />
            </Stack>
          </Grid.Col>

          <Grid.Col span={{ base: 12, md: 4 }}>
            <Stack gap="lg" style={{ position: 'sticky', top: 76 }}>
              <Paper withBorder radius="lg" p="lg" data-testid="campaign-actions">
                <Stack gap="sm">
                  <Title order={3} size="h5">
                    {mode === 'create' ? t('form.createActions') : t('form.actions')}
                  </Title>
                  {editable ? (
                    <>
                      {dirty && mode === 'edit' && (
                        <Text size="sm" c="orange.8" data-testid="unsaved-changes">
                          {t('form.unsaved')}
                        </Text>
                      )}
                      <Button
                        type="submit"
                        fullWidth
                        leftSection={<IconDeviceFloppy size={16} />}
                        disabled={(mode === 'edit' && !dirty) || remove.isPending}
                        loading={create.isPending || update.isPending}
                        data-testid="campaign-save"
                      >
                        {mode === 'create' ? t('form.create') : t('form.save')}
                      </Button>
                      {mode === 'edit' && campaign && (
                        <Button variant="default" fullWidth disabled={!dirty || busy} onClick={() => fill(campaign)}>
                          {t('form.discard')}
                        </Button>
                      )}
                      {mode === 'create' && (
                        <Button variant="default" fullWidth component={Link} to="/cabinet/campaigns">
                          {t('actions.cancel')}
                        </Button>
                      )}
                    </>
                  ) : (
                    <Text size="sm" c="dimmed">
                      {t('form.noActions')}
                    </Text>
                  )}
                  {mode === 'edit' && campaign?.can_edit && (
                    <>
                      <Divider my={4} />
                      <Button
                        fullWidth
                        color="red"
                        variant="outline"
                        leftSection={<IconTrash size={16} />}
                        onClick={confirmDelete}
                        disabled={busy}
                        loading={remove.isPending}
                        data-testid="campaign-delete"
                      >
                        {t('delete.button')}
                      </Button>
                      <Text size="xs" c="dimmed">
                        {t('delete.hint')}
                      </Text>
                    </>
                  )}
                </Stack>
              </Paper>

              {campaign && (
                <Paper withBorder radius="lg" p="lg" data-testid="campaign-details">
                  <Stack gap="sm">
                    <Title order={3} size="h5">
                      {t('form.details')}
                    </Title>
                    <Detail label="ID">
                      <Text span size="xs" ff="monospace" data-testid="campaign-id">
                        {campaign.id}
                      </Text>
                    </Detail>
                    <Detail label={t('fields.contentType')}>
                      <ContentTypeLabel type={campaign.content_type} />
                    </Detail>
                    <Detail label={t('columns.videos')}>{format.number(campaign.video_count)}</Detail>
                    <Detail label={t('columns.reports')}>{format.number(campaign.report_count)}</Detail>
                    <Detail label={t('form.flow')}>
                      {campaign.is_new_user_flow ? t('form.flowNew') : t('form.flowOld')}
                    </Detail>
                    <Detail label={t('columns.created')}>{format.dateTime(campaign.created_at)}</Detail>
                    <Detail label={t('columns.updated')}>{format.dateTime(campaign.updated_at)}</Detail>
                  </Stack>
                </Paper>
              )}
              {chosenProject && mode === 'create' && (
                <Paper withBorder radius="lg" p="lg">
                  <Stack gap={4}>
                    <Text size="sm" c="dimmed">
                      {t('form.inProject')}
                    </Text>
                    <Anchor component={Link} to={`/cabinet/projects/${chosenProject.id}`} fw={600}>
                      {chosenProject.title}
                    </Anchor>
                  </Stack>
                </Paper>
              )}
            </Stack>
          </Grid.Col>
        </Grid>
      </form>
      {guard.dialog}
    </Stack>
  );
}

/** The content type: chosen when creating (never shelf: spec section 5), fixed afterwards. */
function ContentTypeField({
  form,
  mode,
  contentless,
  isArmi,
}: {
  form: UseFormReturnType<CampaignFormValues>;
  mode: 'create' | 'edit';
  contentless: boolean;
  isArmi: boolean;
}) {
  const { t } = useTranslation('campaigns');
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

function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="lg" p="xl">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={3} size="h4">
            {title}
          </Title>
          {description && (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          )}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="sm" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" ta="right" component="div">
        {children}
      </Text>
    </Group>
  );
}

/** Spec section 5: 'Fill in the required fields' on save, as a red notification. */
/** The research form's side of a failed save (the shared handling is in errors/save-errors.ts). */
function saveErrorTarget(form: UseFormReturnType<CampaignFormValues>, t: T): SaveErrorTarget {
  return {
    setErrors: form.setErrors,
    fieldErrors: (fields) => serverFieldErrors(fields, t),
    invalidMessage: t('validation.saveInvalid'),
    isOnForm: (path) => isFormPath(path, form.getValues()),
    // The research rules and the launched project have their own words.
    ownWords: (error) => {
      if (RULE_MESSAGES.includes(error.message)) return translateValidation(error.message, t);
      if (error.code !== 'invalid_state') return undefined;
      return VALIDATION_KEYS[error.message] ? translateValidation(error.message, t) : errorMessage(error);
    },
  };
}
