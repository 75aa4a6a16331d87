import {
  CATEGORY_KINDS,
  moderateSelfServiceInput,
  SELF_SERVICE_LIMITS,
  type SelfServiceState,
  type SelfServiceTest,
} from '@emolens/contracts';
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Grid,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Timeline,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconAlertTriangle,
  IconArchive,
  IconArrowBackUp,
  IconChartBar,
  IconCheck,
  IconCircleCheck,
  IconPlayerPlay,
  IconPresentation,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { openConfirm } from '../../components/confirm.ts';
import { LANGUAGE_NAMES } from '../../components/language-switcher.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { useSelfServiceAction } from './api.ts';
import { notifyActionError } from './notify-action.ts';
import { CollectedProgress, STATE_COLORS, StateBadge, useSelfServiceFormat } from './self-service-ui.tsx';
import { ProblemList, SurveyLink, VideoFacts } from './test-parts.tsx';

/** States in which respondents are being (or have been) collected. */
const COLLECTING: SelfServiceState[] = ['collection', 'report_processing', 'report_completed', 'completed', 'archived'];

/**
 * A test past its draft (or one the user may not edit): what happens now and what can be done — start, complete,
 * archive, the report, and for staff the moderation — then the test as sent and its history.
 */
export function TestOverview({ test }: { test: SelfServiceTest }) {
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack gap="lg">
          <StatusCard test={test} />
          {test.can.moderate && <ModerationPanel test={test} />}
          <Summary test={test} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <HistoryPanel test={test} />
      </Grid.Col>
    </Grid>
  );
}

function StatusCard({ test }: { test: SelfServiceTest }) {
  const { t } = useTranslation('selfService');
  const format = useSelfServiceFormat();
  const action = useSelfServiceAction(test.id);
  const sessions = test.sessions === null ? '—' : format.number(test.sessions);

  const confirm = (kind: 'start' | 'complete' | 'archive', text: ReactNode, color: string) =>
    openConfirm({
      title: t(`${kind}.title`),
      children: text,
      labels: { confirm: t(`${kind}.confirm`), cancel: t('actions.cancel') },
      confirmProps: { color, 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () =>
        action.mutateAsync(
          { kind },
          {
            onSuccess: () => notifications.show({ color: 'green', message: t(`${kind}.done`), autoClose: 5000 }),
            onError: (error) => notifyActionError(error),
          },
        ),
    });

  const start = () =>
    confirm(
      'start',
      <Stack gap="xs">
        <Text size="sm">
          {test.balance === null
            ? t('start.textUnmetered', { n: sessions })
            : t('start.text', { n: sessions, balance: format.number(test.balance) })}
        </Text>
        <Text size="sm" fw={600}>
          {t('start.irreversible')}
        </Text>
      </Stack>,
      'green',
    );

  const reportPath =
    test.report_id &&
    `/cabinet/campaign/${encodeURIComponent(test.campaign_id)}/report/${encodeURIComponent(test.report_id)}`;
  const collecting = COLLECTING.includes(test.state);

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      style={{ borderLeft: `4px solid var(--mantine-color-${STATE_COLORS[test.state]}-5)` }}
      data-testid="self-service-status"
    >
      <Stack gap="md">
        <Group gap="sm">
          <Title order={3} size="h4">
            {t('status.title')}
          </Title>
          <StateBadge state={test.state} size="lg" />
        </Group>
        <Text size="sm">{t(`status.${test.state}`)}</Text>
        {collecting && <CollectedProgress collected={test.collected} required={test.required} size="lg" />}
        {test.quota_link && test.state === 'collection' && (
          <Stack gap={4} data-testid="self-service-quota-link">
            <Text size="xs" c="dimmed">
              {t('status.quotaLink')}
            </Text>
            <Group gap="xs" wrap="nowrap">
              <Code style={{ overflowWrap: 'anywhere' }}>{test.quota_link}</Code>
              <CopyButton value={test.quota_link}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? t('status.copied') : t('status.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        )}
        {test.problems.length > 0 && (
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            title={t('status.problemsTitle')}
            data-testid="self-service-problems"
          >
            <ProblemList problems={test.problems} test={test} />
          </Alert>
        )}
        {test.can.start && (
          <Text size="sm" data-testid="self-service-start-price">
            {test.balance === null
              ? t('start.priceUnmetered', { n: sessions })
              : t('start.price', { n: sessions, balance: format.number(test.balance) })}
          </Text>
        )}
        <Group gap="sm">
          {test.can.start && (
            <Button
              color="green"
              leftSection={<IconPlayerPlay size={16} />}
              onClick={start}
              loading={action.isPending && action.variables?.kind === 'start'}
              disabled={action.isPending}
              data-testid="self-service-start"
            >
              {t('start.button')}
            </Button>
          )}
          {reportPath && (
            <Button
              component={Link}
              to={reportPath}
              variant="light"
              leftSection={<IconChartBar size={16} />}
              data-testid="self-service-report"
            >
              {t('status.report')}
            </Button>
          )}
          {reportPath && (
            <Button
              component={Link}
              to={`${reportPath}/presentation`}
              variant="light"
              leftSection={<IconPresentation size={16} />}
              data-testid="self-service-presentation"
            >
              {t('status.presentation')}
            </Button>
          )}
          {test.can.complete && (
            <Button
              color="indigo"
              leftSection={<IconCircleCheck size={16} />}
              onClick={() => confirm('complete', <Text size="sm">{t('complete.text')}</Text>, 'indigo')}
              loading={action.isPending && action.variables?.kind === 'complete'}
              disabled={action.isPending}
              data-testid="self-service-complete"
            >
              {t('complete.button')}
            </Button>
          )}
          {test.can.archive && (
            <Button
              color="orange"
              variant="light"
              leftSection={<IconArchive size={16} />}
              onClick={() => confirm('archive', <Text size="sm">{t('archive.text')}</Text>, 'orange')}
              loading={action.isPending && action.variables?.kind === 'archive'}
              disabled={action.isPending}
              data-testid="self-service-archive"
            >
              {t('archive.button')}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

/** Staff: approve the test, or return it to the customer with what to change. */
function ModerationPanel({ test }: { test: SelfServiceTest }) {
  const { t } = useTranslation('selfService');
  const action = useSelfServiceAction(test.id);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);

  const decide = (decision: 'approve' | 'return') => {
    const parsed = moderateSelfServiceInput.safeParse({ decision, comment });
    if (!parsed.success) {
      setError(translateMessage(parsed.error.issues[0]?.message ?? ''));
      return;
    }
    setError(null);
    openConfirm({
      title: t(`moderation.${decision}Title`),
      children: <Text size="sm">{t(`moderation.${decision}Text`)}</Text>,
      labels: { confirm: t(`moderation.${decision}`), cancel: t('actions.cancel') },
      confirmProps: { color: decision === 'approve' ? 'green' : 'orange', 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () =>
        action.mutateAsync(
          { kind: 'moderation', input: parsed.data },
          {
            onSuccess: () => {
              setComment('');
              notifications.show({ color: 'green', message: t(`moderation.${decision}Done`), autoClose: 5000 });
            },
            onError: (failure) => notifyActionError(failure),
          },
        ),
    });
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} bg="yellow.0" data-testid="self-service-moderation">
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={3} size="h4">
            {t('moderation.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('moderation.text', { name: test.owner.name || test.owner.username, id: test.owner.public_user_id })}
          </Text>
        </Stack>
        <Textarea
          label={t('moderation.comment')}
          description={t('moderation.commentHint')}
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
          error={error}
          maxLength={SELF_SERVICE_LIMITS.commentChars}
          autosize
          minRows={3}
          maxRows={10}
          data-testid="self-service-moderation-comment"
        />
        <Group gap="sm">
          <Button
            color="green"
            leftSection={<IconCheck size={16} />}
            onClick={() => decide('approve')}
            loading={
              action.isPending &&
              action.variables?.kind === 'moderation' &&
              action.variables.input.decision === 'approve'
            }
            disabled={action.isPending}
            data-testid="self-service-approve"
          >
            {t('moderation.approve')}
          </Button>
          <Button
            color="orange"
            variant="light"
            leftSection={<IconArrowBackUp size={16} />}
            onClick={() => decide('return')}
            loading={
              action.isPending &&
              action.variables?.kind === 'moderation' &&
              action.variables.input.decision === 'return'
            }
            disabled={action.isPending}
            data-testid="self-service-return"
          >
            {t('moderation.return')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      {typeof children === 'string' ? (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {children}
        </Text>
      ) : (
        children
      )}
    </Stack>
  );
}

/** The test as it was sent: read-only. */
function Summary({ test }: { test: SelfServiceTest }) {
  const { t } = useTranslation('selfService');
  const format = useSelfServiceFormat();
  const a = test.audience;
  const age =
    a.age_min === null && a.age_max === null
      ? t('audience.any')
      : t('summary.ageRange', { from: a.age_min ?? t('audience.any'), to: a.age_max ?? t('audience.any') });
  const categories = CATEGORY_KINDS.filter((k) => test.categories[k]).map(
    (k) => `${t(`categories.${k}`)}: ${test.categories[k]}`,
  );
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="self-service-summary">
      <Stack gap="md">
        <Title order={3} size="h4">
          {t('summary.title')}
        </Title>
        <VideoFacts test={test} />
        <SimpleGrid cols={2} spacing="md" verticalSpacing="md">
          <Fact label={t('summary.language')}>{LANGUAGE_NAMES[test.language]}</Fact>
          <Fact label={t('audience.respondents')}>{format.number(test.required)}</Fact>
          <Fact label={t('audience.sex')}>{t(`audience.sexes.${a.sex}`)}</Fact>
          <Fact label={t('summary.age')}>{age}</Fact>
          <Fact label={t('audience.regions')}>{a.regions.length ? a.regions.join(', ') : t('summary.anywhere')}</Fact>
          <Fact label={t('summary.categories')}>{categories.length ? categories.join(' · ') : '—'}</Fact>
          <Fact label={t('price.perInterview')}>
            {test.sessions_per_interview === null ? '—' : format.number(test.sessions_per_interview)}
          </Fact>
          <Fact label={test.started_at ? t('summary.sessionsFrozen') : t('price.sessions')}>
            {test.sessions === null ? '—' : format.number(test.sessions)}
          </Fact>
          <Fact label={t('price.balance')}>
            {test.balance === null ? t('price.unmetered') : format.number(test.balance)}
          </Fact>
          <Fact label={t('summary.owner')}>
            {`${test.owner.name || test.owner.username} · ID ${test.owner.public_user_id}`}
          </Fact>
          <Fact label={t('summary.created')}>{format.dateTime(test.created_at)}</Fact>
          {test.submitted_at && <Fact label={t('summary.submitted')}>{format.dateTime(test.submitted_at)}</Fact>}
          {test.started_at && <Fact label={t('summary.started')}>{format.dateTime(test.started_at)}</Fact>}
        </SimpleGrid>
        <Group>
          <SurveyLink test={test} edit={false} />
        </Group>
      </Stack>
    </Paper>
  );
}

/** The states the test went through, oldest first; comments are plain text. */
export function HistoryPanel({ test }: { test: SelfServiceTest }) {
  const { t } = useTranslation('selfService');
  const format = useSelfServiceFormat();
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="self-service-history">
      <Stack gap="md">
        <Title order={3} size="h5">
          {t('history.title')}
        </Title>
        {test.history.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('history.empty')}
          </Text>
        ) : (
          <Timeline active={test.history.length - 1} bulletSize={16} lineWidth={2}>
            {test.history.map((entry, index) => (
              <Timeline.Item
                // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows at its end
                key={index}
                color={STATE_COLORS[entry.state]}
                title={
                  <Text size="sm" fw={600}>
                    {t(`states.${entry.state}`)}
                  </Text>
                }
                data-testid="self-service-history-item"
              >
                <Text size="xs" c="dimmed">
                  {entry.actor
                    ? t('history.by', { actor: entry.actor, date: format.dateTime(entry.at) })
                    : format.dateTime(entry.at)}
                </Text>
                {entry.comment && (
                  <Text
                    size="sm"
                    mt={4}
                    style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                    data-testid="self-service-history-comment"
                  >
                    {entry.comment}
                  </Text>
                )}
              </Timeline.Item>
            ))}
          </Timeline>
        )}
      </Stack>
    </Paper>
  );
}
