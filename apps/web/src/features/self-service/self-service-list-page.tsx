import type { SelfServiceSummary } from '@emolens/contracts';
import {
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowRight, IconGavel, IconListCheck, IconPlus, IconVideo } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../components/empty-state.tsx';
import { ListLoadError, ListLoading } from '../../components/list-states.tsx';
import { useModerationQueue, useSelfServiceList } from './api.ts';
import { CollectedProgress, StateBadge, useSelfServiceFormat } from './self-service-ui.tsx';

type Tab = 'mine' | 'moderation';

const testPath = (id: string) => `/cabinet/self-service/${encodeURIComponent(id)}`;

/**
 * self-service (issue 15, item 2): the customer's video-ad tests, and for staff (the server lets them read the
 * moderation queue) a second tab of the tests waiting for moderation.
 */
export function SelfServiceListPage() {
  const { t } = useTranslation('selfService');
  const [params, setParams] = useSearchParams();
  const mine = useSelfServiceList();
  const staff = mine.data?.can.moderate ?? false;
  const queue = useModerationQueue(staff);
  const tab: Tab = staff && params.get('tab') === 'moderation' ? 'moderation' : 'mine';
  const list = tab === 'moderation' ? queue : mine;
  const items = (tab === 'moderation' ? queue.data : mine.data?.items) ?? null;

  const newButton = (
    <Button component={Link} to="/cabinet/self-service/add" leftSection={<IconPlus size={18} />}>
      {t('list.create')}
    </Button>
  );

  return (
    <Stack gap="lg" maw={1200} data-testid="self-service-list">
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={2}>{t('list.title')}</Title>
          <Text c="dimmed">{t('list.subtitle')}</Text>
        </Stack>
        {mine.data?.can.create && newButton}
      </Group>

      <Paper withBorder radius="lg" style={{ overflow: 'hidden' }}>
        {staff && (
          <Tabs
            value={tab}
            onChange={(value) => setParams(value === 'moderation' ? { tab: 'moderation' } : {}, { replace: true })}
            pt="xs"
          >
            <Tabs.List px="md">
              <Tabs.Tab
                value="mine"
                leftSection={<IconListCheck size={16} />}
                rightSection={<CountBadge count={mine.data?.items.length} active={tab === 'mine'} />}
                data-testid="self-service-tab-mine"
              >
                {t('list.tabMine')}
              </Tabs.Tab>
              <Tabs.Tab
                value="moderation"
                leftSection={<IconGavel size={16} />}
                rightSection={<CountBadge count={queue.data?.length} active={tab === 'moderation'} />}
                data-testid="self-service-tab-moderation"
              >
                {t('list.tabModeration')}
              </Tabs.Tab>
            </Tabs.List>
          </Tabs>
        )}

        {list.isPending ? (
          <ListLoading />
        ) : list.isError && !items ? (
          <ListLoadError
            testId="self-service-empty"
            title={t('list.loadErrorTitle')}
            text={t('list.loadErrorText')}
            retryLabel={t('actions.retry')}
            onRetry={() => void list.refetch()}
          />
        ) : items && items.length === 0 ? (
          tab === 'moderation' ? (
            <EmptyState
              testId="self-service-empty"
              icon={<IconGavel size={28} />}
              title={t('list.emptyModerationTitle')}
              text={t('list.emptyModerationText')}
              action={null}
            />
          ) : (
            <EmptyState
              testId="self-service-empty"
              icon={<IconVideo size={28} />}
              title={t('list.emptyTitle')}
              text={t('list.emptyText')}
              action={mine.data?.can.create ? newButton : null}
            />
          )
        ) : items ? (
          <>
            <Box visibleFrom="sm">
              <TestsTable items={items} tab={tab} />
            </Box>
            <Box hiddenFrom="sm">
              <TestCards items={items} tab={tab} />
            </Box>
          </>
        ) : null}
      </Paper>
    </Stack>
  );
}

function CountBadge({ count, active }: { count: number | undefined; active: boolean }) {
  return (
    <Badge size="sm" variant={active ? 'filled' : 'light'} color={active ? 'indigo' : 'gray'}>
      {count ?? '–'}
    </Badge>
  );
}

function ownerName(test: SelfServiceSummary): string {
  return test.owner.name || test.owner.username;
}

function TestsTable({ items, tab }: { items: SelfServiceSummary[]; tab: Tab }) {
  const { t } = useTranslation('selfService');
  const format = useSelfServiceFormat();
  const moderation = tab === 'moderation';
  return (
    <Table.ScrollContainer minWidth={moderation ? 960 : 820}>
      <Table highlightOnHover verticalSpacing="sm" horizontalSpacing="md" data-testid="self-service-table">
        <Table.Thead bg="gray.0">
          <Table.Tr>
            <Table.Th>{t('columns.title')}</Table.Th>
            {moderation && <Table.Th>{t('columns.owner')}</Table.Th>}
            <Table.Th>{t('columns.state')}</Table.Th>
            <Table.Th>{t('columns.progress')}</Table.Th>
            <Table.Th>{t('columns.sessions')}</Table.Th>
            <Table.Th>{t('columns.created')}</Table.Th>
            <Table.Th>{moderation ? t('columns.submitted') : t('columns.updated')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('columns.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((test) => (
            <Table.Tr key={test.id} data-testid="self-service-row" data-id={test.id}>
              <Table.Td miw={200} maw={320}>
                <Anchor component={Link} to={testPath(test.id)} fw={600} lineClamp={2}>
                  {test.title}
                </Anchor>
              </Table.Td>
              {moderation && (
                <Table.Td>
                  <Text size="sm">{ownerName(test)}</Text>
                  <Text size="xs" c="dimmed">
                    ID {test.owner.public_user_id}
                  </Text>
                </Table.Td>
              )}
              <Table.Td>
                <StateBadge state={test.state} />
              </Table.Td>
              <Table.Td w={160}>
                <CollectedProgress collected={test.collected} required={test.required} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{test.sessions === null ? '—' : format.number(test.sessions)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {format.date(test.created_at)}
                </Text>
              </Table.Td>
              <Table.Td>
                <DateCell at={moderation ? test.submitted_at : test.updated_at} />
              </Table.Td>
              <Table.Td ta="right">
                <Button
                  component={Link}
                  to={testPath(test.id)}
                  size="xs"
                  variant="light"
                  rightSection={<IconArrowRight size={14} />}
                  data-testid="self-service-open"
                >
                  {moderation ? t('list.review') : t('list.open')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** A date in a narrow cell; the time when pointed at. */
function DateCell({ at }: { at: string | null }) {
  const format = useSelfServiceFormat();
  return (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }} title={at ? format.dateTime(at) : undefined}>
      {at ? format.date(at) : '—'}
    </Text>
  );
}

function TestCards({ items, tab }: { items: SelfServiceSummary[]; tab: Tab }) {
  const { t } = useTranslation('selfService');
  const format = useSelfServiceFormat();
  const moderation = tab === 'moderation';
  return (
    <Stack gap="sm" p="sm" data-testid="self-service-cards">
      {items.map((test) => (
        <Paper key={test.id} withBorder radius="md" p="md" data-testid="self-service-card" data-id={test.id}>
          <Stack gap="sm">
            <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
              <Anchor
                component={Link}
                to={testPath(test.id)}
                fw={600}
                lineClamp={2}
                style={{ minWidth: 0, overflowWrap: 'anywhere' }}
              >
                {test.title}
              </Anchor>
              <StateBadge state={test.state} style={{ flexShrink: 0 }} />
            </Group>
            {moderation && (
              <Text size="sm">{t('list.ownerLine', { name: ownerName(test), id: test.owner.public_user_id })}</Text>
            )}
            <CollectedProgress collected={test.collected} required={test.required} />
            <Text size="xs" c="dimmed">
              {[
                t('list.sessionsLine', { n: test.sessions === null ? '—' : format.number(test.sessions) }),
                moderation && test.submitted_at
                  ? t('list.submittedLine', { date: format.dateTime(test.submitted_at) })
                  : t('list.createdLine', { date: format.date(test.created_at) }),
              ].join(' · ')}
            </Text>
            <Button
              component={Link}
              to={testPath(test.id)}
              variant="light"
              fullWidth
              rightSection={<IconArrowRight size={14} />}
            >
              {moderation ? t('list.review') : t('list.open')}
            </Button>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
