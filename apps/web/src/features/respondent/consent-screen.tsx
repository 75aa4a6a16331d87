import type { LinkInfo } from '@emolens/contracts';
import { Alert, Button, Checkbox, Group, Modal, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCamera, IconClock, IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OnDeviceNote } from './device-screens.tsx';

const POLICY_SECTIONS = [
  'operator',
  'data',
  'purpose',
  'basis',
  'processing',
  'storage',
  'transfer',
  'rights',
  'withdrawal',
  'changes',
] as const;

/** The full personal-data processing policy, as the respondent agrees to it. */
export function PolicyText() {
  const { t } = useTranslation('respondent');
  return (
    <Stack gap="sm" data-testid="policy-text">
      <Text fw={700}>{t('policy.title')}</Text>
      {POLICY_SECTIONS.map((section, i) => (
        <Stack gap={4} key={section}>
          <Text fw={600} size="sm">
            {i + 1}. {t(`policy.${section}.title`)}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {t(`policy.${section}.text`)}
          </Text>
        </Stack>
      ))}
    </Stack>
  );
}

export interface ConsentScreenProps {
  link: LinkInfo;
  starting: boolean;
  onStart: (panelConsent: boolean) => void;
}

/** Spec section 2: the title, the agreement with the policy, the start button (Cint asks its own consent). */
export function ConsentScreen({ link, starting, onStart }: ConsentScreenProps) {
  const { t } = useTranslation('respondent');
  const [agreed, setAgreed] = useState(false);
  const [cintOpen, setCintOpen] = useState(false);
  const cint = link.platform === 'cint';

  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="lg" data-testid="consent-screen">
      <Stack gap="lg">
        <Stack gap={6}>
          <Text c="dimmed" size="sm" tt="uppercase" fw={600}>
            {t('consent.kicker')}
          </Text>
          <Title order={1} size="h2" data-testid="project-title">
            {link.project_title}
          </Title>
          <Text size="lg">{t('consent.intro')}</Text>
        </Stack>
        {link.state === 'preview' && (
          <Alert color="orange" icon={<IconAlertTriangle />} data-testid="preview-warning" radius="md">
            {t('preview.warning')}
          </Alert>
        )}
        <Group gap="lg" wrap="wrap">
          <Group gap={8} wrap="nowrap">
            <IconCamera size={20} color="var(--mantine-color-blue-6)" />
            <Text size="sm">{t('consent.needCamera')}</Text>
          </Group>
          <Group gap={8} wrap="nowrap">
            <IconClock size={20} color="var(--mantine-color-blue-6)" />
            <Text size="sm">{t('consent.stayOnPage')}</Text>
          </Group>
          <Group gap={8} wrap="nowrap">
            <IconShieldLock size={20} color="var(--mantine-color-blue-6)" />
            <Text size="sm">{t('consent.impersonal')}</Text>
          </Group>
        </Group>
        {link.video_on_device && <OnDeviceNote />}
        <ScrollArea.Autosize mah={260} type="always" offsetScrollbars>
          <Paper bg="gray.0" p="md" radius="md">
            <PolicyText />
          </Paper>
        </ScrollArea.Autosize>
        <Checkbox
          size="md"
          checked={agreed}
          onChange={(e) => setAgreed(e.currentTarget.checked)}
          label={t('consent.agree')}
          data-testid="consent-checkbox"
        />
        <Button
          size="lg"
          disabled={!agreed}
          loading={starting}
          data-testid="consent-start"
          onClick={() => (cint ? setCintOpen(true) : onStart(false))}
        >
          {t('consent.start')}
        </Button>
      </Stack>
      <Modal opened={cintOpen} onClose={() => setCintOpen(false)} title={t('cint.title')} centered size="lg">
        <Stack gap="md" data-testid="cint-consent">
          <Text>{t('cint.text')}</Text>
          <Text size="sm" c="dimmed">
            {t('cint.note')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setCintOpen(false)}>
              {t('cint.decline')}
            </Button>
            <Button
              data-testid="cint-accept"
              onClick={() => {
                setCintOpen(false);
                onStart(true);
              }}
            >
              {t('cint.accept')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
