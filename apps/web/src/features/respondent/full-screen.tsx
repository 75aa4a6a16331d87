import { Box, Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/** The whole viewport, above the page's frame: content, calibration and the screens over them. */
export function FullScreen({
  children,
  testId,
  dark = false,
  zIndex = 300,
}: {
  children: ReactNode;
  testId?: string;
  dark?: boolean;
  zIndex?: number;
}) {
  return (
    <Box
      data-testid={testId}
      style={{
        position: 'fixed',
        inset: 0,
        zIndex,
        background: dark ? '#16181d' : 'var(--mantine-color-gray-0)',
        overflow: 'hidden',
      }}
    >
      {children}
    </Box>
  );
}

/** A task's card in the middle of the whole viewport, before its content is shown. */
export function TaskCardScreen({ children, testId }: { children: ReactNode; testId: string }) {
  return (
    <FullScreen testId={testId}>
      <Stack align="center" justify="center" h="100%" p="md">
        <Paper p="xl" radius="lg" maw={640} w="100%" withBorder>
          <Stack gap="lg">{children}</Stack>
        </Paper>
      </Stack>
    </FullScreen>
  );
}

/** Asks the browser for full screen (needs the respondent's click); carries on without it when refused. */
export async function enterFullscreen(): Promise<void> {
  try {
    if (!document.fullscreenElement && document.documentElement.requestFullscreen) {
      await document.documentElement.requestFullscreen({ navigationUI: 'hide' });
    }
  } catch {
    // Refused (an iframe, a phone browser): the content still fills the window.
  }
}

export async function exitFullscreen(): Promise<void> {
  try {
    if (document.fullscreenElement) await document.exitFullscreen();
  } catch {
    // Already left.
  }
}
