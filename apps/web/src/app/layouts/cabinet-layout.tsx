import { AppShell, Avatar, Box, Burger, Group, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconBrandAmazon,
  IconChartDots3,
  IconCheckupList,
  IconCoins,
  IconFolders,
  IconHelpCircle,
  IconKey,
  IconListCheck,
  IconLogout,
  IconMicrophone,
  IconPlayerRecord,
  IconShieldCheck,
  IconTags,
  IconUserSearch,
  IconUsersGroup,
  IconWebhook,
} from '@tabler/icons-react';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { openConfirm } from '../../components/confirm.ts';
import { LanguageSwitcher } from '../../components/language-switcher.tsx';
import { Logo, LogoMark } from '../../components/logo.tsx';
import { saveUserLanguage, useLogout, useUser } from '../../features/auth/api.ts';
import { NotificationBell } from '../../features/notifications/notification-bell.tsx';
import { currentLanguage, hasStoredLanguage, setLanguage } from '../../i18n/index.ts';

interface MenuItem {
  to: string;
  key: string;
  icon: ReactNode;
  /** Further paths that light this item up. */
  also?: string[];
}

const MENU: MenuItem[] = [
  { to: '/cabinet/projects', key: 'menu.projects', icon: <IconFolders size={18} /> },
  {
    to: '/cabinet/campaigns',
    key: 'menu.researches',
    icon: <IconChartDots3 size={18} />,
    also: ['/cabinet/campaign/'],
  },
  { to: '/cabinet/demo', key: 'menu.demo', icon: <IconPlayerRecord size={18} /> },
];

const CROWDSOURCING: MenuItem[] = [
  { to: '/cabinet/toloka', key: 'menu.toloka', icon: <IconUsersGroup size={18} />, also: ['/cabinet/yandex-tasks'] },
  { to: '/cabinet/check-token', key: 'menu.checkToken', icon: <IconShieldCheck size={18} /> },
  { to: '/cabinet/amazon', key: 'menu.amazon', icon: <IconBrandAmazon size={18} /> },
  { to: '/cabinet/prolific', key: 'menu.prolific', icon: <IconUserSearch size={18} /> },
];

const MORE: MenuItem[] = [
  { to: '/cabinet/surveys', key: 'menu.surveys', icon: <IconCheckupList size={18} /> },
  { to: '/cabinet/categories', key: 'menu.categories', icon: <IconTags size={18} /> },
  { to: '/cabinet/interview-analysis', key: 'menu.interview', icon: <IconMicrophone size={18} /> },
  { to: '/cabinet/self-service', key: 'menu.selfService', icon: <IconListCheck size={18} /> },
  { to: '/cabinet/licences', key: 'menu.licences', icon: <IconCoins size={18} /> },
  { to: '/cabinet/api-access', key: 'menu.apiAccess', icon: <IconKey size={18} /> },
  { to: '/cabinet/webhooks', key: 'menu.webhooks', icon: <IconWebhook size={18} /> },
  { to: '/cabinet/faq', key: 'menu.faq', icon: <IconHelpCircle size={18} /> },
];

/** Keeps the browser's language and the user's stored `current_lang` in step. */
function useLanguageSync() {
  const user = useUser().data;
  useEffect(() => {
    if (!user) return;
    if (!hasStoredLanguage()) void setLanguage(user.current_lang);
    else if (currentLanguage() !== user.current_lang) void saveUserLanguage(currentLanguage()).catch(() => undefined);
  }, [user]);
}

export function CabinetLayout() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const user = useUser().data;
  const logout = useLogout();
  useLanguageSync();

  const isActive = (item: MenuItem) =>
    pathname === item.to || pathname.startsWith(`${item.to}/`) || (item.also ?? []).some((p) => pathname.startsWith(p));

  const link = (item: MenuItem) => (
    <NavLink
      key={item.to}
      component={Link}
      to={item.to}
      label={t(item.key)}
      leftSection={item.icon}
      active={isActive(item)}
      onClick={close}
      variant="light"
      styles={{ root: { borderRadius: 'var(--mantine-radius-md)' } }}
    />
  );

  const confirmExit = () =>
    openConfirm({
      title: t('exit.title'),
      children: <Text size="sm">{t('exit.text')}</Text>,
      labels: { confirm: t('exit.confirm'), cancel: t('actions.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => logout.mutateAsync(undefined, { onSuccess: () => navigate('/login', { replace: true }) }),
    });

  const fullName = user ? [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username : '';

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="lg"
      styles={{ main: { background: 'var(--mantine-color-gray-0)' } }}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('nav.menu')} />
            <Box visibleFrom="xs">
              <Logo to="/cabinet/projects" />
            </Box>
            {/* A phone's header keeps room for the language and the bell: the mark alone. */}
            <Box hiddenFrom="xs" component={Link} to="/cabinet/projects" aria-label="Emolens" display="flex">
              <LogoMark />
            </Box>
          </Group>
          <Group gap="md" wrap="nowrap">
            <LanguageSwitcher />
            <NotificationBell />
            <Group gap={8} visibleFrom="xs" wrap="nowrap" data-testid="cabinet-user">
              <Avatar size={32} color="indigo" radius="xl">
                {fullName.slice(0, 1).toUpperCase()}
              </Avatar>
              <Stack gap={0}>
                <Text size="sm" fw={600} lh={1.2}>
                  {fullName}
                </Text>
                <Text size="xs" c="dimmed" lh={1.2}>
                  {user ? t(`roles.${user.role}`) : ''} · ID {user?.public_user_id}
                </Text>
              </Stack>
            </Group>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label={t('nav.cabinetMenu')}>
        <AppShell.Section grow component={ScrollArea}>
          <Stack gap={2}>
            {MENU.map(link)}
            <NavLink
              label={t('menu.crowdsourcing')}
              leftSection={<IconUsersGroup size={18} />}
              defaultOpened
              childrenOffset={12}
              styles={{ root: { borderRadius: 'var(--mantine-radius-md)' } }}
            >
              {CROWDSOURCING.map(link)}
            </NavLink>
            {MORE.map(link)}
          </Stack>
        </AppShell.Section>
        <AppShell.Section>
          <NavLink
            component="button"
            label={t('menu.exit')}
            leftSection={<IconLogout size={18} />}
            onClick={confirmExit}
            c="red.7"
            styles={{ root: { borderRadius: 'var(--mantine-radius-md)' } }}
          />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
