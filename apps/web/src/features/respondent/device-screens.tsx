import { Alert, Button, Group, Text } from '@mantine/core';
import { IconCloudUpload, IconDeviceDesktopOff, IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageScreen } from './message-screens.tsx';

/** Privacy mode on the consent screen: the video stays on the device (decision 065). */
export function OnDeviceNote() {
  const { t } = useTranslation('respondent');
  return (
    <Alert color="teal" variant="light" radius="md" icon={<IconShieldLock />} data-testid="consent-on-device">
      <Text size="sm">{t('consent.onDevice')}</Text>
    </Alert>
  );
}

/**
 * Privacy mode, a device too slow in a research that offers the upload (decision 065): the respondent chooses to send
 * the video instead, or to stop.
 */
export function DeviceSlowScreen({ onUpload, onStop }: { onUpload: () => Promise<void>; onStop: () => Promise<void> }) {
  const { t } = useTranslation('respondent');
  const [busy, setBusy] = useState<'upload' | 'stop' | null>(null);
  const run = (which: 'upload' | 'stop', action: () => Promise<void>) => {
    setBusy(which);
    action().catch((error: unknown) => {
      console.error('privacy mode: the choice could not be sent', error);
      setBusy(null);
    });
  };
  return (
    <MessageScreen
      testId="device-slow"
      icon={<IconDeviceDesktopOff size={34} />}
      color="orange"
      title={t('device.slowTitle')}
      text={t('device.slowText')}
    >
      <Group justify="center">
        <Button
          size="md"
          leftSection={<IconCloudUpload size={18} />}
          loading={busy === 'upload'}
          disabled={busy !== null}
          onClick={() => run('upload', onUpload)}
          data-testid="device-upload"
        >
          {t('device.upload')}
        </Button>
        <Button
          size="md"
          variant="default"
          loading={busy === 'stop'}
          disabled={busy !== null}
          onClick={() => run('stop', onStop)}
          data-testid="device-stop"
        >
          {t('device.stop')}
        </Button>
      </Group>
    </MessageScreen>
  );
}
