import { Box, Container, Group } from '@mantine/core';
import { Outlet } from 'react-router';
import { LanguageSwitcher } from '../../components/language-switcher.tsx';
import { LogoMark } from '../../components/logo.tsx';

/** The respondent's frame: no cabinet menu, no login, only the language. */
export function RespondentLayout() {
  return (
    <Box mih="100vh" bg="gray.0">
      <Container size="md" py="md">
        <Group justify="space-between" mb="lg">
          <LogoMark size={32} />
          <LanguageSwitcher />
        </Group>
        <Outlet />
      </Container>
    </Box>
  );
}
