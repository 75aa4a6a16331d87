import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { IconCheck, IconCopy, IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/**
 * A secret the server shows once, right after it is made (an API token, a webhook endpoint's signing secret): the
 * warning that it cannot be shown again, the value, a copy button. `testId` names the dialog; its value, copy and
 * close buttons are `testId` + `-value`, `-copy`, `-close`.
 */
export function SecretShownOnce({
  secret,
  title,
  warning,
  hint,
  onClose,
  testId,
}: {
  secret: string | null;
  title: string;
  warning: string;
  hint?: string;
  onClose: () => void;
  testId: string;
}) {
  const { t } = useTranslation('integrations');
  return (
    <Modal opened={secret !== null} onClose={onClose} title={title} centered size="lg" data-testid={testId}>
      {secret !== null && (
        <Stack gap="md">
          <Alert color="orange" variant="light" icon={<IconKey size={18} />}>
            {warning}
          </Alert>
          <Code block style={{ wordBreak: 'break-all' }} data-testid={`${testId}-value`}>
            {secret}
          </Code>
          {hint && (
            <Text size="sm" c="dimmed">
              {hint}
            </Text>
          )}
          <Group justify="flex-end">
            <CopyButton value={secret}>
              {({ copied, copy }) => (
                <Button
                  variant="light"
                  color={copied ? 'teal' : undefined}
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  onClick={copy}
                  data-testid={`${testId}-copy`}
                >
                  {copied ? t('api.copied') : t('api.copy')}
                </Button>
              )}
            </CopyButton>
            <Button onClick={onClose} data-testid={`${testId}-close`}>
              {t('api.done')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
