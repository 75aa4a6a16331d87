import type { NotificationItem, NotificationKind } from '@emolens/contracts';
import {
  ActionIcon,
  Box,
  Button,
  Center,
  Group,
  Indicator,
  Loader,
  Popover,
  ScrollArea,
  Stack,
  Text,
  ThemeIcon,
  UnstyledButton,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowBackUp,
  IconBell,
  IconBellOff,
  IconChecks,
  IconCircleCheck,
  IconCoinOff,
  IconCoins,
  IconFlag,
  IconReportAnalytics,
  IconUserPlus,
  IconVideoOff,
} from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { currentLanguage } from '../../i18n/index.ts';
import { useMarkNotificationsRead, useNotifications, useUnreadNotifications } from './api.ts';
import classes from './notifications.module.css';
import { fullTime, relativeTime } from './relative-time.ts';

const KINDS: Record<NotificationKind, { icon: ReactNode; color: string }> = {
  moderation_approved: { icon: <IconCircleCheck size={18} />, color: 'teal' },
  moderation_returned: { icon: <IconArrowBackUp size={18} />, color: 'orange' },
  collection_finished: { icon: <IconFlag size={18} />, color: 'indigo' },
  report_built: { icon: <IconReportAnalytics size={18} />, color: 'teal' },
  report_failed: { icon: <IconAlertTriangle size={18} />, color: 'red' },
  process_failed: { icon: <IconVideoOff size={18} />, color: 'red' },
  balance_low: { icon: <IconCoins size={18} />, color: 'yellow' },
  balance_exhausted: { icon: <IconCoinOff size={18} />, color: 'red' },
  access_requested: { icon: <IconUserPlus size={18} />, color: 'indigo' },
};

/** Only in-app paths are followed (`/cabinet/…`), never another site. */
const isInAppPath = (link: string | null): link is string => !!link && link.startsWith('/') && !link.startsWith('//');

/** The current time, renewed every `everyMs` while mounted (relative times stay true while the list is open). */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * The bell in the cabinet's header (issue 15, item 6): the unread count, polled every 30 s and when the window
 * regains focus, and the list of notifications in a popover, newest first.
 */
export function NotificationBell() {
  const { t } = useTranslation('notifications');
  const [opened, setOpened] = useState(false);
  const unread = useUnreadNotifications().data?.unread ?? 0;
  return (
    <Indicator
      label={unread > 99 ? '99+' : unread}
      disabled={unread === 0}
      size={18}
      offset={6}
      color="red"
      withBorder
      inline
      data-testid="notification-count"
    >
      <Popover
        opened={opened}
        onChange={setOpened}
        position="bottom-end"
        width="min(400px, calc(100vw - 16px))"
        shadow="lg"
        radius="md"
        withinPortal
        zIndex={300}
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            radius="xl"
            aria-label={unread ? t('bellUnread', { unread }) : t('bell')}
            onClick={() => setOpened((o) => !o)}
            data-testid="notification-bell"
          >
            <IconBell size={22} stroke={1.7} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p={0} data-testid="notification-list">
          <NotificationList unread={unread} onLeave={() => setOpened(false)} />
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}

/** The list itself: fetched while shown, a page at a time. */
function NotificationList({ unread, onLeave }: { unread: number; onLeave: () => void }) {
  const { t } = useTranslation('notifications');
  const list = useNotifications(true);
  const mark = useMarkNotificationsRead();
  const navigate = useNavigate();
  const now = useNow(30_000);
  const language = currentLanguage();
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];

  const follow = (item: NotificationItem) => {
    if (!item.read) mark.mutate({ ids: [item.id] });
    if (isInAppPath(item.link)) {
      onLeave();
      void navigate(item.link);
    }
  };

  let body: ReactNode;
  if (list.isPending) {
    body = (
      <Center py="xl">
        <Loader size="sm" />
      </Center>
    );
  } else if (list.isError && !items.length) {
    body = (
      <Stack align="center" gap="xs" py="xl" px="md">
        <Text size="sm" c="dimmed" ta="center">
          {t('loadError')}
        </Text>
        <Button size="xs" variant="light" onClick={() => void list.refetch()}>
          {t('retry')}
        </Button>
      </Stack>
    );
  } else if (!items.length) {
    body = (
      <Stack align="center" gap={6} py={32} px="lg" data-testid="notifications-empty">
        <ThemeIcon size={48} radius="xl" variant="light" color="gray">
          <IconBellOff size={24} />
        </ThemeIcon>
        <Text fw={600} size="sm" ta="center">
          {t('empty.title')}
        </Text>
        <Text size="xs" c="dimmed" ta="center">
          {t('empty.text')}
        </Text>
      </Stack>
    );
  } else {
    body = (
      <ScrollArea.Autosize mah="min(460px, calc(100dvh - 160px))" type="auto">
        {items.map((item) => (
          <NotificationRow key={item.id} item={item} now={now} language={language} onOpen={follow} />
        ))}
        {list.hasNextPage && (
          <Center py="xs">
            <Button
              size="xs"
              variant="subtle"
              loading={list.isFetchingNextPage}
              onClick={() => void list.fetchNextPage()}
              data-testid="notifications-more"
            >
              {t('loadMore')}
            </Button>
          </Center>
        )}
      </ScrollArea.Autosize>
    );
  }

  return (
    <Box>
      <Group
        justify="space-between"
        wrap="nowrap"
        px="md"
        py="sm"
        style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
      >
        <Text fw={700}>{t('title')}</Text>
        <Button
          size="compact-sm"
          variant="subtle"
          leftSection={<IconChecks size={16} />}
          disabled={unread === 0}
          loading={mark.isPending && mark.variables && 'all' in mark.variables}
          onClick={() => mark.mutate({ all: true })}
          data-testid="notifications-read-all"
        >
          {t('markAllRead')}
        </Button>
      </Group>
      {body}
    </Box>
  );
}

function NotificationRow(props: {
  item: NotificationItem;
  now: number;
  language: string;
  onOpen: (item: NotificationItem) => void;
}) {
  const { t } = useTranslation('notifications');
  const { item, language } = props;
  const kind = KINDS[item.kind];
  const numbers = new Intl.NumberFormat(language);
  const params = Object.fromEntries(
    Object.entries(item.params).map(([k, v]) => [k, typeof v === 'number' ? numbers.format(v) : v]),
  );
  return (
    <UnstyledButton
      className={classes.item}
      data-unread={item.read ? undefined : true}
      onClick={() => props.onOpen(item)}
      data-testid="notification-item"
    >
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <ThemeIcon variant="light" color={kind.color} radius="xl" size={32}>
          {kind.icon}
        </ThemeIcon>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" fw={item.read ? 400 : 600} lh={1.35} style={{ overflowWrap: 'anywhere' }}>
            {t(`kinds.${item.kind}`, params)}
          </Text>
          <Text size="xs" c="dimmed" title={fullTime(item.created_at, language)}>
            {relativeTime(item.created_at, props.now, language)}
          </Text>
        </Stack>
        {!item.read && <span className={classes.dot} role="img" aria-label={t('unread')} />}
      </Group>
    </UnstyledButton>
  );
}
