import { Box } from '@mantine/core';
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
