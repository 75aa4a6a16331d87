import { Stack, Text, Title } from '@mantine/core';
import type { CSSProperties } from 'react';
import { BackLink } from './page-notices.tsx';

/**
 * A cabinet page's title and the dimmed line under it, with the link back to where it came from when given. A
 * `small` subtitle (a page with a back link or a long text) sits closer to the title.
 */
export function PageHeading({
  title,
  subtitle,
  back,
  small = false,
  maw,
  style,
}: {
  title: string;
  subtitle: string;
  back?: { to: string; label: string };
  small?: boolean;
  maw?: number;
  style?: CSSProperties;
}) {
  return (
    <Stack gap={small ? 6 : 4} maw={maw} style={style}>
      {back && <BackLink to={back.to} label={back.label} />}
      <Title order={2} style={back ? { overflowWrap: 'anywhere' } : undefined}>
        {title}
      </Title>
      <Text size={small ? 'sm' : undefined} c="dimmed">
        {subtitle}
      </Text>
    </Stack>
  );
}
