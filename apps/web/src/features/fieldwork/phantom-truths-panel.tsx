import {
  type PhantomRespondentError,
  type PhantomTruths,
  phantomTruthsOutput,
  RUNNING_PROCESS_STATUSES,
} from '@emolens/contracts';
import { Badge, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '../../api/client.ts';
import { DataTable } from '../../components/data-table.tsx';
import { SectionCard, SectionTitle } from '../../components/list-card.tsx';
import { PROCESS_STATUS_COLORS } from './quota-table.tsx';

/** While a phantom's recording waits or runs, its figures are asked for again this often (ms). */
const LIVE_MS = 5000;

const running = (data: PhantomTruths | undefined) =>
  data?.items.some((i) => !i.measured && (RUNNING_PROCESS_STATUSES as readonly string[]).includes(i.status)) ?? false;

/** GET /cabinet/campaigns/{id}/phantom-truths/: the research's phantom respondents scored against their truth. */
export function usePhantomTruths(researchId: string) {
  return useQuery({
    queryKey: ['fieldwork', 'phantom-truths', researchId] as const,
    queryFn: () =>
      apiRequest('GET', `/cabinet/campaigns/${encodeURIComponent(researchId)}/phantom-truths/`, phantomTruthsOutput),
    refetchInterval: (query) => (running(query.state.data) ? LIVE_MS : false),
    meta: { silent: true },
  });
}

/**
 * The research's phantom respondents (recordings with a known truth for every frame, decision 035): per respondent,
 * the engine's error against the truth, scored as `npm run validate` scores it. Shown only when the research has any.
 */
export function PhantomTruthsPanel({ researchId }: { researchId: string }) {
  const { t } = useTranslation('fieldwork');
  const query = usePhantomTruths(researchId);
  const items = query.data?.items ?? [];
  if (!items.length) return null;
  return (
    <SectionCard testId="phantom-truths">
      <Stack gap="md">
        <SectionTitle title={t('phantoms.title')} hint={t('phantoms.hint')} />
        <DataTable
          minWidth={960}
          striped
          verticalSpacing="xs"
          fz="sm"
          columns={[
            t('phantoms.respondent'),
            t('phantoms.gaze'),
            t('phantoms.expressions'),
            t('phantoms.blinks'),
            t('phantoms.pose'),
          ]}
        >
          {items.map((item) => (
            <PhantomRow key={item.process_id} item={item} />
          ))}
        </DataTable>
      </Stack>
    </SectionCard>
  );
}

function useNumbers() {
  const { i18n } = useTranslation('fieldwork');
  const language = i18n.resolvedLanguage ?? 'en';
  return {
    number: (value: number, digits = 0) =>
      new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(value),
    /** A share 0…1 as a percentage. */
    percent: (share: number, digits = 0) =>
      new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: digits }).format(share),
    /** A signed whole number (an onset early or late). */
    signed: (value: number) =>
      new Intl.NumberFormat(language, { maximumFractionDigits: 0, signDisplay: 'exceptZero' }).format(value),
  };
}

function Dash() {
  return (
    <Text span size="sm" c="dimmed">
      —
    </Text>
  );
}

function PhantomRow({ item }: { item: PhantomRespondentError }) {
  const { t } = useTranslation('fieldwork');
  const n = useNumbers();
  const who = item.participant_id ?? item.session_id.slice(0, 8);
  const respondent = (
    <Stack gap={2} miw={160}>
      <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
        {who}
      </Text>
      <Text size="xs" c="dimmed">
        {t('phantoms.phantom', {
          name: item.phantom.name,
          source: item.phantom.source,
          fps: item.phantom.fps,
          seconds: n.number(item.phantom.duration_ms / 1000, 1),
        })}
      </Text>
    </Stack>
  );
  if (!item.measured) {
    return (
      <Table.Tr data-testid="phantom-row" data-measured="false">
        <Table.Td>{respondent}</Table.Td>
        <Table.Td colSpan={4}>
          <Badge color={PROCESS_STATUS_COLORS[item.status]} variant="light" tt="none">
            {t(`processStatus.${item.status}`)}
          </Badge>{' '}
          <Text span size="sm" c="dimmed">
            {t('phantoms.waiting')}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  }
  const { gaze, blinks } = item;
  return (
    <Table.Tr data-testid="phantom-row" data-measured="true">
      <Table.Td>{respondent}</Table.Td>
      <Table.Td miw={170} data-testid="phantom-gaze">
        {gaze && gaze.median_px !== null ? (
          <Stack gap={0}>
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {t('phantoms.gazeMedian', {
                px: n.number(gaze.median_px),
                percent: n.percent((gaze.median_percent ?? 0) / 100, 1),
              })}
            </Text>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {t('phantoms.gazeMore', {
                degrees: n.number(gaze.median_degrees ?? 0, 1),
                p95: n.number(gaze.p95_px ?? 0),
                lost: n.percent(gaze.lost_share ?? 0),
              })}
            </Text>
            {gaze.precision_px !== null && (
              <Text size="xs" c="dimmed" data-testid="phantom-gaze-precision">
                {t('phantoms.gazePrecision', {
                  px: n.number(gaze.precision_px),
                  percent: gaze.precision_percent != null ? n.percent(gaze.precision_percent / 100, 1) : '—',
                  degrees: gaze.precision_degrees != null ? n.number(gaze.precision_degrees, 2) : '—',
                })}
              </Text>
            )}
          </Stack>
        ) : gaze ? (
          <Text size="sm" c="orange">
            {t('phantoms.gazeLost', { samples: n.number(gaze.samples) })}
          </Text>
        ) : (
          <Dash />
        )}
      </Table.Td>
      <Table.Td miw={240} data-testid="phantom-expressions">
        <Stack gap={2}>
          {item.expressions.map((e) => (
            <Text key={e.kind} size="sm">
              {e.injected
                ? t('phantoms.expressionFound', {
                    kind: t(`phantoms.kind.${e.kind}`),
                    hits: e.hits,
                    injected: e.injected,
                  })
                : t('phantoms.expressionNone', { kind: t(`phantoms.kind.${e.kind}`) })}
              {e.onset_error_ms !== null && (
                <Text span size="xs" c="dimmed">
                  {' · '}
                  {t('phantoms.onset', { ms: n.signed(e.onset_error_ms) })}
                </Text>
              )}
              <Text span size="xs" c={e.false_alarms ? 'orange' : 'dimmed'}>
                {' · '}
                {t('phantoms.falseAlarms', { n: e.false_alarms })}
              </Text>
            </Text>
          ))}
        </Stack>
      </Table.Td>
      <Table.Td miw={150} data-testid="phantom-blinks">
        {blinks && blinks.recall !== null ? (
          <Stack gap={0}>
            <Text size="sm">{t('phantoms.blinkRecall', { matched: blinks.matched, injected: blinks.injected })}</Text>
            <Text size="xs" c="dimmed">
              {blinks.precision !== null
                ? t('phantoms.blinkPrecision', { precision: n.percent(blinks.precision) })
                : t('phantoms.blinkNoneMeasured')}
            </Text>
          </Stack>
        ) : (
          <Dash />
        )}
      </Table.Td>
      <Table.Td miw={150} data-testid="phantom-pose">
        {item.pose.length ? (
          <Stack gap={0}>
            {item.pose.map((p) => (
              <Stack key={p.axis} gap={0}>
                <Text size="sm">
                  {t(`phantoms.axis.${p.axis}`)}:{' '}
                  {p.median_degrees !== null ? t('phantoms.degrees', { degrees: n.number(p.median_degrees, 1) }) : '—'}
                </Text>
                {p.r !== null && (
                  <Text size="xs" c="dimmed">
                    r = {n.number(p.r, 2)}
                  </Text>
                )}
              </Stack>
            ))}
          </Stack>
        ) : (
          <Dash />
        )}
      </Table.Td>
    </Table.Tr>
  );
}
