import {
  FIELDWORK_COUNT_KEYS,
  type FieldworkCounts,
  type QuotaStatistics,
  type RespondentSessionStatus,
  type VideoProcessStatus,
} from '@emolens/contracts';
import { Badge, Group, Paper, Progress, SimpleGrid, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';

export const SESSION_STATUS_COLORS: Record<RespondentSessionStatus, string> = {
  started: 'blue',
  completed: 'green',
  screened_out: 'gray',
  quota_full: 'orange',
  dropped_out: 'red',
  calibration_failed: 'grape',
  device_too_slow: 'yellow',
};

export const PROCESS_STATUS_COLORS: Record<VideoProcessStatus, string> = {
  created: 'gray',
  collected: 'blue',
  preprocessing: 'cyan',
  in_process: 'indigo',
  done: 'green',
  error: 'red',
  detection_error: 'red',
  canceled: 'gray',
  restarted: 'yellow',
};

/** Completes and held (pending) slots against the quota: the bar a fieldwork manager watches. */
function QuotaProgress({ counts }: { counts: FieldworkCounts }) {
  const { t } = useTranslation('fieldwork');
  if (counts.quota === null || counts.quota === 0) {
    return (
      <Text size="xs" c="dimmed">
        {t('table.noQuota')}
      </Text>
    );
  }
  const share = (n: number) => Math.min(100, (n / (counts.quota ?? 1)) * 100);
  return (
    <Stack gap={2} miw={110}>
      <Tooltip label={t('table.pendingHint')} withArrow>
        <Progress.Root size="md">
          <Progress.Section value={share(counts.completes)} color="green" />
          <Progress.Section value={share(counts.pending)} color="yellow" />
        </Progress.Root>
      </Tooltip>
      <Text size="xs" c="dimmed">
        {t('table.progress', { done: counts.completes + counts.pending, quota: counts.quota })}
      </Text>
    </Stack>
  );
}

/** A scenario's or a link's counts: a table row from the tablet up, a card below it (`strong`: the scenario's). */
interface CountsProps {
  label: string;
  counts: FieldworkCounts;
  strong?: boolean;
  testId: string;
}

function Row({ label, counts, strong, testId }: CountsProps) {
  const fw = strong ? 700 : undefined;
  return (
    <Table.Tr data-testid={testId}>
      <Table.Td fw={fw} style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Table.Td>
      <Table.Td fw={fw} data-col="quota">
        {counts.quota ?? '—'}
      </Table.Td>
      {FIELDWORK_COUNT_KEYS.map((key) => (
        <Table.Td key={key} fw={fw} data-col={key}>
          {counts[key]}
        </Table.Td>
      ))}
      <Table.Td>
        <QuotaProgress counts={counts} />
      </Table.Td>
    </Table.Tr>
  );
}

/** Per scenario and quota link: quota, completes, pending, screen-outs, quota-fulls, drop-outs, in progress. */
export function QuotaTable({ stats }: { stats: QuotaStatistics }) {
  const { t } = useTranslation('fieldwork');
  // A phone gets one card per row: eight columns do not fit its width.
  const phone = useMediaQuery('(max-width: 40em)');
  let linkNumber = 0;
  return (
    <Stack gap="md">
      {stats.scenarios.length === 0 ? (
        <Text c="dimmed">{t('quotaPage.noScenarios')}</Text>
      ) : phone ? (
        <Stack gap="sm" data-testid="quota-table">
          {stats.scenarios.map((scenario) => {
            const title = t('table.scenario', { number: scenario.order_number });
            return (
              <Stack key={scenario.id} gap="xs">
                <CountsCard
                  label={scenario.description ? `${title} · ${scenario.description}` : title}
                  counts={scenario.counts}
                  strong
                  testId={`quota-scenario-${scenario.id}`}
                />
                {scenario.links.map((link) => (
                  <CountsCard
                    key={link.id}
                    label={t('table.link', { number: ++linkNumber })}
                    counts={link.counts}
                    testId={`quota-link-${link.id}`}
                  />
                ))}
              </Stack>
            );
          })}
          <CountsCard label={t('table.total')} counts={stats.total} strong testId="quota-total" />
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table striped highlightOnHover verticalSpacing="xs" data-testid="quota-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('table.group')}</Table.Th>
                <Table.Th>{t('counts.quota')}</Table.Th>
                {FIELDWORK_COUNT_KEYS.map((key) => (
                  <Table.Th key={key}>{t(`counts.${key}`)}</Table.Th>
                ))}
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {stats.scenarios.map((scenario) => (
                <ScenarioRows key={scenario.id} scenario={scenario} firstLink={() => ++linkNumber} />
              ))}
              <Row label={t('table.total')} counts={stats.total} strong testId="quota-total" />
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <DroppedAt droppedAt={stats.dropped_at} />
    </Stack>
  );
}

function CountsCard({ label, counts, strong, testId }: CountsProps) {
  const { t } = useTranslation('fieldwork');
  // A link's card sits under its scenario's.
  return (
    <Paper withBorder radius="md" p="sm" ml={strong ? 0 : 'md'} bg={strong ? 'gray.0' : undefined} data-testid={testId}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Text fw={strong ? 700 : 500} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {label}
          </Text>
          <Text size="sm" c="dimmed" data-col="quota" style={{ whiteSpace: 'nowrap' }}>
            {t('counts.quota')}: {counts.quota ?? '—'}
          </Text>
        </Group>
        <QuotaProgress counts={counts} />
        <SimpleGrid cols={2} spacing={4} verticalSpacing={2}>
          {FIELDWORK_COUNT_KEYS.map((key) => (
            <Group key={key} gap={6} justify="space-between" wrap="nowrap">
              <Text size="xs" c="dimmed">
                {t(`counts.${key}`)}
              </Text>
              <Text size="sm" fw={600} data-col={key} mr="sm">
                {counts[key]}
              </Text>
            </Group>
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

function ScenarioRows({
  scenario,
  firstLink,
}: {
  scenario: QuotaStatistics['scenarios'][number];
  firstLink: () => number;
}) {
  const { t } = useTranslation('fieldwork');
  const title = t('table.scenario', { number: scenario.order_number });
  return (
    <>
      <Row
        label={scenario.description ? `${title} · ${scenario.description}` : title}
        counts={scenario.counts}
        strong
        testId={`quota-scenario-${scenario.id}`}
      />
      {scenario.links.map((link) => (
        <Row
          key={link.id}
          label={`   ${t('table.link', { number: firstLink() })}`}
          counts={link.counts}
          testId={`quota-link-${link.id}`}
        />
      ))}
    </>
  );
}

function DroppedAt({ droppedAt }: { droppedAt: Record<string, number> }) {
  const { t } = useTranslation('fieldwork');
  const entries = Object.entries(droppedAt).filter(([, n]) => n > 0);
  return (
    <Stack gap={6} data-testid="dropped-at">
      <Text size="sm" fw={600}>
        {t('droppedAt.title')}
      </Text>
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('droppedAt.none')}
        </Text>
      ) : (
        <Group gap="xs">
          {entries.map(([step, n]) => (
            <Badge key={step} variant="light" color="red" tt="none">
              {t(`steps.${step}`, { defaultValue: step })}: {n}
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}
