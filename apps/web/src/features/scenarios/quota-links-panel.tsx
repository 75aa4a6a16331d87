import type { AccessorLink, Project, SessionEstimate } from '@emolens/contracts';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  CopyButton,
  Group,
  Loader,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconCopy, IconLink, IconLock, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client.ts';
import { InlineLoadError, InlineLoadState } from '../../components/load-states.tsx';
import { translateFields } from '../../i18n/messages.ts';
import { notifyError } from '../errors/notify.ts';
import {
  type LinkOption,
  useAccessorLinks,
  useCreateAccessorLink,
  useLinksEstimate,
  useScenarioList,
  useSetLinkOption,
} from './api.ts';
import { LinkOriginWarning } from './link-origin-warning.tsx';
import { PanelHeader } from './panel-header.tsx';
import { parseQuotaSize } from './scenario-form.ts';

/** The project's quota links: respondents' addresses per scenario (spec sections 3 and 7). */
export function QuotaLinksPanel({ project }: { project: Project }) {
  const { t } = useTranslation('scenarios');
  const links = useAccessorLinks(project.id);
  const scenarios = useScenarioList(project.id);
  const estimate = useLinksEstimate(project.id, links.data ?? []);
  const [creating, setCreating] = useState(false);
  // The server says what may be done: create links (the project), change a link's options (each link).
  const manage = project.can.manage_quota_links;
  const scenarioLabel = (id: string) => {
    const scenario = scenarios.data?.find((s) => s.id === id);
    if (!scenario) return t('links.unknownScenario');
    return t('links.scenarioLabel', {
      number: scenario.order_number,
      description: scenario.description || t('scenarios.noDescription'),
    });
  };

  return (
    <Paper withBorder radius="lg" p="xl" data-testid="quota-links-panel">
      <Stack gap="md">
        <PanelHeader
          title={t('links.title')}
          subtitle={t('links.subtitle')}
          manage={manage}
          action={
            <Button
              leftSection={<IconPlus size={16} />}
              variant="light"
              onClick={() => setCreating(true)}
              disabled={!scenarios.data?.length}
              data-testid="link-create"
            >
              {t('links.create')}
            </Button>
          }
        />
        {!manage && (
          <Alert color="gray" variant="light" icon={<IconLock size={18} />}>
            {t('links.closed')}
          </Alert>
        )}
        <InlineLoadState query={links} text={t('links.loadError')} retryLabel={t('actions.retry')} />
        {links.isSuccess && links.data.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="links-empty">
            {scenarios.data?.length ? t('links.empty') : t('links.needScenario')}
          </Text>
        )}
        {links.data?.length ? <LinkOriginWarning links={links.data.map((link) => link.link)} /> : null}
        {links.data?.length ? (
          <EstimateSummary
            total={estimate.data?.total_sessions}
            pending={estimate.isPending}
            failed={estimate.isError}
            retry={() => void estimate.refetch()}
          />
        ) : null}
        {links.data?.map((link) => (
          <LinkRow
            key={link.id}
            projectId={project.id}
            link={link}
            scenario={scenarioLabel(link.scenario_id)}
            estimate={estimate.data?.items.find((item) => item.id === link.id)}
          />
        ))}
      </Stack>
      {creating && <CreateLinkModal project={project} onClose={() => setCreating(false)} />}
    </Paper>
  );
}

/** Spec section 9: a session is a 5-minute interview interval; the links' fieldwork in sessions. */
function EstimateSummary(props: { total: number | undefined; pending: boolean; failed: boolean; retry: () => void }) {
  const { t } = useTranslation('scenarios');
  if (props.failed) {
    return (
      <InlineLoadError
        text={t('estimate.error')}
        retryLabel={t('actions.retry')}
        onRetry={props.retry}
        testId="estimate-error"
      />
    );
  }
  return (
    <Group gap="xs" data-testid="estimate-total">
      <Text size="sm" c="dimmed">
        {t('estimate.total')}
      </Text>
      {props.pending ? (
        <Loader size="xs" />
      ) : (
        <Text size="sm" fw={700}>
          {t('estimate.sessions', { number: props.total ?? 0 })}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {t('estimate.unit')}
      </Text>
    </Group>
  );
}

/** The sessions one link's fieldwork will use, with how the figure is made. */
function LinkEstimate({ estimate }: { estimate: SessionEstimate | undefined }) {
  const { t } = useTranslation('scenarios');
  if (!estimate) return null;
  const minutes = Math.floor(estimate.interview_seconds / 60);
  const seconds = Math.round(estimate.interview_seconds % 60);
  const how = t('estimate.how', {
    minutes,
    seconds,
    perRespondent: estimate.sessions_per_respondent,
    respondents: estimate.respondents ?? 0,
  });
  return (
    <Group gap={6} wrap="nowrap" data-testid="link-estimate">
      {estimate.unknown_durations.length > 0 && (
        <Tooltip
          multiline
          w={280}
          withArrow
          label={t('estimate.unknown', { titles: estimate.unknown_durations.map((c) => c.title).join(', ') })}
        >
          <IconAlertTriangle size={16} color="var(--mantine-color-orange-6)" data-testid="link-estimate-unknown" />
        </Tooltip>
      )}
      {estimate.sessions === null ? (
        <Text size="sm" c="dimmed">
          {t('estimate.noQuota')}
        </Text>
      ) : (
        <Tooltip multiline w={280} withArrow label={how}>
          <Badge variant="light" color="indigo" size="lg" radius="sm" style={{ textTransform: 'none' }}>
            {t('estimate.approx', { number: estimate.sessions })}
          </Badge>
        </Tooltip>
      )}
    </Group>
  );
}

function LinkRow({
  projectId,
  link,
  scenario,
  estimate,
}: {
  projectId: string;
  link: AccessorLink;
  scenario: string;
  estimate: SessionEstimate | undefined;
}) {
  const { t } = useTranslation('scenarios');
  const editable = link.can.edit;
  const setOption = useSetLinkOption(projectId);
  const [quota, setQuota] = useState<number | string>(link.quota_size ?? '');
  const [quotaError, setQuotaError] = useState<string | null>(null);

  const send = (option: LinkOption, onDone?: () => void) =>
    setOption.mutate(
      { id: link.id, option },
      {
        onSuccess: () => {
          setQuotaError(null);
          onDone?.();
        },
      },
    );

  const saveQuota = () => {
    const parsed = parseQuotaSize(quota);
    if ('error' in parsed) {
      setQuotaError(parsed.error);
      return;
    }
    setQuotaError(null);
    if (parsed.quota_size === link.quota_size) return;
    send({ path: 'set-quota-size', body: parsed }, () =>
      notifications.show({ color: 'green', message: t('links.quotaSaved'), autoClose: 3000 }),
    );
  };

  return (
    <Paper withBorder radius="md" p="md" data-testid="link-row">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm" wrap="nowrap">
          <Text fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="link-scenario">
            {scenario}
          </Text>
          <Group gap="md" wrap="nowrap">
            <LinkEstimate estimate={estimate} />
            <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {t('links.sessions', { number: link.sessions_count })}
            </Text>
          </Group>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <IconLink size={16} style={{ flexShrink: 0 }} />
          <Anchor
            href={link.link}
            target="_blank"
            rel="noreferrer"
            size="sm"
            style={{ overflowWrap: 'anywhere', fontFamily: 'var(--mantine-font-family-monospace)' }}
            data-testid="link-url"
          >
            {link.link}
          </Anchor>
          <CopyButton value={link.link} timeout={2000}>
            {({ copied, copy }) => (
              <Tooltip label={copied ? t('links.copied') : t('links.copy')} withArrow>
                <ActionIcon
                  variant="subtle"
                  color={copied ? 'teal' : 'gray'}
                  onClick={copy}
                  aria-label={t('links.copy')}
                  data-testid="link-copy"
                >
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        <Group gap="xl" align="flex-end">
          <NumberInput
            label={t('fields.quotaSize')}
            placeholder={t('fields.quotaSizeUnlimited')}
            w={180}
            size="xs"
            min={1}
            clampBehavior="none"
            value={quota}
            onChange={setQuota}
            onBlur={saveQuota}
            onKeyDown={(event) => {
              if (event.key === 'Enter') saveQuota();
            }}
            error={quotaError}
            disabled={!editable || setOption.isPending}
            data-testid="link-quota"
          />
          <Switch
            label={t('fields.faceChecker')}
            checked={link.is_use_face_checker}
            disabled={!editable || setOption.isPending}
            onChange={(event) =>
              send({ path: 'set-face-checker-option', body: { is_use_face_checker: event.currentTarget.checked } })
            }
            data-testid="link-face-checker"
          />
          <Switch
            label={t('fields.paymentData')}
            checked={link.is_request_payment_data}
            disabled={!editable || setOption.isPending}
            onChange={(event) =>
              send({ path: 'set-payment-option', body: { is_request_payment_data: event.currentTarget.checked } })
            }
            data-testid="link-payment"
          />
          <Switch
            label={t('fields.screenerFirst')}
            checked={link.is_screener_first}
            disabled={!editable || setOption.isPending}
            onChange={(event) =>
              send({ path: 'set-screener-first-option', body: { is_screener_first: event.currentTarget.checked } })
            }
            data-testid="link-screener-first"
          />
        </Group>
      </Stack>
    </Paper>
  );
}

type LinkValues = {
  scenario_id: string | null;
  quota_size: number | string;
  is_use_face_checker: boolean;
  is_request_payment_data: boolean;
  is_screener_first: boolean;
};

function CreateLinkModal({ project, onClose }: { project: Project; onClose: () => void }) {
  const { t } = useTranslation('scenarios');
  const scenarios = useScenarioList(project.id);
  const create = useCreateAccessorLink(project.id);
  const first = scenarios.data?.[0]?.id ?? null;
  const form = useForm<LinkValues>({
    mode: 'controlled',
    initialValues: {
      scenario_id: first,
      quota_size: '',
      is_use_face_checker: true,
      is_request_payment_data: false,
      is_screener_first: false,
    },
    validate: {
      scenario_id: (value) => (value ? null : t('links.chooseScenario')),
      quota_size: (value) => {
        const parsed = parseQuotaSize(value);
        return 'error' in parsed ? parsed.error : null;
      },
    },
    validateInputOnBlur: true,
  });

  const submit = form.onSubmit((values) => {
    const quota = parseQuotaSize(values.quota_size);
    if (!values.scenario_id || 'error' in quota) return;
    create.mutate(
      {
        scenarioId: values.scenario_id,
        input: {
          quota_size: quota.quota_size,
          is_use_face_checker: values.is_use_face_checker,
          is_request_payment_data: values.is_request_payment_data,
          is_screener_first: values.is_screener_first,
        },
      },
      {
        onSuccess: () => {
          notifications.show({ color: 'green', message: t('links.created'), autoClose: 4000 });
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiRequestError && error.isAuthError) return;
          if (error instanceof ApiRequestError && error.fields && Object.keys(error.fields).length > 0) {
            form.setErrors(translateFields(error));
            return;
          }
          notifyError(error);
        },
      },
    );
  });

  return (
    <Modal opened onClose={onClose} title={t('links.createTitle')} centered>
      <form onSubmit={submit} noValidate data-testid="link-form">
        <Stack gap="md">
          <Select
            label={t('fields.scenario')}
            data={(scenarios.data ?? []).map((s) => ({
              value: s.id,
              label: t('links.scenarioLabel', {
                number: s.order_number,
                description: s.description || t('scenarios.noDescription'),
              }),
            }))}
            allowDeselect={false}
            {...form.getInputProps('scenario_id')}
          />
          <NumberInput
            label={t('fields.quotaSize')}
            description={t('fields.quotaSizeHint')}
            placeholder={t('fields.quotaSizeUnlimited')}
            min={1}
            clampBehavior="none"
            {...form.getInputProps('quota_size')}
            data-testid="link-form-quota"
          />
          <Switch
            label={t('fields.faceChecker')}
            {...form.getInputProps('is_use_face_checker', { type: 'checkbox' })}
          />
          <Switch
            label={t('fields.paymentData')}
            {...form.getInputProps('is_request_payment_data', { type: 'checkbox' })}
          />
          <Switch
            label={t('fields.screenerFirst')}
            {...form.getInputProps('is_screener_first', { type: 'checkbox' })}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('actions.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending} data-testid="link-submit">
              {t('links.createSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
