import { Container, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function PricePage() {
  const { t } = useTranslation('public');
  return (
    <Container size="lg" py="xl">
      <Title>{t('price.title')}</Title>
    </Container>
  );
}
