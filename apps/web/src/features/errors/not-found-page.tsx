import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundPage({ inCabinet = false }: { inCabinet?: boolean }) {
  const { t } = useTranslation();
  return (
    <Center py={96} px="md" data-testid="not-found">
      <Stack align="center" gap="md" maw={460}>
        <Text fz={96} fw={900} c="indigo.2" lh={1}>
          404
        </Text>
        <Title order={2} ta="center">
          {t('notFound.title')}
        </Title>
        <Text c="dimmed" ta="center">
          {t('notFound.text')}
        </Text>
        <Button component={Link} to={inCabinet ? '/cabinet/projects' : '/home'}>
          {inCabinet ? t('notFound.toCabinet') : t('notFound.toHome')}
        </Button>
      </Stack>
    </Center>
  );
}
