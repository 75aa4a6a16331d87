import { EMPTY_RESPONSE_FILTER, type ResponseFilter, type SurveySlot } from '@emolens/contracts';
import { Button, Group, Loader, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconFileSpreadsheet, IconFileTypeCsv } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { InlineLoadError } from '../../components/load-states.tsx';
import { currentLanguage } from '../../i18n/index.ts';
import { notifyError } from '../errors/notify.ts';
import { QuestionStatisticsCard } from './question-statistics.tsx';
import { applicableFilter, type FilterQuestionnaire, ResponseFilterEditor } from './response-filter-editor.tsx';
import { useSurveyExport, useSurveyStatistics } from './statistics-api.ts';

/**
 * Questionnaire statistics on the research's statistic page (issue 12 item 5): its screener or survey per
 * question over the respondents the filter takes, with the XLSX and CSV export of the same respondents.
 */
export function SurveyStatisticsPanel({
  researchId,
  reportId = null,
}: {
  researchId: string;
  reportId?: string | null;
}) {
  const { t } = useTranslation('surveys');
  const [slot, setSlot] = useState<SurveySlot>('survey');
  const [filter, setFilter] = useState<ResponseFilter>(EMPTY_RESPONSE_FILTER);
  const language = currentLanguage();
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  // What the server last described: the questionnaires answers may be filtered by.
  const [known, setKnown] = useState<FilterQuestionnaire[]>([]);
  const applicable = useMemo(() => applicableFilter(filter, known), [filter, known]);
  const [applied] = useDebouncedValue(applicable, 350);
  const stats = useSurveyStatistics(researchId, slot, applied, reportId);
  const download = useSurveyExport(researchId);
  const data = stats.data;

  const questionnaires = [data?.survey, data?.other].filter((s): s is FilterQuestionnaire => !!s);
  if (data && questionnaires.map((s) => s.id).join() !== known.map((s) => s.id).join()) setKnown(questionnaires);
  // The slot asked for is empty but the other is not: show the one there is.
  if (data && !data.slots[slot] && data.slots[slot === 'survey' ? 'screener' : 'survey']) {
    setSlot(slot === 'survey' ? 'screener' : 'survey');
  }

  const exportAs = (format: 'xlsx' | 'csv') =>
    download.mutate(
      { slot, filter: applied, format, language, report_id: reportId },
      { onError: (error) => notifyError(error) },
    );

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="survey-statistics">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={2}>
            <Title order={3} size="h4">
              {t(reportId ? 'statistics.reportTitle' : 'statistics.title')}
            </Title>
            {data?.survey && (
              <Group gap={8}>
                <Text size="sm" c="dimmed" data-testid="statistics-summary">
                  {t('statistics.respondents', { count: data.respondents, finished: data.finished })}
                </Text>
                {stats.isFetching && <Loader size={12} type="dots" />}
              </Group>
            )}
          </Stack>
          {data?.survey && (
            <Group gap="xs">
              <Button
                size="xs"
                variant="default"
                leftSection={<IconFileSpreadsheet size={14} />}
                loading={download.isPending && download.variables?.format === 'xlsx'}
                onClick={() => exportAs('xlsx')}
                data-testid="export-xlsx"
              >
                XLSX
              </Button>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconFileTypeCsv size={14} />}
                loading={download.isPending && download.variables?.format === 'csv'}
                onClick={() => exportAs('csv')}
                data-testid="export-csv"
              >
                CSV
              </Button>
            </Group>
          )}
        </Group>

        {stats.isError && !data && (
          <InlineLoadError
            text={t('statistics.loadError')}
            retryLabel={t('statistics.retry')}
            onRetry={() => stats.refetch()}
          />
        )}
        {!data && stats.isPending && <Loader size="sm" />}
        {data && !data.slots.screener && !data.slots.survey && (
          <Text size="sm" c="dimmed" data-testid="statistics-none">
            {t('statistics.none')}
          </Text>
        )}

        {data && (data.slots.screener || data.slots.survey) && (
          <>
            {data.slots.screener && data.slots.survey && (
              <SegmentedControl
                value={slot}
                onChange={(value) => setSlot(value as SurveySlot)}
                data={(['screener', 'survey'] as const).map((s) => ({
                  value: s,
                  label: `${t(`types.${s}`)}: ${data.slots[s]?.title ?? ''}`,
                }))}
                fullWidth
                orientation={phone ? 'vertical' : 'horizontal'}
                maw={640}
                data-testid="statistics-slot"
              />
            )}
            <Paper radius="md" p="sm" bg="var(--mantine-color-default-hover)">
              <ResponseFilterEditor value={filter} onChange={setFilter} questionnaires={known} language={language} />
            </Paper>
            {data.survey && data.respondents === 0 && (
              <Text size="sm" c="dimmed" data-testid="statistics-empty">
                {t('statistics.empty')}
              </Text>
            )}
            {data.survey && data.respondents > 0 && (
              <Stack gap="sm" data-testid="statistics-questions" style={{ opacity: stats.isPlaceholderData ? 0.6 : 1 }}>
                {data.questions.map((q) => {
                  const index = data.survey?.questions.findIndex((x) => x.id === q.id) ?? -1;
                  const question = data.survey?.questions[index];
                  return question ? (
                    <QuestionStatisticsCard
                      key={q.id}
                      question={question}
                      stats={q}
                      index={index}
                      language={language}
                    />
                  ) : null;
                })}
              </Stack>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}
