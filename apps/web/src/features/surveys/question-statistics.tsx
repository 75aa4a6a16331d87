import {
  type Language,
  OPEN_ANSWERS_SHOWN,
  type Question,
  type QuestionStatistics,
  reportFormat,
  textIn,
} from '@emolens/contracts';
import { Badge, Box, Group, Paper, ScrollArea, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Numbers and shares in the interface language. */
export function useStatisticsFormat() {
  const { i18n } = useTranslation('surveys');
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useMemo(() => {
    // The report's presentation writes a questionnaire's numbers by the same rule.
    const format = reportFormat(language);
    return { number: (v: number | null) => format.number(v), percent: (v: number) => format.answerShare(v) };
  }, [language]);
}

/** One question's statistics as a card: its text, who answered, and a chart or table by type. */
export function QuestionStatisticsCard({
  question,
  stats,
  index,
  language,
}: {
  question: Question;
  stats: QuestionStatistics;
  index: number;
  language: Language;
}) {
  const { t } = useTranslation('surveys');
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      data-testid="question-statistics"
      data-question={question.id}
    >
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {index + 1}. {textIn(question.text, language) || t('logic.untitled')}
          </Text>
          <Badge variant="light" color="gray" tt="none" style={{ flexShrink: 0 }}>
            {t(`questionTypes.${question.type}`)}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed" data-testid="question-answered">
          {t('statistics.answered', { answered: stats.answered, shown: stats.shown })}
        </Text>
        {stats.answered === 0 ? (
          <Text size="sm" c="dimmed">
            {t('statistics.noAnswers')}
          </Text>
        ) : (
          <QuestionBody question={question} stats={stats} language={language} />
        )}
      </Stack>
    </Paper>
  );
}

/** A question, its answers' statistics and the language its texts are shown in. */
interface QuestionProps {
  question: Question;
  stats: QuestionStatistics;
  language: Language;
}

function QuestionBody({ question, stats, language }: QuestionProps) {
  const { t } = useTranslation('surveys');
  const optionText = (id: string, n: number) =>
    textIn(question.options.find((o) => o.id === id)?.text, language) || t('logic.optionNumber', { number: n + 1 });
  switch (question.type) {
    case 'single':
    case 'multiple':
      return (
        <Stack gap={6}>
          {stats.options.map((o, i) => (
            <Bar key={o.id} label={optionText(o.id, i)} count={o.count} share={o.share} />
          ))}
          {stats.other && (
            <>
              <Bar label={t('form.other')} count={stats.other.count} share={stats.other.share} muted />
              {stats.other.texts.length > 0 && (
                <OpenTexts texts={stats.other.texts.map((text) => ({ text }))} total={stats.other.count} />
              )}
            </>
          )}
          {question.type === 'multiple' && (
            <Text size="xs" c="dimmed">
              {t('statistics.several')}
            </Text>
          )}
        </Stack>
      );
    case 'scale':
    case 'number':
      return <NumberStatistics question={question} stats={stats} language={language} />;
    case 'text':
      return <OpenTexts texts={stats.texts} total={stats.answered} />;
    case 'matrix':
      return <MatrixTable question={question} stats={stats} language={language} optionText={optionText} />;
    default:
      return null;
  }
}

/** A horizontal bar: the label, the share as a bar, the count and the percentage. */
function Bar({ label, count, share, muted }: { label: string; count: number; share: number; muted?: boolean }) {
  const f = useStatisticsFormat();
  return (
    <Box
      data-testid="bar"
      style={{
        display: 'grid',
        gridTemplateColumns: 'minmax(90px, 2fr) minmax(80px, 3fr) auto',
        gap: 10,
        alignItems: 'center',
      }}
    >
      <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="bar-label">
        {label}
      </Text>
      <Box
        h={14}
        bg="var(--mantine-color-default-border)"
        style={{ borderRadius: 7, overflow: 'hidden' }}
        role="img"
        aria-label={f.percent(share)}
      >
        <Box
          h="100%"
          w={`${Math.max(0, Math.min(1, share)) * 100}%`}
          bg={muted ? 'gray.5' : 'indigo.5'}
          style={{ borderRadius: 7, transition: 'width 300ms ease' }}
        />
      </Box>
      <Text size="sm" ta="right" ff="monospace" style={{ whiteSpace: 'nowrap' }} data-testid="bar-value">
        {count} · {f.percent(share)}
      </Text>
    </Box>
  );
}

function NumberStatistics({ question, stats, language }: QuestionProps) {
  const { t } = useTranslation('surveys');
  const f = useStatisticsFormat();
  const n = stats.numbers;
  if (!n) return null;
  const peak = Math.max(1, ...n.distribution.map((d) => d.count));
  const scaleEnds =
    question.type === 'scale' ? [textIn(question.min_label, language), textIn(question.max_label, language)] : null;
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="xs" data-testid="number-summary">
        <Figure label={t('statistics.mean')} value={f.number(n.mean)} testId="stat-mean" />
        <Figure label={t('statistics.median')} value={f.number(n.median)} testId="stat-median" />
        <Figure label={t('statistics.sd')} value={f.number(n.sd)} testId="stat-sd" />
        <Figure label={t('statistics.range')} value={`${f.number(n.min)} – ${f.number(n.max)}`} testId="stat-range" />
      </SimpleGrid>
      <Box
        role="img"
        aria-label={t('statistics.distribution')}
        style={{ display: 'flex', alignItems: 'flex-end', gap: 4, height: 120, paddingTop: 16 }}
        data-testid="distribution"
      >
        {n.distribution.map((d) => (
          <Stack
            key={d.label}
            gap={2}
            align="center"
            justify="flex-end"
            style={{ flex: 1, minWidth: 0, height: '100%' }}
          >
            <Text size="10px" c="dimmed" ff="monospace">
              {d.count}
            </Text>
            <Box
              w="100%"
              maw={48}
              bg="teal.5"
              style={{ height: `${(d.count / peak) * 100}%`, minHeight: d.count ? 2 : 0, borderRadius: '4px 4px 0 0' }}
              title={`${d.label}: ${d.count} · ${f.percent(d.share)}`}
            />
          </Stack>
        ))}
      </Box>
      <Box style={{ display: 'flex', gap: 4, marginTop: -8 }}>
        {n.distribution.map((d) => (
          <Text key={d.label} size="xs" ta="center" style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
            {d.label}
          </Text>
        ))}
      </Box>
      {scaleEnds && (scaleEnds[0] || scaleEnds[1]) && (
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {scaleEnds[0]}
          </Text>
          <Text size="xs" c="dimmed">
            {scaleEnds[1]}
          </Text>
        </Group>
      )}
    </Stack>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Paper radius="sm" p="xs" bg="var(--mantine-color-default-hover)">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} ff="monospace" data-testid={testId}>
        {value}
      </Text>
    </Paper>
  );
}

/** Open answers with a search over them (those sent: the latest OPEN_ANSWERS_SHOWN; the export has all). */
function OpenTexts({ texts, total }: { texts: { text: string }[]; total: number }) {
  const { t } = useTranslation('surveys');
  const [search, setSearch] = useState('');
  const needle = search.trim().toLocaleLowerCase();
  const found = needle ? texts.filter((x) => x.text.toLocaleLowerCase().includes(needle)) : texts;
  return (
    <Stack gap={6}>
      <TextInput
        size="xs"
        leftSection={<IconSearch size={14} />}
        placeholder={t('statistics.search')}
        aria-label={t('statistics.search')}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={320}
        data-testid="open-search"
      />
      <ScrollArea.Autosize mah={260} type="auto">
        <Stack gap={4} data-testid="open-answers">
          {found.map((x, i) => (
            <Text
              // Answers repeat; their place in the list is who they are.
              // biome-ignore lint/suspicious/noArrayIndexKey: see above
              key={i}
              size="sm"
              px="xs"
              py={4}
              bg="var(--mantine-color-default-hover)"
              style={{ borderRadius: 4, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
              data-testid="open-answer"
            >
              {x.text}
            </Text>
          ))}
          {found.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('statistics.nothingFound')}
            </Text>
          )}
        </Stack>
      </ScrollArea.Autosize>
      <Text size="xs" c="dimmed">
        {needle
          ? t('statistics.found', { count: found.length })
          : total > texts.length
            ? t('statistics.latest', { shown: texts.length, total, max: OPEN_ANSWERS_SHOWN })
            : t('statistics.openCount', { count: total })}
      </Text>
    </Stack>
  );
}

function MatrixTable({
  question,
  stats,
  language,
  optionText,
}: {
  question: Question;
  stats: QuestionStatistics;
  language: Language;
  optionText: (id: string, n: number) => string;
}) {
  const { t } = useTranslation('surveys');
  const f = useStatisticsFormat();
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table withTableBorder withColumnBorders fz="sm" data-testid="matrix-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th />
            {question.options.map((o, i) => (
              <Table.Th key={o.id} ta="center">
                {optionText(o.id, i)}
              </Table.Th>
            ))}
            <Table.Th ta="right">{t('statistics.rowAnswered')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {stats.rows.map((row, ri) => {
            const meta = question.rows.find((r) => r.id === row.id);
            return (
              <Table.Tr key={row.id}>
                <Table.Th fw={500}>{textIn(meta?.text, language) || t('logic.rowNumber', { number: ri + 1 })}</Table.Th>
                {row.counts.map((c, ci) => (
                  <Table.Td
                    key={question.options[ci]?.id ?? ci}
                    ta="center"
                    ff="monospace"
                    style={{ background: `rgba(76, 110, 245, ${(c.share * 0.45).toFixed(3)})` }}
                    data-testid="matrix-cell"
                  >
                    {c.count} · {f.percent(c.share)}
                  </Table.Td>
                ))}
                <Table.Td ta="right" ff="monospace">
                  {row.answered}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
