import type { ReportRespondent, ReportSnapshot } from '@emolens/contracts';
import { Badge, Box, Group, Pagination, Paper, Stack, Switch, Table, Text, Tooltip } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FactsGrid } from '../../components/facts-grid.tsx';
import { GazeDegrees } from '../../components/gaze-degrees.tsx';
import { GazeDriftFigure } from '../../components/gaze-drift.tsx';
import { GazePrecisionFigure } from '../../components/gaze-precision.tsx';
import { SectionCard, SectionTitle } from '../../components/list-card.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { exclusionSource, shortId, sortPeople } from './report-view.ts';

export const GRADE_COLORS = { A: 'green', B: 'blue', C: 'orange' } as const;
/** The calibration check before the content (decision 050), a line under the session's status. */
const CHECK_COLORS = { passed: 'dimmed', flagged: 'orange', failed: 'red', not_checked: 'dimmed' } as const;

/**
 * The report's respondents (spec section 8): who the curves count and who they leave out and why, the included
 * first; the excluded shown on demand. A table on wide screens, a card per respondent on a phone.
 */
/** Respondents a page shows: a thousand rows at once would bury the page. */
const PAGE_SIZE = 25;

export function RespondentsPanel({
  people,
  researches,
}: {
  people: ReportRespondent[];
  /** The researches the report pools: each respondent's is named when there are several. */
  researches: ReportSnapshot['researches'];
}) {
  const { t, i18n } = useTranslation('reportView');
  const titles = new Map(researches.length > 1 ? researches.map((r) => [r.id, r.title]) : []);
  const [showExcluded, setShowExcluded] = useState(false);
  const sorted = useMemo(() => sortPeople(people), [people]);
  const included = sorted.filter((p) => p.included).length;
  const listed = showExcluded ? sorted : sorted.filter((p) => p.included);
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(listed.length / PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = listed.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const number = new Intl.NumberFormat(i18n.resolvedLanguage);

  return (
    <SectionCard testId="report-respondents">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={2}>
            <SectionTitle title={t('people.title')} />
            <Text size="sm" c="dimmed" data-testid="report-people-counts">
              {t('people.counts', { included: number.format(included), total: number.format(people.length) })}
            </Text>
          </Stack>
          {included < people.length && (
            <Switch
              checked={showExcluded}
              onChange={(event) => setShowExcluded(event.currentTarget.checked)}
              label={t('people.showExcluded', { count: number.format(people.length - included) })}
              data-testid="report-show-excluded"
            />
          )}
        </Group>
        {people.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('people.none')}
          </Text>
        )}
        {people.length > 0 && shown.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="report-people-all-excluded">
            {t('people.allExcluded')}
          </Text>
        )}
        {shown.length > 0 && (
          <>
            <Box visibleFrom="md">
              {/* Within the page's width on a 1440 px screen in every language (issue 28, item 7): scrolls only narrower. */}
              <Table.ScrollContainer minWidth={900} data-testid="report-people-scroll">
                <Table striped verticalSpacing="xs" fz="sm" data-testid="report-people-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('people.session')}</Table.Th>
                      <Table.Th>{t('people.panelId')}</Table.Th>
                      <Table.Th>{t('people.status')}</Table.Th>
                      <Table.Th>{t('people.sex')}</Table.Th>
                      <Table.Th>{t('people.age')}</Table.Th>
                      <Table.Th>{t('people.badFrames')}</Table.Th>
                      <Table.Th>{t('people.accuracy')}</Table.Th>
                      <Table.Th>{t('people.grade')}</Table.Th>
                      <Table.Th>{t('people.included')}</Table.Th>
                      <Table.Th>{t('people.restingHappy')}</Table.Th>
                      <Table.Th>{t('people.engagement')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {shown.map((p) => (
                      <PersonRow key={p.session_id} person={p} research={titles.get(p.campaign_id)} />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Box>
            <Stack gap="sm" hiddenFrom="md" data-testid="report-people-cards">
              {shown.map((p) => (
                <PersonCard key={p.session_id} person={p} research={titles.get(p.campaign_id)} />
              ))}
            </Stack>
            {pages > 1 && (
              <Pagination
                value={current}
                onChange={setPage}
                total={pages}
                size="sm"
                siblings={1}
                boundaries={1}
                data-testid="report-people-pages"
              />
            )}
          </>
        )}
      </Stack>
    </SectionCard>
  );
}

function PersonRow({ person: p, research }: { person: ReportRespondent; research: string | undefined }) {
  const cells = useCells(p, research);
  return (
    <Table.Tr data-testid="report-person" data-included={p.included} style={{ opacity: p.included ? 1 : 0.75 }}>
      <Table.Td>{cells.session}</Table.Td>
      <Table.Td maw={160}>{cells.panelId}</Table.Td>
      <Table.Td>{cells.status}</Table.Td>
      <Table.Td>{cells.sex}</Table.Td>
      <Table.Td>{cells.age}</Table.Td>
      <Table.Td>{cells.badFrames}</Table.Td>
      <Table.Td miw={110}>{cells.accuracy}</Table.Td>
      <Table.Td>{cells.grade}</Table.Td>
      <Table.Td miw={110} maw={240}>
        {cells.included}
      </Table.Td>
      <Table.Td>{cells.restingHappy}</Table.Td>
      <Table.Td>{cells.engagement}</Table.Td>
    </Table.Tr>
  );
}

function PersonCard({ person: p, research }: { person: ReportRespondent; research: string | undefined }) {
  const { t } = useTranslation('reportView');
  const cells = useCells(p, research);
  const facts: [string, ReactNode][] = [
    [t('people.panelId'), cells.panelId],
    [t('people.status'), cells.status],
    [t('people.sex'), cells.sex],
    [t('people.age'), cells.age],
    [t('people.badFrames'), cells.badFrames],
    [t('people.accuracy'), cells.accuracy],
    [t('people.restingHappy'), cells.restingHappy],
    [t('people.engagement'), cells.engagement],
  ];
  return (
    <Paper withBorder radius="md" p="sm" data-testid="report-person-card" data-included={p.included}>
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          {cells.session}
          {cells.grade}
        </Group>
        {cells.included}
        <FactsGrid facts={facts} />
      </Stack>
    </Paper>
  );
}

/** One respondent's cells, shared by the table row and the phone card. */
function useCells(p: ReportRespondent, research: string | undefined) {
  const { t, i18n } = useTranslation('reportView');
  const language = i18n.resolvedLanguage;
  const percent = (share: number) =>
    new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(share);
  const number = (value: number, digits = 0) =>
    new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value);
  const score = (value: number) =>
    new Intl.NumberFormat(language, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
  const dash = (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  );
  const reason = p.excluded_reason ? exclusionSource(p.excluded_reason) : null;
  const reasonText =
    reason?.source === 'page'
      ? t(reason.key)
      : reason?.source === 'messages'
        ? translateMessage({ key: reason.key })
        : (reason?.text ?? t('people.excluded'));

  return {
    session: (
      <Stack gap={0}>
        <Tooltip label={p.session_id} withArrow>
          <Text size="sm" fw={500} ff="monospace" data-testid="report-person-session">
            {shortId(p.session_id)}
          </Text>
        </Tooltip>
        {research && (
          <Text size="xs" c="dimmed" data-testid="report-person-research">
            {research}
          </Text>
        )}
      </Stack>
    ),
    panelId: p.participant_id ? (
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {p.participant_id}
      </Text>
    ) : (
      dash
    ),
    status: (
      <Stack gap={2} align="flex-start">
        <Text size="sm">{t(`people.statuses.${p.status}`, { defaultValue: p.status })}</Text>
        {p.calibration_check && (
          <Tooltip label={t(`people.checks.${p.calibration_check}Hint`)} withArrow multiline maw={260}>
            <Text size="xs" c={CHECK_COLORS[p.calibration_check]} data-testid="report-person-check">
              {t(`people.checks.${p.calibration_check}`)}
            </Text>
          </Tooltip>
        )}
      </Stack>
    ),
    sex: p.sex ? <Text size="sm">{t(`people.sexes.${p.sex}`, { defaultValue: p.sex })}</Text> : dash,
    age: p.age === null ? dash : <Text size="sm">{number(p.age)}</Text>,
    badFrames: (
      <Text size="sm" c={p.excluded_reason === 'bad_frames' ? 'orange' : undefined}>
        {percent(p.bad_frame_share)}
      </Text>
    ),
    accuracy:
      p.accuracy_px === null ? (
        dash
      ) : (
        <Stack gap={0}>
          <Text size="sm" style={{ whiteSpace: 'nowrap' }} c={p.excluded_reason === 'accuracy' ? 'orange' : undefined}>
            {t('people.accuracyPx', { px: number(p.accuracy_px) })}
          </Text>
          {p.accuracy_percent !== null && (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {t('people.accuracyShare', { percent: percent(p.accuracy_percent / 100) })}
            </Text>
          )}
          <GazeDegrees degrees={p.accuracy_degrees} distanceCm={p.distance_cm} testId="report-person-degrees" />
          <GazePrecisionFigure
            pixels={p.precision_px}
            percent={p.precision_percent}
            degrees={p.precision_degrees}
            distanceCm={p.distance_cm}
            testId="report-person-precision"
          />
          <GazeDriftFigure drift={p.drift} distanceCm={p.distance_cm} testId="report-person-drift" />
        </Stack>
      ),
    grade: (
      <Tooltip label={t(`people.grades.${p.grade}`)} withArrow multiline maw={260}>
        <Badge color={GRADE_COLORS[p.grade]} variant="light" data-testid="report-person-grade">
          {p.grade}
        </Badge>
      </Tooltip>
    ),
    included: p.included ? (
      <Group gap={4} wrap="nowrap" c="green" data-testid="report-person-included">
        <IconCheck size={16} aria-hidden />
        <Text size="sm">{t('people.yes')}</Text>
      </Group>
    ) : (
      <Text size="sm" c="orange" style={{ overflowWrap: 'anywhere' }} data-testid="report-person-excluded">
        {reasonText}
      </Text>
    ),
    restingHappy: p.resting_happy === null ? dash : <Text size="sm">{score(p.resting_happy)}</Text>,
    engagement: p.mean_engagement === null ? dash : <Text size="sm">{score(p.mean_engagement)}</Text>,
  };
}
