import { Group, Text } from '@mantine/core';
import { Link } from 'react-router';

export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true">
      <rect width="64" height="64" rx="14" fill="var(--mantine-color-indigo-7)" />
      <ellipse cx="32" cy="32" rx="22" ry="14" fill="none" stroke="#fff" strokeWidth="5" />
      <circle cx="32" cy="32" r="7" fill="#ffcf4a" />
    </svg>
  );
}

export function Logo({ to = '/home' }: { to?: string }) {
  return (
    <Link to={to} style={{ textDecoration: 'none', color: 'inherit' }} aria-label="Emolens">
      <Group gap={8} wrap="nowrap">
        <LogoMark />
        <Text fw={800} fz="lg" lts={-0.3}>
          Emolens
        </Text>
      </Group>
    </Link>
  );
}
