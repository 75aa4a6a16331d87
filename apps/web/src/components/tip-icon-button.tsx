import { ActionIcon, type ActionIconProps, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';

/** A subtle icon button named by its tooltip: the tooltip's text is also its accessible name. */
export function TipIconButton({
  label,
  onClick,
  testId,
  children,
  ...props
}: Omit<ActionIconProps, 'variant'> & {
  label: string;
  onClick: () => void;
  testId: string;
  children: ReactNode;
}) {
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon variant="subtle" aria-label={label} onClick={onClick} data-testid={testId} {...props}>
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
