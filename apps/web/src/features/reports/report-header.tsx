// The report page's header pieces (report-page.tsx): its badges, and its exports and rebuild beside the title.
import { REPORT_EXPORTS, type ReportOutput } from '@emolens/contracts';
import { Badge, Button, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconFileSpreadsheet, IconFileTypeCsv, IconPresentation, IconRefresh } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { apiDownload } from '../../api/client.ts';
import { openConfirm } from '../../components/confirm.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { notifyError } from '../errors/notify.ts';
import { type ReportExportKind, reportExportPath, useReportAction } from './api.ts';
import { exportFileName } from './report-view.ts';

/**
 * Type, step detail, N respondents, engine version(s), privacy mode (the research kept its respondents' video on
 * their devices, decision 064) and when it was built.
 */
export function ReportBadges({ report, videoOnDevice = false }: { report: ReportOutput; videoOnDevice?: boolean }) {
  const { t, i18n } = useTranslation('reportView');
  // The report type is named once, by the reports list's namespace (issue 28, item 7).
  const { t: reportsT } = useTranslation('reports');
  const language = i18n.resolvedLanguage;
  const number = new Intl.NumberFormat(language);
  const snapshot = report.snapshot;
  const built =
    report.status === 'done' && report.built_at
      ? new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(report.built_at))
      : null;
  return (
    <Group gap={6} data-testid="report-badges">
      <Tooltip label={reportsT(`typeHints.${report.type}`)} withArrow multiline maw={300}>
        <Badge variant="light" color="indigo" tt="none" data-testid="report-type">
          {reportsT(`types.${report.type}`)}
        </Badge>
      </Tooltip>
      <Badge variant="light" color="gray" tt="none" data-testid="report-step">
        {t('step', { step: number.format(report.step) })}
      </Badge>
      {snapshot && (
        <Badge variant="light" color="teal" tt="none" data-testid="report-n">
          {t('respondents', { count: number.format(snapshot.respondents) })}
        </Badge>
      )}
      {snapshot && snapshot.researches.length > 1 && (
        <Tooltip
          label={snapshot.researches
            .map((r) => t('pooledOne', { title: r.title, count: number.format(r.respondents) }))
            .join(' · ')}
          withArrow
          multiline
          maw={360}
        >
          <Badge variant="light" color="violet" tt="none" data-testid="report-researches">
            {t('pooled', { count: number.format(snapshot.researches.length) })}
          </Badge>
        </Tooltip>
      )}
      {snapshot && snapshot.engine_versions.length > 0 && (
        <Badge variant="outline" color="gray" tt="none" ff="monospace" data-testid="report-engine">
          {t('engine', { version: snapshot.engine_versions.join(', ') })}
        </Badge>
      )}
      {videoOnDevice && (
        <Tooltip label={t('videoOnDeviceHint')} withArrow multiline maw={320}>
          <Badge variant="light" color="cyan" tt="none" data-testid="report-video-on-device">
            {t('videoOnDevice')}
          </Badge>
        </Tooltip>
      )}
      {built && (
        <Text size="xs" c="dimmed">
          {t('builtAt', { date: built })}
        </Text>
      )}
    </Group>
  );
}

/** Exports (once done) and Rebuild (when the server allows it) beside the title. */
export function HeaderActions({ report, researchId }: { report: ReportOutput; researchId: string }) {
  const { t } = useTranslation('reportView');
  const action = useReportAction(researchId);
  const done = report.status === 'done' && !!report.snapshot;
  if (!done) return null;
  const confirmRebuild = () =>
    openConfirm({
      title: t('rebuild.title'),
      children: <Text size="sm">{t('rebuild.text')}</Text>,
      labels: { confirm: t('rebuild.confirm'), cancel: t('rebuild.cancel') },
      confirmProps: { 'data-testid': 'confirm-rebuild' },
      centered: true,
      onConfirm: () => action.mutateAsync({ reportId: report.id, action: 'rebuild' }),
    });
  return (
    <Group gap="xs">
      <ExportMenu report={report} />
      <Button
        component={Link}
        to={`/cabinet/campaign/${researchId}/report/${report.id}/presentation`}
        size="xs"
        variant="default"
        leftSection={<IconPresentation size={14} />}
        data-testid="report-files"
      >
        {t('files.button')}
      </Button>
      {report.can.rebuild && (
        <Button
          size="xs"
          variant="light"
          leftSection={<IconRefresh size={14} />}
          loading={action.isPending}
          onClick={confirmRebuild}
          data-testid="report-rebuild"
        >
          {t('rebuild.button')}
        </Button>
      )}
    </Group>
  );
}

/** The three exports, each as XLSX or CSV: a download, or a red notification saying why not. */
function ExportMenu({ report }: { report: ReportOutput }) {
  const { t } = useTranslation('reportView');
  const [pending, setPending] = useState<string | null>(null);
  const download = async (kind: ReportExportKind, format: 'xlsx' | 'csv') => {
    setPending(`${kind}:${format}`);
    try {
      await apiDownload(
        'GET',
        reportExportPath(report.id, kind, format, currentLanguage()),
        undefined,
        exportFileName(report.name, kind, format),
        'builder',
      );
    } catch (error) {
      notifyError(error);
    } finally {
      setPending(null);
    }
  };
  return (
    <Menu position="bottom-end" shadow="md" width={260}>
      <Menu.Target>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconDownload size={14} />}
          loading={pending !== null}
          data-testid="report-export"
        >
          {t('export.button')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {REPORT_EXPORTS.map((kind, i) => (
          <Fragment key={kind}>
            {i > 0 && <Menu.Divider />}
            <Menu.Label style={{ whiteSpace: 'normal' }}>{t(`export.kinds.${kind}`)}</Menu.Label>
            <Menu.Item
              leftSection={<IconFileSpreadsheet size={14} />}
              onClick={() => void download(kind, 'xlsx')}
              data-testid={`export-${kind}-xlsx`}
            >
              XLSX
            </Menu.Item>
            <Menu.Item
              leftSection={<IconFileTypeCsv size={14} />}
              onClick={() => void download(kind, 'csv')}
              data-testid={`export-${kind}-csv`}
            >
              CSV
            </Menu.Item>
          </Fragment>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
