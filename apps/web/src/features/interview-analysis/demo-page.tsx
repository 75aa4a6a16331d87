import { DEMO_LIMITS, type DemoAnalysis, type DemoKind } from '@emolens/contracts';
import { clock } from '@emolens/contracts/charts';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  Loader,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChartLine, IconTrash, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { openConfirm } from '../../components/confirm.ts';
import { translateMessage } from '../../i18n/messages.ts';
import {
  checkDemoFile,
  DEMO_PICKER_ACCEPT,
  type DemoUploadFailure,
  demoKeys,
  startDemoUpload,
  useDeleteDemo,
  useDemoList,
  useDemoResult,
} from './api.ts';
import { WebcamRecorder } from './recorder.tsx';
import { ResultView } from './result-view.tsx';

const STATUS_COLORS: Record<DemoAnalysis['status'], string> = {
  queued: 'gray',
  processing: 'blue',
  done: 'green',
  error: 'red',
};

function failureText(failure: DemoUploadFailure): string {
  switch (failure) {
    case 'invalidFormat':
      return translateMessage({ key: 'media.invalidFormat' });
    case 'tooLarge':
      return translateMessage({ key: 'media.tooLarge' });
    case 'tooLong':
      return translateMessage({ key: 'demo.tooLong', params: { max: DEMO_LIMITS.fileSeconds / 60 } });
    case 'invalidName':
      return translateMessage({ key: 'media.invalidMetadata' });
    default:
      return translateMessage({ key: 'errors.internal' });
  }
}

/**
 * Demo mode (`kind` demo: record with the webcam or upload a video) and interview analysis (`kind`
 * interview: upload a long recording, every face tracked): the user's analyses and the chosen result.
 */
export function DemoPage({ kind }: { kind: DemoKind }) {
  const { t, i18n } = useTranslation('demo');
  const client = useQueryClient();
  const list = useDemoList(kind);
  const remove = useDeleteDemo(kind);
  const [params, setParams] = useSearchParams();
  const [upload, setUpload] = useState<{ name: string; sent: number; total: number } | null>(null);
  const items = list.data?.items ?? [];
  const selectedId = params.get('id');
  const selected = items.find((item) => item.id === selectedId) ?? null;
  const result = useDemoResult(selected?.id ?? null, selected?.status === 'done');

  const select = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set('id', id);
    else next.delete('id');
    setParams(next, { replace: true });
  };

  const send = async (file: File | null) => {
    if (!file || upload) return;
    const refused = checkDemoFile(file);
    if (refused) {
      notifications.show({ color: 'red', message: failureText(refused) });
      return;
    }
    setUpload({ name: file.name, sent: 0, total: file.size });
    await startDemoUpload(kind, file, {
      onProgress: (sent, total) => setUpload({ name: file.name, sent, total }),
      onSuccess: (id) => {
        setUpload(null);
        void client.invalidateQueries({ queryKey: demoKeys.list(kind) });
        if (id) select(id);
      },
      onError: (failure) => {
        setUpload(null);
        notifications.show({ color: 'red', message: failureText(failure) });
      },
    });
  };

  const confirmDelete = (item: DemoAnalysis) =>
    openConfirm({
      title: t('list.deleteTitle'),
      children: <Text size="sm">{t('list.deleteText', { name: item.filename })}</Text>,
      labels: { confirm: t('list.delete'), cancel: t('list.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        if (item.id === selectedId) select(null);
        return remove.mutateAsync(item.id);
      },
    });

  const date = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

  const uploader = (
    <Paper withBorder radius="md" p="md" h="100%">
      <Stack gap="sm" h="100%">
        <Group gap="xs">
          <IconUpload size={18} />
          <Text fw={600}>{t(`upload.title.${kind}`)}</Text>
        </Group>
        <Text size="sm" c="dimmed">
          {t(`upload.hint.${kind}`, { hours: DEMO_LIMITS.fileSeconds / 3600 })}
        </Text>
        {upload ? (
          <Stack gap={4} data-testid="demo-upload-progress">
            <Text size="sm" truncate>
              {upload.name}
            </Text>
            <Progress value={upload.total ? (upload.sent / upload.total) * 100 : 0} animated />
          </Stack>
        ) : (
          <FileButton
            onChange={send}
            accept={DEMO_PICKER_ACCEPT}
            inputProps={{ 'data-testid': 'demo-input' } as object}
          >
            {(props) => (
              <UnstyledButton
                {...props}
                data-testid="demo-upload"
                style={{
                  flex: 1,
                  minHeight: 120,
                  border: '2px dashed var(--mantine-color-gray-4)',
                  borderRadius: 8,
                  display: 'flex',
                  flexDirection: 'column',
                  alignItems: 'center',
                  justifyContent: 'center',
                  gap: 8,
                  padding: 16,
                }}
              >
                <IconUpload size={32} color="var(--mantine-color-blue-6)" />
                <Text fw={600} c="blue.7">
                  {t('upload.choose')}
                </Text>
              </UnstyledButton>
            )}
          </FileButton>
        )}
      </Stack>
    </Paper>
  );

  return (
    <Stack gap="lg" data-testid={`demo-page-${kind}`}>
      <Stack gap={4}>
        <Title order={2}>{t(`title.${kind}`)}</Title>
        <Text c="dimmed">{t(`description.${kind}`)}</Text>
      </Stack>

      {kind === 'demo' ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          <WebcamRecorder onRecorded={send} disabled={upload !== null} />
          {uploader}
        </SimpleGrid>
      ) : (
        uploader
      )}

      <Stack gap="xs">
        <Title order={4}>{t('list.title')}</Title>
        {list.isPending ? (
          <Loader size="sm" />
        ) : items.length === 0 ? (
          <Text c="dimmed" size="sm" data-testid="demo-empty">
            {t('list.empty')}
          </Text>
        ) : (
          <Stack gap="xs" data-testid="demo-list">
            {items.map((item) => (
              <Paper
                key={item.id}
                withBorder
                radius="md"
                p="sm"
                data-testid="demo-item"
                style={item.id === selectedId ? { borderColor: 'var(--mantine-color-blue-5)' } : undefined}
              >
                <Group justify="space-between" wrap="nowrap" align="flex-start">
                  <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
                    <Group gap="xs" wrap="wrap">
                      <Text fw={600} truncate maw="100%">
                        {item.filename}
                      </Text>
                      <Badge color={STATUS_COLORS[item.status]} variant="light" data-testid="demo-status">
                        {t(`status.${item.status}`)}
                      </Badge>
                    </Group>
                    <Text size="xs" c="dimmed">
                      {[
                        date(item.created_at),
                        item.duration_seconds !== null ? clock(item.duration_seconds) : null,
                        kind === 'interview' && item.sessions_counted !== null
                          ? t('list.sessions', { count: item.sessions_counted })
                          : null,
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </Text>
                    {(item.status === 'queued' || item.status === 'processing') && (
                      <Progress value={item.progress} size="sm" animated maw={360} />
                    )}
                    {item.status === 'error' && item.error_code && (
                      <Text size="sm" c="red">
                        {translateMessage({ key: `processing.error.${item.error_code}` })}
                      </Text>
                    )}
                  </Stack>
                  <Group gap="xs" wrap="nowrap">
                    {item.status === 'done' && (
                      <Button
                        size="xs"
                        variant={item.id === selectedId ? 'filled' : 'light'}
                        leftSection={<IconChartLine size={14} />}
                        onClick={() => select(item.id)}
                        data-testid="demo-open"
                      >
                        {t('list.open')}
                      </Button>
                    )}
                    <Tooltip label={t('list.delete')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        onClick={() => confirmDelete(item)}
                        aria-label={t('list.delete')}
                        data-testid="demo-delete"
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Group>
              </Paper>
            ))}
          </Stack>
        )}
      </Stack>

      {selected && selected.status === 'done' && (
        <Stack gap="sm">
          <Title order={3}>{t('result.title', { name: selected.filename })}</Title>
          {result.data ? <ResultView result={result.data} /> : <Loader size="sm" />}
        </Stack>
      )}
      {selected && selected.status !== 'done' && selected.status !== 'error' && (
        <Alert variant="light">{t('result.waiting', { progress: Math.round(selected.progress) })}</Alert>
      )}
    </Stack>
  );
}
