import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './public.module.css';

interface SectionHeaderProps {
  eyebrow?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  align?: 'left' | 'center';
}

/** The eyebrow, heading and lead paragraph that open every section of the public pages. */
export function SectionHeader({ eyebrow, title, description, align = 'center' }: SectionHeaderProps) {
  const centered = align === 'center';
  return (
    <Stack
      gap="sm"
      align={centered ? 'center' : 'flex-start'}
      ta={centered ? 'center' : 'left'}
      maw={760}
      mx={centered ? 'auto' : 0}
    >
      {eyebrow && <Text className={classes.eyebrow}>{eyebrow}</Text>}
      <Title order={2} className={classes.sectionTitle}>
        {title}
      </Title>
      {description && (
        <Text size="lg" c="dimmed">
          {description}
        </Text>
      )}
    </Stack>
  );
}
