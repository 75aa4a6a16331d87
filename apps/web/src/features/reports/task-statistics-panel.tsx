import { TASK_MARKS, type TaskMark, type TaskRun, type TaskStatistics } from '@emolens/contracts';
import {
  Alert,
  Badge,
  Box,
  Group,
  Paper,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table.tsx';
import { SectionCard, SectionTitle } from '../../components/list-card.tsx';
import { FirstLoadState } from '../../components/load-states.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { notifyError } from '../errors/notify.ts';
import { mediaFileUrl } from '../media/api.ts';
import { useSetTaskMarks, useTaskStatistics } from './api.ts';
import { MediaFrame } from './heatmap-view.tsx';

function useFormat() {
  const { i18n } = useTranslation('reportView');
  const language = i18n.resolvedLanguage ?? 'en';
  return {
    percent: new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }),
    number: new Intl.NumberFormat(language, { maximumFractionDigits: 2 }),
  };
}

/** One task's figures and its click map (green: a click on one of the task's points, red: a misclick). */
export function TaskCard({ task }: { task: TaskStatistics }) {
  const { t } = useTranslation('reportView');
  const { percent, number } = useFormat();
  const share = (n: number) => (task.shown ? (n / task.shown) * 100 : 0);
  const seconds = (v: number | null) => (v === null ? '—' : t('areas.seconds', { value: number.format(v) }));
  const facts: [string, string][] = [
    [t('tasks.successShare'), task.success_share === null ? '—' : percent.format(task.success_share)],
    [t('tasks.timeMean'), seconds(task.time_to_success.mean)],
    [t('tasks.timeMedian'), seconds(task.time_to_success.median)],
    [t('tasks.clicks'), task.clicks_to_success === null ? '—' : number.format(task.clicks_to_success)],
    [t('tasks.misclicks'), task.misclicks === null ? '—' : number.format(task.misclicks)],
  ];
  return (
    <Paper withBorder radius="md" p="md" data-testid="task-card">
      <Stack gap="sm">
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {t('tasks.task', { n: task.task + 1 })} · {task.description}
        </Text>
        <Stack gap={4}>
          <Progress.Root size="lg" aria-label={t('tasks.resultsLabel')}>
            <Progress.Section value={share(task.success)} color="green" />
            <Progress.Section value={share(task.fail)} color="red" />
            <Progress.Section value={share(task.none)} color="gray" />
          </Progress.Root>
          <Group gap="md" data-testid="task-results">
            <Text size="xs" c="green.8">
              {t('tasks.success', { count: task.success })}
            </Text>
            <Text size="xs" c="red.8">
              {t('tasks.fail', { count: task.fail })}
            </Text>
            <Text size="xs" c="dimmed">
              {t('tasks.none', { count: task.none })}
            </Text>
          </Group>
        </Stack>
        <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs">
          {facts.map(([label, value]) => (
            <Box key={label}>
              <Text size="xs" c="dimmed">
                {label}
              </Text>
              <Text size="sm" fw={600}>
                {value}
              </Text>
            </Box>
          ))}
        </SimpleGrid>
        {task.paths.length > 0 && (
          <Stack gap={2}>
            <Text size="xs" c="dimmed">
              {t('tasks.paths')}
            </Text>
            {task.paths.map((p) => (
              <Text key={p.path.join('>')} size="sm" ff="monospace">
                {p.path.length ? p.path.map((step) => step + 1).join(' → ') : t('tasks.noSteps')} · {p.count}
              </Text>
            ))}
          </Stack>
        )}
        {task.media_id && task.width && task.height && (
          <Box maw={420}>
            <Text size="xs" c="dimmed" mb={4}>
              {t('tasks.clickMap', { count: task.clicks.length })}
            </Text>
            <MediaFrame width={task.width} height={task.height} maxHeight={420}>
              <img
                src={mediaFileUrl(task.media_id)}
                alt={task.description}
                style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }}
              />
              {task.clicks.map((c, i) => (
                <Box
                  // biome-ignore lint/suspicious/noArrayIndexKey: clicks have no identity; the list never reorders
                  key={i}
                  data-testid="task-click"
                  style={{
                    position: 'absolute',
                    left: `${(c.x / (task.width as number)) * 100}%`,
                    top: `${(c.y / (task.height as number)) * 100}%`,
                    width: 10,
                    height: 10,
                    marginLeft: -5,
                    marginTop: -5,
                    borderRadius: '50%',
                    background: c.hit ? 'rgba(47, 158, 68, 0.75)' : 'rgba(224, 49, 49, 0.75)',
                    border: '1px solid white',
                  }}
                />
              ))}
            </MediaFrame>
          </Box>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Task statistics of a website-prototype research on its statistic page (issue 13 item 4): per task the results
 * as marked, times, clicks, paths and the click map; every respondent's run with its mark, which the analyst sets.
 */
export function TaskStatisticsPanel({ researchId }: { researchId: string }) {
  const { t } = useTranslation('reportView');
  const stats = useTaskStatistics(researchId, true);
  const setMarks = useSetTaskMarks(researchId);
  const data = stats.data;
  const mark = (run: TaskRun, value: TaskMark) =>
    setMarks.mutate([{ session_id: run.session_id, task: run.task, mark: value }], {
      onError: (error) => notifyError(error),
    });
  return (
    <SectionCard testId="task-statistics">
      <Stack gap="md">
        <SectionTitle title={t('tasks.title')} hint={t('tasks.hint')} />
        <FirstLoadState query={stats} text={t('tasks.loadError')} retryLabel={t('tasks.retry')} />
        {data?.used_in_reports && data.unmarked > 0 && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="tasks-unmarked">
            {translateMessage({ key: 'report.unmarkedTasks' })} · {t('tasks.unmarked', { count: data.unmarked })}
          </Alert>
        )}
        {data && data.runs.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="tasks-empty">
            {t('tasks.empty')}
          </Text>
        )}
        {data && data.runs.length > 0 && data.tasks.map((task) => <TaskCard key={task.task} task={task} />)}
        {data && data.runs.length > 0 && (
          <DataTable
            minWidth={640}
            striped
            verticalSpacing={4}
            fz="sm"
            data-testid="task-runs"
            columns={[
              t('people.panelId'),
              t('tasks.column'),
              t('tasks.recorded'),
              t('tasks.time'),
              t('tasks.clicksColumn'),
              t('tasks.mark'),
            ]}
          >
            {data.runs.map((run) => (
              <Table.Tr key={`${run.session_id}:${run.task}`} data-testid="task-run">
                <Table.Td>
                  <Tooltip label={run.session_id}>
                    <Text size="sm" ff={run.participant_id ? undefined : 'monospace'}>
                      {run.participant_id ?? run.session_id.slice(0, 8)}
                    </Text>
                  </Tooltip>
                </Table.Td>
                <Table.Td>{run.task + 1}</Table.Td>
                <Table.Td>
                  <Badge
                    variant="light"
                    color={run.result === 'success' ? 'green' : run.result === 'fail' ? 'red' : 'gray'}
                  >
                    {t(`tasks.results.${run.result}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>{run.seconds === null ? '—' : t('areas.seconds', { value: run.seconds })}</Table.Td>
                <Table.Td>{run.clicks}</Table.Td>
                <Table.Td miw={150}>
                  <Select
                    size="xs"
                    value={run.mark}
                    onChange={(value) => value && mark(run, value as TaskMark)}
                    data={TASK_MARKS.map((m) => ({ value: m, label: t(`tasks.marks.${m}`) }))}
                    allowDeselect={false}
                    aria-label={t('tasks.mark')}
                    data-testid="task-mark"
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
        )}
      </Stack>
    </SectionCard>
  );
}
