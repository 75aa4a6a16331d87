/**
 * The Figma preview: a prototype (or one screen of it) shown in a modal, for the research's Figma
 * link and for a step's screen.
 */
import { Box, Modal, Stack, Text } from '@mantine/core';

/** A Figma prototype in an iframe: mounted only when the analyst asks, so figma.com is not called before. */
export function FigmaPreviewModal({ url, title, onClose }: { url: string; title: string; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={title} size="90%" centered>
      <Stack gap="xs" data-testid="figma-preview-modal">
        <Box
          style={{
            borderRadius: 'var(--mantine-radius-md)',
            overflow: 'hidden',
            border: '1px solid var(--mantine-color-default-border)',
            background: 'var(--mantine-color-gray-1)',
          }}
        >
          <iframe
            src={url}
            title={title}
            allowFullScreen
            style={{ display: 'block', width: '100%', height: '70vh', border: 0 }}
            data-testid="figma-preview-frame"
          />
        </Box>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {url}
        </Text>
      </Stack>
    </Modal>
  );
}
