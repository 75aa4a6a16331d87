import { Container, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function HomePage() {
  const { t } = useTranslation('public');
  return (
    <Container size="lg" py="xl">
      <Title>{t('home.title')}</Title>
    </Container>
  );
}
