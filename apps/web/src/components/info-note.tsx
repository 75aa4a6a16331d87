import { Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';

/**
 * An (i) beside a figure whose note says what it is and how it was made: the note opens on hover, on keyboard focus
 * and on touch, and is the icon's accessible name.
 */
export function InfoNote({ label, testId, maw = 320 }: { label: string; testId: string; maw?: number }) {
  return (
    <Tooltip label={label} withArrow multiline maw={maw} events={{ hover: true, focus: true, touch: true }}>
      <span
        role="img"
        aria-label={label}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the note opens on focus for keyboards and touch
        tabIndex={0}
        style={{ display: 'inline-flex', color: 'var(--mantine-color-dimmed)', cursor: 'help', flex: 'none' }}
        data-testid={testId}
      >
        <IconInfoCircle size={14} stroke={1.6} />
      </span>
    </Tooltip>
  );
}
