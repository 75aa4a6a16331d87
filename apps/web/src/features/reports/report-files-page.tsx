import {
  HEATMAP_THEMES,
  type HeatmapTheme,
  isMessageKey,
  LANGUAGES,
  type Language,
  type ReportFile,
} from '@emolens/contracts';
import {
  Alert,
  Badge,
  Button,
  Center,
  FileButton,
  Group,
  Loader,
  Paper,
  Progress,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconAlertTriangle,
  IconDownload,
  IconMovie,
  IconPaperclip,
  IconPresentation,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { apiDownload } from '../../api/client.ts';
import { openConfirm } from '../../components/confirm.ts';
import { LANGUAGE_NAMES } from '../../components/language-switcher.tsx';
import { InlineLoadError, isNotFound } from '../../components/load-states.tsx';
import { BackLink } from '../../components/page-notices.tsx';
import { formatBytes } from '../../i18n/format.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { translateMessage } from '../../i18n/messages.ts';
import { notifyError } from '../errors/notify.ts';
import { useResearchContext } from '../researches/research-context.ts';
import { reportFileDownloadPath, useReportFileAction, useReportFiles } from './api.ts';

/**
 * campaign/{id}/report/{reportId}/presentation — the spec's presentation attach screen (issue 13, item 8): the
 * report's presentation (made from the report in a language, or the analyst's own PDF or PPTX attached in its
 * place) and, for a video research, the video export with the heatmap and the engagement curve over the video.
 * What may be done with each file comes from the server (`can`).
 */
export function ReportFilesPage() {
  const { t } = useTranslation('reportView');
  const { research } = useResearchContext();
  const { reportId = '' } = useParams();
  const query = useReportFiles(reportId);
  if (!research) return null;
  const data = query.data;

  let body: ReactNode;
  if (data) {
    const file = (kind: ReportFile['kind']) => data.files.find((f) => f.kind === kind);
    const presentation = file('presentation');
    const video = file('video');
    body = (
      <Stack gap="md">
        {data.report.status !== 'done' && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="files-not-built">
            {t('files.notBuilt')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {presentation && <FileCard reportId={reportId} file={presentation} />}
          {video && <FileCard reportId={reportId} file={video} videoResearch={data.report.content_type === 'video'} />}
        </SimpleGrid>
      </Stack>
    );
  } else if (isNotFound(query.error)) {
    body = (
      <Alert color="gray" variant="light" icon={<IconAlertTriangle size={18} />}>
        {translateMessage({ key: 'report.notFound' })}
      </Alert>
    );
  } else if (query.isError) {
    body = <InlineLoadError text={t('loadError')} retryLabel={t('retry')} onRetry={() => void query.refetch()} />;
  } else {
    body = (
      <Center py={64}>
        <Loader />
      </Center>
    );
  }

  return (
    <Stack gap="lg" maw={1100} data-testid="report-files-page">
      <Stack gap={6}>
        <BackLink to={`/cabinet/campaign/${research.id}/report/${reportId}`} label={t('files.back')} />
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          {t('files.title')}
        </Title>
        {data && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {t('files.of', { name: data.report.name, title: research.title })}
          </Text>
        )}
        <Text size="sm" maw={760}>
          {t('files.intro')}
        </Text>
      </Stack>
      {body}
    </Stack>
  );
}

/** One file: what it is, its state, and the actions the server allows. */
function FileCard({
  reportId,
  file,
  videoResearch = true,
}: {
  reportId: string;
  file: ReportFile;
  videoResearch?: boolean;
}) {
  const { t, i18n } = useTranslation('reportView');
  const actions = useReportFileAction(reportId);
  const [language, setLanguage] = useState<Language>(currentLanguage());
  const [theme, setTheme] = useState<HeatmapTheme>('colour');
  const [uploaded, setUploaded] = useState<number | null>(null);
  const [downloading, setDownloading] = useState(false);
  const kind = file.kind;
  const uiLanguage = i18n.resolvedLanguage ?? 'en';

  const generate = () => actions.generate.mutate({ kind, language, theme }, { onError: (error) => notifyError(error) });
  const download = async () => {
    setDownloading(true);
    try {
      await apiDownload('GET', reportFileDownloadPath(reportId, kind), undefined, file.filename ?? kind);
    } catch (error) {
      notifyError(error);
    } finally {
      setDownloading(false);
    }
  };
  const remove = () =>
    openConfirm({
      title: t('files.removeConfirm.title'),
      children: <Text size="sm">{t('files.removeConfirm.text')}</Text>,
      labels: { confirm: t('files.removeConfirm.confirm'), cancel: t('files.removeConfirm.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-remove-file' },
      centered: true,
      onConfirm: () => actions.remove.mutateAsync(kind, { onError: (error) => notifyError(error) }),
    });
  const attach = (chosen: File | null) => {
    if (!chosen) return;
    setUploaded(0);
    actions.attach.mutate(
      { file: chosen, onProgress: setUploaded },
      {
        onSuccess: () => notifications.show({ color: 'teal', message: t('files.attached') }),
        onError: (error) => notifyError(error),
        onSettled: () => setUploaded(null),
      },
    );
  };

  const running = file.status === 'in_progress';
  const updated = file.updated_at
    ? new Intl.DateTimeFormat(uiLanguage, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(file.updated_at))
    : null;

  return (
    <Paper withBorder radius="md" p="lg" data-testid={`file-${kind}`}>
      <Stack gap="sm">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          {kind === 'presentation' ? <IconPresentation size={28} stroke={1.5} /> : <IconMovie size={28} stroke={1.5} />}
          <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
            <Group gap="xs" justify="space-between">
              <Title order={4}>{t(`files.${kind}.title`)}</Title>
              <StatusBadge file={file} />
            </Group>
            <Text size="sm" c="dimmed">
              {t(`files.${kind}.text`)}
            </Text>
          </Stack>
        </Group>

        {!videoResearch && (
          <Alert color="gray" variant="light" data-testid="video-only">
            {translateMessage({ key: 'report.videoOnly' })}
          </Alert>
        )}
        {running && (
          <Stack gap={4} data-testid={`file-${kind}-progress`}>
            <Text size="sm">{t('files.making', { progress: file.progress })}</Text>
            <Progress value={Math.max(3, file.progress)} animated striped />
          </Stack>
        )}
        {file.status === 'failed' && file.error_key && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} data-testid={`file-${kind}-error`}>
            {isMessageKey(file.error_key) ? translateMessage({ key: file.error_key }) : t('files.status.failed')}
          </Alert>
        )}
        {file.status === 'done' && (
          <Paper bg="gray.0" p="sm" radius="sm">
            <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }} data-testid={`file-${kind}-name`}>
              {file.filename}
            </Text>
            <Text size="xs" c="dimmed">
              {[
                file.source === 'uploaded'
                  ? t('files.source.uploaded')
                  : t('files.source.generated', { language: LANGUAGE_NAMES[file.language ?? 'en'] }),
                file.size !== null ? formatBytes(file.size, uiLanguage) : null,
                updated,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Text>
          </Paper>
        )}
        {file.outdated && (
          <Alert color="yellow" variant="light" data-testid={`file-${kind}-outdated`}>
            {t('files.outdated')}
          </Alert>
        )}

        {file.can.generate && (
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Select
              label={t('files.language')}
              data={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
              value={language}
              onChange={(value) => value && setLanguage(value as Language)}
              allowDeselect={false}
              w={150}
              data-testid={`file-${kind}-language`}
            />
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('heatmap.title')}
              </Text>
              <SegmentedControl
                value={theme}
                onChange={(value) => setTheme(value as HeatmapTheme)}
                data={HEATMAP_THEMES.map((value) => ({ value, label: t(`heatmap.themes.${value}`) }))}
              />
            </Stack>
          </Group>
        )}

        <Group gap="xs" wrap="wrap">
          {file.can.generate && (
            <Button
              leftSection={<IconRefresh size={16} />}
              onClick={generate}
              loading={actions.generate.isPending}
              data-testid={`file-${kind}-generate`}
            >
              {file.status === 'none' ? t('files.generate') : t('files.regenerate')}
            </Button>
          )}
          {file.can.download && (
            <Button
              variant="light"
              leftSection={<IconDownload size={16} />}
              onClick={() => void download()}
              loading={downloading}
              data-testid={`file-${kind}-download`}
            >
              {t('files.download')}
            </Button>
          )}
          {file.can.remove && (
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={remove}
              data-testid={`file-${kind}-remove`}
            >
              {t('files.remove')}
            </Button>
          )}
        </Group>

        {file.can.upload && (
          <Stack gap={6} pt="xs" style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}>
            <Group gap="sm">
              <FileButton
                onChange={attach}
                accept=".pdf,.pptx,application/pdf,application/vnd.openxmlformats-officedocument.presentationml.presentation"
              >
                {(props) => (
                  <Button
                    {...props}
                    variant="default"
                    leftSection={<IconPaperclip size={16} />}
                    loading={uploaded !== null}
                    data-testid="attach-presentation"
                  >
                    {t('files.attach')}
                  </Button>
                )}
              </FileButton>
            </Group>
            {uploaded !== null && (
              <Stack gap={4}>
                <Text size="xs">{t('files.uploading', { progress: Math.round(uploaded * 100) })}</Text>
                <Progress value={uploaded * 100} size="sm" />
              </Stack>
            )}
            <Text size="xs" c="dimmed">
              {t('files.attachHint')}
            </Text>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

const STATUS_COLORS = { none: 'gray', in_progress: 'blue', done: 'teal', failed: 'red' } as const;

function StatusBadge({ file }: { file: ReportFile }) {
  const { t } = useTranslation('reportView');
  return (
    <Badge variant="light" color={STATUS_COLORS[file.status]} tt="none" data-testid={`file-${file.kind}-status`}>
      {t(`files.status.${file.status}`)}
    </Badge>
  );
}
