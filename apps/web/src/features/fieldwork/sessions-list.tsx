import {
  RESPONDENT_SESSION_STATUSES,
  type RespondentSessionItem,
  type RespondentSessionStatus,
} from '@emolens/contracts';
import { Badge, Button, Group, Pagination, Select, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/data-table.tsx';
import { InlineLoadError } from '../../components/load-states.tsx';
import { formatBytes } from '../../i18n/format.ts';
import { useProjectFormat } from '../projects/project-ui.tsx';
import { useRespondentSessions } from './api.ts';
import { SESSION_STATUS_COLORS } from './quota-table.tsx';

/** A segment's recording: a button first, the player only when asked (no video is loaded before). */
function SegmentPlayer({ segment }: { segment: RespondentSessionItem['segments'][number] }) {
  const { t, i18n } = useTranslation('fieldwork');
  const [open, setOpen] = useState(false);
  const label = t('sessions.segment', {
    number: segment.segment + 1,
    chunks: segment.chunks,
    size: formatBytes(segment.bytes, i18n.resolvedLanguage ?? 'en'),
  });
  if (!segment.chunks) {
    return (
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      {open ? (
        // biome-ignore lint/a11y/useMediaCaption: a respondent's webcam recording has no speech to caption
        <video
          src={segment.url}
          controls
          preload="metadata"
          style={{ width: 240, maxWidth: '100%', borderRadius: 8, background: 'black' }}
          data-testid="session-video"
        />
      ) : (
        <Button
          size="compact-xs"
          variant="light"
          leftSection={<IconPlayerPlay size={12} />}
          onClick={() => setOpen(true)}
          data-testid="session-play"
        >
          {t('sessions.play')}
        </Button>
      )}
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}

/** Sessions of a project or of a research: status and step badges, and each segment's recording. */
export function SessionsList({
  owner,
  ownerId,
  live = false,
}: {
  owner: 'projects' | 'campaigns';
  ownerId: string;
  live?: boolean;
}) {
  const { t } = useTranslation('fieldwork');
  const { t: tp } = useTranslation('projects');
  const format = useProjectFormat();
  const [status, setStatus] = useState<RespondentSessionStatus | ''>('');
  const [page, setPage] = useState(1);
  const query = useRespondentSessions(owner, ownerId, { status, page, live });
  const data = query.data;

  return (
    <Stack gap="sm" data-testid="sessions-list">
      <Group justify="space-between" align="center">
        <Title order={3} size="h5">
          {t('sessions.title')}
        </Title>
        <Select
          size="xs"
          w={200}
          value={status}
          onChange={(value) => {
            setStatus((value ?? '') as RespondentSessionStatus | '');
            setPage(1);
          }}
          data={[
            { value: '', label: t('sessions.allStatuses') },
            ...RESPONDENT_SESSION_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })),
          ]}
          allowDeselect={false}
          aria-label={t('sessions.status')}
          data-testid="sessions-status-filter"
        />
      </Group>
      {query.isError && !data && (
        <InlineLoadError
          text={t('sessions.loadError')}
          retryLabel={t('sessions.retry')}
          onRetry={() => query.refetch()}
        />
      )}
      {data && data.items.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('sessions.empty')}
        </Text>
      )}
      {data && data.items.length > 0 && (
        <>
          <DataTable
            minWidth={820}
            verticalSpacing="xs"
            striped
            columns={[
              t('sessions.participant'),
              t('sessions.status'),
              t('sessions.step'),
              t('sessions.quotaState'),
              t('sessions.started'),
              t('sessions.lastSeen'),
              t('sessions.recording'),
            ]}
          >
            {data.items.map((s) => (
              <Table.Tr key={s.id} data-testid="session-row">
                <Table.Td>
                  <Stack gap={2}>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {s.participant_id ?? '—'}
                    </Text>
                    <Text size="xs" c="dimmed" ff="monospace">
                      {s.id.slice(0, 8)} · {tp(`platforms.${s.platform}`)}
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    <Badge
                      color={SESSION_STATUS_COLORS[s.status]}
                      variant="light"
                      miw="max-content"
                      data-testid="session-status"
                    >
                      {t(`status.${s.status}`)}
                    </Badge>
                    {s.preview && (
                      <Badge color="gray" variant="outline">
                        {t('sessions.preview')}
                      </Badge>
                    )}
                    {/* The calibration check before the content (decision 050): what the analyst should know of it. */}
                    {s.calibration_check && s.calibration_check !== 'passed' && s.status !== 'calibration_failed' && (
                      <Badge
                        color={s.calibration_check === 'flagged' ? 'orange' : 'gray'}
                        variant="outline"
                        miw="max-content"
                        data-testid="session-calibration-check"
                      >
                        {t(`calibrationCheck.${s.calibration_check}`)}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Badge color="gray" variant="dot" miw="max-content" data-testid="session-step">
                    {t(`steps.${s.step}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{s.quota_state ? t(`quotaState.${s.quota_state}`) : '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{format.dateTime(s.started_at)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{format.dateTime(s.ended_at ?? s.last_seen_at)}</Text>
                </Table.Td>
                <Table.Td>
                  {s.segments.length === 0 ? (
                    <Text size="xs" c="dimmed">
                      {t('sessions.noRecording')}
                    </Text>
                  ) : (
                    <Stack gap="xs">
                      {s.segments.map((segment) => (
                        <SegmentPlayer key={segment.segment} segment={segment} />
                      ))}
                    </Stack>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
          <Group justify="space-between">
            <Text size="xs" c="dimmed">
              {t('sessions.total', { count: data.total })}
            </Text>
            {data.total > data.page_size && (
              <Pagination size="sm" value={page} onChange={setPage} total={Math.ceil(data.total / data.page_size)} />
            )}
          </Group>
        </>
      )}
    </Stack>
  );
}
