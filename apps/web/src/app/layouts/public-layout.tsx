import { Anchor, Box, Burger, Button, Container, Divider, Drawer, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet } from 'react-router';
import { LanguageSwitcher } from '../../components/language-switcher.tsx';
import { Logo } from '../../components/logo.tsx';
import { useUser } from '../../features/auth/api.ts';
import classes from './public-layout.module.css';

const NAV = [
  { to: '/home', key: 'nav.home' },
  { to: '/docs', key: 'nav.docs' },
  { to: '/price', key: 'nav.price' },
] as const;

function AccountButton() {
  const { t } = useTranslation();
  const user = useUser().data;
  return user ? (
    <Button component={Link} to="/cabinet/projects" size="sm">
      {t('nav.cabinet')}
    </Button>
  ) : (
    <Button component={Link} to="/login" size="sm" variant="light">
      {t('nav.login')}
    </Button>
  );
}

export function PublicLayout() {
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const links = NAV.map((item) => (
    <NavLink key={item.to} to={item.to} className={classes.link} onClick={close}>
      {t(item.key)}
    </NavLink>
  ));
  return (
    <Box className={classes.page}>
      <header className={classes.header}>
        <Container size="lg" h="100%">
          <Group h="100%" justify="space-between" wrap="nowrap">
            <Logo />
            <Group gap={4} visibleFrom="sm" component="nav" aria-label={t('nav.main')}>
              {links}
            </Group>
            <Group gap="sm" visibleFrom="sm" wrap="nowrap">
              <LanguageSwitcher />
              <AccountButton />
            </Group>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" aria-label={t('nav.menu')} />
          </Group>
        </Container>
      </header>
      <Drawer opened={opened} onClose={close} hiddenFrom="sm" title={<Logo />} size="xs">
        <Stack gap="xs" component="nav" aria-label={t('nav.main')}>
          {links}
          <Divider my="sm" />
          <LanguageSwitcher />
          <AccountButton />
        </Stack>
      </Drawer>
      <main className={classes.main}>
        <Outlet />
      </main>
      <footer className={classes.footer}>
        <Container size="lg">
          <Group justify="space-between" gap="md">
            <Text size="sm" c="dimmed">
              © {new Date().getFullYear()} Emolens · {t('footer.tagline')}
            </Text>
            <Group gap="lg">
              {NAV.map((item) => (
                <Anchor key={item.to} component={Link} to={item.to} size="sm" c="dimmed">
                  {t(item.key)}
                </Anchor>
              ))}
            </Group>
          </Group>
        </Container>
      </footer>
    </Box>
  );
}
