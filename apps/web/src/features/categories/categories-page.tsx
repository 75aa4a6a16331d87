import { NORM_FILE_LIMIT, normFileSchema } from '@emolens/contracts';
import {
  ActionIcon,
  Alert,
  Button,
  FileButton,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconLock, IconTrash, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { ListLoadError, ListLoading } from '../../components/list-states.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { notifyError } from '../errors/notify.ts';
import { useResearchFormat } from '../researches/research-ui.tsx';
import { exportNorms, useBenchmarks, useCategories, useNormImportAction } from './api.ts';
import { Directory } from './category-directory.tsx';

/**
 * The categories directory and benchmark bases (issue 13, item 7; spec sections 3, 6): every cabinet user sees
 * them; categorizer admins and super users (the server's `can.manage`) add, rename and remove values, and export
 * and import norm bases.
 */
export function CategoriesPage() {
  const { t } = useTranslation('categories');
  const directory = useCategories();
  const manage = directory.data?.can.manage ?? false;
  return (
    <Stack gap="lg" data-testid="categories-page">
      <Stack gap={4}>
        <Title order={2}>{t('title')}</Title>
        <Text c="dimmed">{t('subtitle')}</Text>
      </Stack>
      {directory.data && !manage && (
        <Alert variant="light" color="gray" icon={<IconLock size={18} />} data-testid="categories-read-only">
          {t('readOnly')}
        </Alert>
      )}
      {directory.isPending ? (
        <ListLoading />
      ) : directory.isError ? (
        <LoadError testId="categories-error" onRetry={() => void directory.refetch()} />
      ) : (
        <Directory entries={directory.data.entries} manage={manage} />
      )}
      <Benchmarks />
    </Stack>
  );
}

function LoadError({ testId, onRetry }: { testId: string; onRetry: () => void }) {
  const { t } = useTranslation('categories');
  return (
    <ListLoadError
      testId={testId}
      title={t('loadErrorTitle')}
      text={t('loadErrorText')}
      retryLabel={t('retry')}
      onRetry={onRetry}
    />
  );
}

function Benchmarks() {
  const { t } = useTranslation('categories');
  const tc = useTranslation('researches').t;
  const format = useResearchFormat();
  const benchmarks = useBenchmarks();
  const action = useNormImportAction();
  const [name, setName] = useState('');
  const [exporting, setExporting] = useState(false);
  const manage = benchmarks.data?.can.manage ?? false;

  const importFile = async (file: File | null) => {
    if (!file) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      notifications.show({ color: 'red', message: translateMessage({ key: 'benchmark.badFile' }) });
      return;
    }
    const checked = normFileSchema.safeParse(parsed);
    if (!checked.success) {
      const first = checked.error.issues[0];
      notifications.show({
        color: 'red',
        message: first ? translateMessage(first.message) : translateMessage({ key: 'benchmark.badFile' }),
      });
      return;
    }
    action.mutate(
      { kind: 'import', name: name.trim() || file.name.replace(/\.json$/i, ''), file: checked.data },
      {
        onSuccess: () => {
          setName('');
          notifications.show({ color: 'teal', message: t('norms.imported', { count: checked.data.entries.length }) });
        },
        onError: (e) => notifyError(e),
      },
    );
  };

  return (
    <Paper withBorder radius="lg" p="md" data-testid="benchmark-bases">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start">
          <Stack gap={4} style={{ flex: '1 1 320px' }}>
            <Title order={3} size="h4">
              {t('norms.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('norms.description')}
            </Text>
          </Stack>
          {manage && (
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              loading={exporting}
              onClick={() => {
                setExporting(true);
                exportNorms()
                  .catch(notifyError)
                  .finally(() => setExporting(false));
              }}
              data-testid="norms-export"
            >
              {t('norms.export')}
            </Button>
          )}
        </Group>
        {benchmarks.isPending ? (
          <ListLoading />
        ) : benchmarks.isError ? (
          <LoadError testId="bases-error" onRetry={() => void benchmarks.refetch()} />
        ) : benchmarks.data.bases.length === 0 ? (
          <Text c="dimmed" ta="center" py="md" data-testid="bases-empty">
            {t('norms.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={420}>
            <Table verticalSpacing="xs" data-testid="bases-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('kinds.subtype')}</Table.Th>
                  <Table.Th>{t('directory.contentType')}</Table.Th>
                  <Table.Th ta="right">{t('norms.researches')}</Table.Th>
                  <Table.Th ta="right">{t('norms.importedCount')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {benchmarks.data.bases.map((b) => (
                  <Table.Tr key={`${b.content_type}:${b.subtype}`}>
                    <Table.Td fw={500}>{b.subtype}</Table.Td>
                    <Table.Td>{tc(`contentTypes.${b.content_type}`)}</Table.Td>
                    <Table.Td ta="right">{format.number(b.researches)}</Table.Td>
                    <Table.Td ta="right">{format.number(b.imported)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {manage && (
          <Stack gap="xs">
            <Text fw={600} size="sm">
              {t('norms.importTitle')}
            </Text>
            <Text size="xs" c="dimmed">
              {t('norms.importHint', { max: format.number(NORM_FILE_LIMIT) })}
            </Text>
            <Group gap="sm" align="flex-start" wrap="wrap">
              <TextInput
                style={{ flex: '1 1 220px' }}
                placeholder={t('norms.importName')}
                aria-label={t('norms.importName')}
                value={name}
                maxLength={255}
                onChange={(e) => setName(e.currentTarget.value)}
                data-testid="norms-import-name"
              />
              <FileButton onChange={importFile} accept="application/json,.json">
                {(props) => (
                  <Button
                    {...props}
                    leftSection={<IconUpload size={16} />}
                    loading={action.isPending}
                    data-testid="norms-import"
                  >
                    {t('norms.import')}
                  </Button>
                )}
              </FileButton>
            </Group>
          </Stack>
        )}
        {benchmarks.data && benchmarks.data.imports.length > 0 && (
          <Table verticalSpacing="xs" data-testid="imports-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('norms.importName')}</Table.Th>
                <Table.Th ta="right">{t('norms.entries')}</Table.Th>
                <Table.Th>{t('norms.importedAt')}</Table.Th>
                {manage && <Table.Th w={50} />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {benchmarks.data.imports.map((i) => (
                <Table.Tr key={i.id}>
                  <Table.Td fw={500}>{i.name}</Table.Td>
                  <Table.Td ta="right">{format.number(i.entries)}</Table.Td>
                  <Table.Td>{format.dateTime(i.imported_at)}</Table.Td>
                  {manage && (
                    <Table.Td>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('norms.remove')}
                        onClick={() =>
                          openConfirm({
                            title: t('norms.removeTitle', { name: i.name }),
                            labels: { confirm: t('norms.remove'), cancel: t('directory.cancel') },
                            confirmProps: { color: 'red' },
                            onConfirm: () =>
                              action.mutateAsync({ kind: 'delete', id: i.id }, { onError: (e) => notifyError(e) }),
                          })
                        }
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
