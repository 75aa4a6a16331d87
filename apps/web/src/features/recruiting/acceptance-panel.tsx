import {
  type AcceptanceMode,
  type AssignmentDecision,
  type AssignmentDecisionsOutput,
  isMessageKey,
  type RecruitingPlatform,
} from '@emolens/contracts';
import { Alert, Badge, Button, Flex, Group, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconListCheck, IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { InlineLoadError } from '../../components/load-states.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { notifyError } from '../errors/notify.ts';
import { useDecisions, useDecisionsAction } from './acceptance-api.ts';

/** A button whose label may wrap on a phone instead of running past the card. */
const WRAPPING_BUTTON = {
  root: { height: 'auto', minHeight: 36, paddingBlock: 6 },
  label: { whiteSpace: 'normal' as const, textAlign: 'center' as const },
};
const DECISION_COLORS: Record<string, string> = { accept: 'green', reject: 'red', return: 'orange' };
const DECISION_STATUS_COLORS: Record<string, string> = { pending_confirmation: 'yellow', sent: 'gray', failed: 'red' };

/**
 * Respondents' completion codes on a Toloka pool or an MTurk HIT (issue 14, items 5 and 6): the acceptance setting,
 * checking the submitted codes (when the analyst presses the button; nothing runs on a schedule), the counts, each
 * decision, and sending those waiting.
 */
export function AcceptancePanel({ platform, researchId }: { platform: RecruitingPlatform; researchId: string }) {
  const { t } = useTranslation('integrations');
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const decisions = useDecisions(platform, researchId);
  const action = useDecisionsAction(platform, researchId);
  const [review, setReview] = useState<AssignmentDecisionsOutput['review']>(null);
  const data = decisions.data;
  const waiting = data ? data.counts.pending_confirmation + data.counts.failed : 0;
  const checkCodes = () =>
    action.mutate(
      { kind: 'review' },
      { onSuccess: (answer) => setReview(answer.review), onError: (error) => notifyError(error) },
    );
  const sendWaiting = () =>
    openConfirm({
      title: t('acceptance.confirmTitle', { context: platform }),
      children: <Text size="sm">{t('acceptance.confirmText', { context: platform })}</Text>,
      labels: { confirm: t('acceptance.confirm', { count: waiting }), cancel: t('api.cancel') },
      confirmProps: { 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () => action.mutateAsync({ kind: 'confirm' }, { onError: (error) => notifyError(error) }),
    });
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="acceptance">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={3} size="h4">
            {t('acceptance.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('acceptance.how', { context: platform })} {t('acceptance.subtitle')}
          </Text>
          <Text size="xs" c="dimmed">
            {t('acceptance.manual')}
          </Text>
        </Stack>
        {decisions.isError && (
          <InlineLoadError
            text={t('acceptance.loadFailed')}
            retryLabel={t('api.retry')}
            onRetry={() => decisions.refetch()}
          />
        )}
        {data && (
          <>
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                {t('acceptance.mode', { context: platform })}
              </Text>
              <SegmentedControl
                value={data.acceptance}
                disabled={!data.can.change || action.isPending}
                onChange={(v) =>
                  action.mutate(
                    { kind: 'acceptance', acceptance: v as AcceptanceMode },
                    { onError: (error) => notifyError(error) },
                  )
                }
                data={[
                  { value: 'confirm', label: t('acceptance.modeConfirm') },
                  { value: 'auto', label: t('acceptance.modeAuto') },
                ]}
                orientation={phone ? 'vertical' : 'horizontal'}
                fullWidth={phone}
                style={phone ? undefined : { alignSelf: 'flex-start' }}
                data-testid="acceptance-mode"
              />
            </Stack>
            <Flex gap="sm" direction={{ base: 'column', xs: 'row' }} wrap="wrap">
              <Button
                leftSection={<IconListCheck size={16} />}
                disabled={!data.can.review}
                loading={action.isPending}
                fullWidth={phone}
                styles={WRAPPING_BUTTON}
                onClick={checkCodes}
                data-testid="acceptance-review"
              >
                {t('acceptance.review')}
              </Button>
              <Button
                variant="light"
                leftSection={<IconSend size={16} />}
                disabled={!data.can.confirm}
                loading={action.isPending}
                fullWidth={phone}
                styles={WRAPPING_BUTTON}
                onClick={sendWaiting}
                data-testid="acceptance-confirm"
              >
                {t('acceptance.confirm', { count: waiting })}
              </Button>
            </Flex>
            {review && (
              <Alert color="blue" data-testid="acceptance-reviewed">
                <Text size="sm">{t('acceptance.reviewed', review)}</Text>
              </Alert>
            )}
            <Group gap="xs" data-testid="acceptance-counts">
              {(['accept', 'reject', 'return', 'pending_confirmation', 'sent', 'failed'] as const)
                // Asked to return: only where a platform asks for returns (Prolific) and it happened.
                .filter((k) => k !== 'return' || data.counts.return > 0)
                .map((k) => (
                  <Badge
                    key={k}
                    variant="light"
                    color={
                      k === 'accept'
                        ? 'green'
                        : k === 'reject' || k === 'failed'
                          ? 'red'
                          : k === 'sent'
                            ? 'gray'
                            : 'yellow'
                    }
                    style={{ textTransform: 'none' }}
                  >
                    {t(`acceptance.counts.${k}`)}: {data.counts[k]}
                  </Badge>
                ))}
            </Group>
            {data.items.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('acceptance.empty')}
              </Text>
            ) : (
              <DecisionList platform={platform} items={data.items} />
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}

function useDecisionText(platform: RecruitingPlatform) {
  const { t, i18n } = useTranslation('integrations');
  const when = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'short', timeStyle: 'short' });
  return {
    reason: (d: AssignmentDecision) => {
      const base =
        d.reason === 'decided_on_platform'
          ? t('acceptance.reasons.decided_on_platform', { context: platform })
          : t(`acceptance.reasons.${d.reason}`);
      const key = d.excluded_reason ? `processing.excluded.${d.excluded_reason}` : null;
      return key && isMessageKey(key) ? `${base}: ${translateMessage({ key })}` : base;
    },
    session: (d: AssignmentDecision) => (d.session_id ? d.session_id.slice(0, 8) : '—'),
    when: (d: AssignmentDecision) => when.format(new Date(d.decided_at)),
    decision: (d: AssignmentDecision) => (
      <Badge
        color={DECISION_COLORS[d.decision]}
        variant="light"
        style={{ textTransform: 'none', flexShrink: 0 }}
        styles={{ label: { overflow: 'visible' } }}
      >
        {t(`acceptance.decisions.${d.decision}`)}
      </Badge>
    ),
    status: (d: AssignmentDecision) => (
      <Stack gap={2}>
        <Badge
          color={DECISION_STATUS_COLORS[d.status]}
          variant="dot"
          style={{ textTransform: 'none' }}
          styles={{ label: { overflow: 'visible' } }}
        >
          {t(`acceptance.statuses.${d.status}`)}
        </Badge>
        {d.error && (
          <Text size="xs" c="red" lineClamp={3} title={d.error} maw={280} style={{ overflowWrap: 'anywhere' }}>
            {d.error}
          </Text>
        )}
      </Stack>
    ),
  };
}

function DecisionList({ platform, items }: { platform: RecruitingPlatform; items: AssignmentDecision[] }) {
  const { t } = useTranslation('integrations');
  const text = useDecisionText(platform);
  return (
    <>
      <Table.ScrollContainer minWidth={640} visibleFrom="sm" data-testid="acceptance-table">
        <Table verticalSpacing="xs" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('acceptance.worker')}</Table.Th>
              <Table.Th>{t('acceptance.session')}</Table.Th>
              <Table.Th>{t('acceptance.decision')}</Table.Th>
              <Table.Th>{t('acceptance.reason')}</Table.Th>
              <Table.Th>{t('acceptance.status')}</Table.Th>
              <Table.Th>{t('acceptance.decided')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((d) => (
              <Table.Tr key={d.assignment_id}>
                <Table.Td ff="monospace" fz="sm" style={{ wordBreak: 'break-all', minWidth: 120 }}>
                  {d.worker_id}
                </Table.Td>
                <Table.Td ff="monospace">{text.session(d)}</Table.Td>
                <Table.Td>{text.decision(d)}</Table.Td>
                <Table.Td>{text.reason(d)}</Table.Td>
                <Table.Td>{text.status(d)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{text.when(d)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Stack gap="xs" hiddenFrom="sm" data-testid="acceptance-cards">
        {items.map((d) => (
          <Paper key={d.assignment_id} withBorder radius="md" p="sm">
            <Stack gap={6}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" fw={500} ff="monospace" style={{ wordBreak: 'break-all' }}>
                  {d.worker_id}
                </Text>
                {text.decision(d)}
              </Group>
              <Text size="sm">{text.reason(d)}</Text>
              <Group justify="space-between" gap="xs" align="flex-start">
                {text.status(d)}
                <Text size="xs" c="dimmed">
                  {t('acceptance.session')} <span style={{ fontFamily: 'monospace' }}>{text.session(d)}</span> ·{' '}
                  {text.when(d)}
                </Text>
              </Group>
            </Stack>
          </Paper>
        ))}
      </Stack>
    </>
  );
}
