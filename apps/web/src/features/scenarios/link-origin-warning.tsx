import { Alert, Code, Stack, Text } from '@mantine/core';
import { IconWorldExclamation } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { foreignLinkOrigin } from './link-origin.ts';

/**
 * Above the quota links (issue 28 item 10): the links point at another address than the one the cabinet was opened
 * at — most often http://localhost:PORT because PUBLIC_URL is not set — and how to make them right.
 */
export function LinkOriginWarning({ links }: { links: readonly string[] }) {
  const { t } = useTranslation('scenarios');
  const cabinetOrigin = window.location.origin;
  const linkOrigin = foreignLinkOrigin(links, cabinetOrigin);
  if (!linkOrigin) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconWorldExclamation size={18} />}
      title={t('linkOrigin.title')}
      data-testid="link-origin-warning"
    >
      <Stack gap={6}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('linkOrigin.text', { linkOrigin, cabinetOrigin })}
        </Text>
        <Text size="sm">{t('linkOrigin.fix')}</Text>
        <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
          PUBLIC_URL={cabinetOrigin}
        </Code>
      </Stack>
    </Alert>
  );
}
