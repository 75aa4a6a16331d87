// A finished report's results (report-page.tsx): the item picker, the item's curves and heatmap, tasks, respondents.
import type { ReportItem, ReportOutput, ReportSnapshot } from '@emolens/contracts';
import { Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SurveyStatisticsPanel } from '../surveys/survey-statistics-panel.tsx';
import { BenchmarkCard } from './benchmark-card.tsx';
import { AreasPanel } from './report-areas.tsx';
import { GuidancePanel } from './report-guidance.tsx';
import { DEFAULT_VIEW, ItemResults, type ViewChoices } from './report-item-results.tsx';
import { RespondentsPanel } from './report-respondents.tsx';
import { TaskCard } from './task-statistics-panel.tsx';

/** A finished report's results. */
export function ReportResults({ report, snapshot }: { report: ReportOutput; snapshot: ReportSnapshot }) {
  const { t } = useTranslation('reportView');
  const [position, setPosition] = useState(0);
  // What the user chose to see stays while they move between items.
  const [view, setView] = useState<ViewChoices>(DEFAULT_VIEW);
  const item = snapshot.items[position] ?? snapshot.items[0];
  const labelOf = (i: number, it: ReportItem) =>
    t(`items.${snapshot.timeline}`, { n: i + 1, label: it.label, defaultValue: it.label });

  return (
    <Stack gap="lg" data-testid="report-results">
      {snapshot.benchmark && <BenchmarkCard benchmark={snapshot.benchmark} />}
      {snapshot.items.length > 1 && (
        <Select
          label={t('items.label')}
          value={String(position)}
          onChange={(value) => value !== null && setPosition(Number(value))}
          data={snapshot.items.map((it, i) => ({ value: String(i), label: labelOf(i, it) }))}
          allowDeselect={false}
          maw={560}
          comboboxProps={{ withinPortal: true }}
          data-testid="report-item"
        />
      )}
      {item ? (
        <ItemResults
          key={item.index}
          reportId={report.id}
          item={item}
          snapshot={snapshot}
          view={view}
          onView={setView}
        />
      ) : (
        <Text size="sm" c="dimmed" data-testid="report-no-items">
          {t('noItems')}
        </Text>
      )}
      {item && <AreasPanel report={report} item={item} timeline={snapshot.timeline} />}
      {snapshot.tasks.length > 0 && (
        <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="report-tasks">
          <Stack gap="md">
            <Title order={3} size="h4">
              {t('tasks.reportTitle')}
            </Title>
            {snapshot.tasks.map((task) => (
              <TaskCard key={task.task} task={task} />
            ))}
          </Stack>
        </Paper>
      )}
      <RespondentsPanel people={snapshot.people} researches={snapshot.researches} />
      <GuidancePanel reportId={report.id} people={snapshot.people} />
      <SurveyStatisticsPanel researchId={report.campaign_id} reportId={report.id} />
    </Stack>
  );
}
