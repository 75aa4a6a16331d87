import { isMessageKey, type ReportOutput } from '@emolens/contracts';
import { Alert, Button, Center, Group, Loader, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlayerStop, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { InlineLoadError, isNotFound } from '../../components/load-states.tsx';
import { BackLink } from '../../components/page-notices.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { useResearchContext } from '../researches/research-context.ts';
import { useReport, useReportAction } from './api.ts';
import { HeaderActions, ReportBadges } from './report-header.tsx';
import { ReportResults } from './report-results.tsx';

/**
 * campaign/{id}/report/{reportId} (issue 13): one report — its state while it builds or after it failed, and once
 * done its curves with their 95% bands (the video beside them sharing a time cursor), the gaze heatmap, the
 * respondents it counts and leaves out, and the exports.
 */
export function ReportPage() {
  const { t } = useTranslation('reportView');
  const { research } = useResearchContext();
  const { reportId = '' } = useParams();
  const query = useReport(reportId);
  if (!research) return null;
  const report = query.data;

  let body: ReactNode;
  if (report) body = <ReportBody report={report} researchId={research.id} />;
  else if (isNotFound(query.error)) {
    body = (
      <Alert color="gray" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="report-not-found">
        {translateMessage({ key: 'report.notFound' })}
      </Alert>
    );
  } else if (query.isError) {
    body = (
      <InlineLoadError
        text={t('loadError')}
        retryLabel={t('retry')}
        onRetry={() => void query.refetch()}
        testId="report-load-error"
      />
    );
  } else {
    body = (
      <Center py={64} data-testid="report-loading">
        <Loader />
      </Center>
    );
  }

  return (
    <Stack gap="lg" maw={1280} data-testid="report-page">
      <Stack gap={6}>
        <BackLink to={`/cabinet/campaign/${research.id}/statistic`} label={t('back')} />
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={6} miw={0} style={{ flex: '1 1 320px' }}>
            <Title order={2} style={{ overflowWrap: 'anywhere' }} data-testid="report-title">
              {report?.name ?? t('title')}
            </Title>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {t('research', { title: research.title, project: research.project.title })}
            </Text>
          </Stack>
          {report && <HeaderActions report={report} researchId={research.id} />}
        </Group>
        {report && <ReportBadges report={report} videoOnDevice={research?.settings.videoOnDevice === true} />}
        {report?.status === 'done' && report.snapshot && (
          <Text size="sm" data-testid="report-method">
            {t('method')}
          </Text>
        )}
      </Stack>
      {body}
    </Stack>
  );
}

/** What the report's state allows to show: its progress, why it stopped, or its results. */
function ReportBody({ report, researchId }: { report: ReportOutput; researchId: string }) {
  const { t } = useTranslation('reportView');
  const action = useReportAction(researchId);
  const rebuild = report.can.rebuild ? (
    <Button
      size="xs"
      variant="light"
      color={report.failed ? 'red' : 'gray'}
      leftSection={<IconRefresh size={14} />}
      loading={action.isPending}
      onClick={() => action.mutate({ reportId: report.id, action: 'rebuild' })}
      data-testid="report-rebuild"
    >
      {t('rebuild.button')}
    </Button>
  ) : null;

  if (report.status === 'in_progress') {
    return (
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="report-building">
        <Stack gap="sm">
          <Group gap="xs" wrap="nowrap">
            <Loader size="xs" type="dots" />
            <Text fw={500}>{t('state.building')}</Text>
          </Group>
          <Progress value={report.progress} size="lg" animated aria-label={t('state.progressLabel')} />
          <Text size="sm" c="dimmed" data-testid="report-progress">
            {t('state.progress', { percent: report.progress })}
          </Text>
        </Stack>
      </Paper>
    );
  }
  if (report.status === 'canceled' && report.failed) {
    const reason = report.error_key ? errorText(report.error_key) : null;
    return (
      <Alert
        color="red"
        variant="light"
        icon={<IconAlertTriangle size={18} />}
        title={translateMessage({ key: 'report.lastFailed' })}
        data-testid="report-failed"
      >
        <Stack gap="sm" align="flex-start">
          {reason && <Text size="sm">{reason}</Text>}
          {rebuild}
        </Stack>
      </Alert>
    );
  }
  if (report.status === 'canceled') {
    return (
      <Alert
        color="gray"
        variant="light"
        icon={<IconPlayerStop size={18} />}
        title={t('state.canceledTitle')}
        data-testid="report-canceled"
      >
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{t('state.canceledText')}</Text>
          {rebuild}
        </Stack>
      </Alert>
    );
  }
  if (!report.snapshot) {
    return (
      <Alert color="gray" variant="light" data-testid="report-not-done">
        {translateMessage({ key: 'report.notDone' })}
      </Alert>
    );
  }
  // A rebuilt report starts over: its choices belong to the snapshot they were made on.
  return <ReportResults key={`${report.id}:${report.built_at ?? ''}`} report={report} snapshot={report.snapshot} />;
}

/** A server message key (or a `msg()` reference) in the interface language; other text as it came. */
function errorText(key: string): string {
  return isMessageKey(key) ? translateMessage({ key }) : translateMessage(key);
}
