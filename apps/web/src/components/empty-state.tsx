import { Center, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import type { ReactNode } from 'react';

/** What a list shows when it has nothing: what is missing and what to do about it. */
export function EmptyState({
  icon,
  title,
  text,
  action,
  testId,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  action: ReactNode;
  testId: string;
}) {
  return (
    <Center py={64} px="md" data-testid={testId}>
      <Stack align="center" gap="sm" maw={560}>
        <ThemeIcon size={56} radius="xl" variant="light" color="indigo">
          {icon}
        </ThemeIcon>
        <Text fw={700} size="lg" ta="center">
          {title}
        </Text>
        <Text c="dimmed" ta="center" size="sm">
          {text}
        </Text>
        {action && <Group mt="xs">{action}</Group>}
      </Stack>
    </Center>
  );
}
