import { figmaEmbedUrl } from '@emolens/contracts';
import {
  ActionIcon,
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  List,
  Paper,
  Stack,
  Text,
  ThemeIcon,
  Tooltip,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconBrandFigma,
  IconCheck,
  IconCopy,
  IconEyeOff,
  IconHandFinger,
  IconPlayerPlay,
  IconViewportWide,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n/messages.ts';
import { FigmaPreviewModal } from './figma-preview-modal.tsx';

/** Spec section 9: where a Figma prototype is embedded, with which options, and a preview on demand. */
export function FigmaPanel({ siteUrl }: { siteUrl: string }) {
  const { t } = useTranslation('tasks');
  const [preview, setPreview] = useState(false);
  const embed = figmaEmbedUrl(siteUrl);
  /** The embed options of spec section 9, as the embed address sets them. */
  const options = [
    {
      icon: <IconViewportWide size={14} />,
      name: t('figma.scaling'),
      value: 'scaling=contain',
      hint: t('figma.scalingHint'),
    },
    {
      icon: <IconHandFinger size={14} />,
      name: t('figma.hotspots'),
      value: 'hotspot-hints=0',
      hint: t('figma.hotspotsHint'),
    },
    { icon: <IconEyeOff size={14} />, name: t('figma.ui'), value: 'hide-ui=1', hint: t('figma.uiHint') },
  ];

  return (
    <Paper withBorder radius="lg" p="md" data-testid="figma-panel">
      <Stack gap="sm">
        <Group gap={8}>
          <ThemeIcon variant="light" color="grape" radius="md">
            <IconBrandFigma size={16} />
          </ThemeIcon>
          <Text fw={600}>{t('figma.title')}</Text>
        </Group>
        {embed ? (
          <>
            <Text size="sm" c="dimmed">
              {t('figma.text')}
            </Text>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Code
                block
                style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
                data-testid="figma-embed-url"
              >
                {embed}
              </Code>
              <CopyButton value={embed}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? t('figma.copied') : t('figma.copy')} withArrow>
                    <ActionIcon
                      variant="subtle"
                      color={copied ? 'teal' : 'gray'}
                      onClick={copy}
                      aria-label={t('figma.copy')}
                      data-testid="figma-embed-copy"
                    >
                      {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
            <List spacing={6} size="sm" center data-testid="figma-options">
              {options.map((option) => (
                <List.Item
                  key={option.value}
                  icon={
                    <ThemeIcon size={22} radius="xl" variant="light">
                      {option.icon}
                    </ThemeIcon>
                  }
                >
                  <Text span size="sm" fw={500}>
                    {option.name}
                  </Text>{' '}
                  <Code>{option.value}</Code>
                  <Text size="xs" c="dimmed">
                    {option.hint}
                  </Text>
                </List.Item>
              ))}
            </List>
            <Group>
              <Button
                variant="light"
                leftSection={<IconPlayerPlay size={16} />}
                onClick={() => setPreview(true)}
                data-testid="figma-preview"
              >
                {t('figma.preview')}
              </Button>
              <Text size="xs" c="dimmed">
                {t('figma.previewNote')}
              </Text>
            </Group>
          </>
        ) : (
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            title={t('figma.invalidTitle')}
            data-testid="figma-url-error"
          >
            {translateMessage({ key: 'content.figmaUrl' })}
          </Alert>
        )}
      </Stack>
      {preview && embed && (
        <FigmaPreviewModal url={embed} title={t('figma.previewTitle')} onClose={() => setPreview(false)} />
      )}
    </Paper>
  );
}
