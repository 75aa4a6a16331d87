import { GUIDANCE_PROBLEMS, type ReportGuidance, type ReportSnapshot } from '@emolens/contracts';
import { Stack, Table, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SectionCard, SectionTitle } from '../../components/list-card.tsx';
import { useReportGuidance } from './api.ts';
import { shortId } from './report-view.ts';

type Row = ReportGuidance['sessions'][number];

/**
 * The respondents' face problems during calibration and content (live guidance, decision 045): per session, the
 * seconds its notice named each problem and their share of the time guided. Shown when any session was guided.
 */
export function GuidancePanel({ reportId, people }: { reportId: string; people: ReportSnapshot['people'] }) {
  const { t, i18n } = useTranslation('reportView');
  const { data } = useReportGuidance(reportId);
  const language = i18n.resolvedLanguage;
  const bySession = new Map((data?.sessions ?? []).map((s) => [s.session_id, s]));
  // In the respondents' order (the report's), those guided only.
  const rows = [...new Set(people.map((p) => p.session_id))]
    .map((id) => bySession.get(id))
    .filter((r): r is Row => r !== undefined);
  if (rows.length === 0) return null;
  const seconds = (value: number) =>
    t('people.guidance.seconds', {
      seconds: new Intl.NumberFormat(language, { maximumFractionDigits: value < 10 ? 1 : 0 }).format(value),
    });
  const percent = (share: number) =>
    new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(share);

  return (
    <SectionCard testId="report-guidance">
      <Stack gap="md">
        <SectionTitle title={t('people.guidance.title')} hint={t('people.guidance.hint')} />
        <Table.ScrollContainer minWidth={760}>
          <Table striped verticalSpacing="xs" fz="sm" data-testid="report-guidance-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('people.session')}</Table.Th>
                <Table.Th>{t('people.guidance.guided')}</Table.Th>
                {GUIDANCE_PROBLEMS.map((p) => (
                  <Table.Th key={p}>{t(`people.guidance.problems.${p}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.session_id} data-testid="report-guidance-row" data-session={r.session_id}>
                  <Table.Td>
                    <Tooltip label={r.session_id} withArrow>
                      <Text size="sm" ff="monospace">
                        {shortId(r.session_id)}
                      </Text>
                    </Tooltip>
                  </Table.Td>
                  <Table.Td>{seconds(r.guided_seconds)}</Table.Td>
                  {GUIDANCE_PROBLEMS.map((p) => {
                    const value = r.problems[p] ?? 0;
                    return (
                      <Table.Td key={p} data-problem={p} data-seconds={value}>
                        {value === 0 ? (
                          <Text span size="sm" c="dimmed">
                            —
                          </Text>
                        ) : (
                          <Text span size="sm" style={{ whiteSpace: 'nowrap' }} c="orange.8">
                            {seconds(value)}
                            {r.guided_seconds > 0 && (
                              <Text span size="xs" c="dimmed">
                                {' '}
                                ({percent(value / r.guided_seconds)})
                              </Text>
                            )}
                          </Text>
                        )}
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Stack>
    </SectionCard>
  );
}
