import { CHECK_TOKEN_LIMIT, type CheckedToken } from '@emolens/contracts';
import { Alert, Badge, Button, Group, Paper, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { IconDownload, IconShieldCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table.tsx';
import { useCheckTokens } from '../fieldwork/api.ts';
import { useProjectFormat } from '../projects/project-ui.tsx';
import { downloadText, toCsv } from './csv.ts';

/** valid, or why not: the one word a row is judged by. */
const resultOf = (item: CheckedToken) => (item.valid ? 'valid' : (item.reason ?? 'forged'));
const RESULT_COLORS = { valid: 'green', forged: 'red', malformed: 'gray', session_missing: 'orange' } as const;

/** /cabinet/check-token: pasted completion codes verified by the server, with a CSV of the results. */
export function CheckTokenPage() {
  const { t } = useTranslation('fieldwork');
  const format = useProjectFormat();
  const [text, setText] = useState('');
  const check = useCheckTokens();
  const result = check.data;

  const current = (item: CheckedToken) =>
    item.session_status
      ? [t(`status.${item.session_status}`), item.quota_state ? t(`quotaState.${item.quota_state}`) : '']
          .filter(Boolean)
          .join(' · ')
      : '';

  const download = () => {
    if (!result) return;
    const header = [
      t('checkToken.code'),
      t('checkToken.result'),
      t('checkToken.project'),
      t('checkToken.researches'),
      t('checkToken.participant'),
      t('checkToken.outcome'),
      t('checkToken.current'),
      t('checkToken.completedAt'),
    ];
    const rows = result.items.map((item) => [
      item.code,
      t(`checkToken.${resultOf(item)}`),
      item.project?.title ?? '',
      item.researches.map((r) => r.title).join('; '),
      item.participant_id ?? '',
      item.outcome ? t(`outcome.${item.outcome}`) : '',
      current(item),
      item.completed_at ?? '',
    ]);
    downloadText(`completion-codes-${new Date().toISOString().slice(0, 10)}.csv`, toCsv([header, ...rows]));
  };

  const valid = result?.items.filter((item) => item.valid).length ?? 0;

  return (
    <Stack gap="lg" maw={1200} data-testid="check-token-page">
      <Stack gap={4}>
        <Title order={2}>{t('checkToken.title')}</Title>
        <Text c="dimmed">{t('checkToken.description', { limit: CHECK_TOKEN_LIMIT })}</Text>
      </Stack>
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            check.mutate(text);
          }}
        >
          <Stack gap="md">
            <Textarea
              label={t('checkToken.label')}
              placeholder={t('checkToken.placeholder')}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              autosize
              minRows={5}
              maxRows={14}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
              data-testid="check-token-input"
            />
            <Group justify="flex-end">
              <Button
                type="submit"
                leftSection={<IconShieldCheck size={16} />}
                loading={check.isPending}
                disabled={!text.trim()}
                data-testid="check-token-submit"
              >
                {t('checkToken.check')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      {result && (
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="check-token-results">
          <Stack gap="md">
            <Group justify="space-between">
              <Text fw={600} data-testid="check-token-summary">
                {result.items.length
                  ? t('checkToken.summary', { valid, total: result.items.length })
                  : t('checkToken.noCodes')}
              </Text>
              {result.items.length > 0 && (
                <Button
                  variant="light"
                  leftSection={<IconDownload size={16} />}
                  onClick={download}
                  data-testid="check-token-csv"
                >
                  {t('checkToken.download')}
                </Button>
              )}
            </Group>
            {result.truncated && (
              <Alert color="yellow" variant="light">
                {t('checkToken.truncated', { limit: CHECK_TOKEN_LIMIT })}
              </Alert>
            )}
            {result.items.length > 0 && (
              <DataTable
                minWidth={900}
                striped
                verticalSpacing="xs"
                columns={[
                  t('checkToken.result'),
                  t('checkToken.code'),
                  t('checkToken.project'),
                  t('checkToken.researches'),
                  t('checkToken.participant'),
                  t('checkToken.outcome'),
                  t('checkToken.current'),
                ]}
              >
                {result.items.map((item) => (
                  <Table.Tr key={item.code} data-testid="check-token-row" data-result={resultOf(item)}>
                    <Table.Td>
                      <Badge color={RESULT_COLORS[resultOf(item)]} variant="light" miw="max-content">
                        {t(`checkToken.${resultOf(item)}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td maw={220}>
                      <Text size="xs" ff="monospace" truncate="end" title={item.code}>
                        {item.code}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{item.project?.title ?? '—'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{item.researches.map((r) => r.title).join(', ') || '—'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {item.participant_id ?? '—'}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{item.outcome ? t(`outcome.${item.outcome}`) : '—'}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={0}>
                        <Text size="sm">{current(item) || '—'}</Text>
                        {item.completed_at && (
                          <Text size="xs" c="dimmed">
                            {format.dateTime(item.completed_at)}
                          </Text>
                        )}
                      </Stack>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </DataTable>
            )}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
