import { Button, Center, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEyeOff, IconRefresh } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { ApiRequestError } from '../api/client.ts';

/** Whether a page's load failed because the object is not there (or not the user's). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiRequestError && error.status === 404;
}

/**
 * Spec section 8: a failed load of the object a page shows — missing included — is a red
 * notification with the spec's text. Not for a lost session (the login page takes over).
 */
export function useLoadErrorNotice(error: unknown, message: string): void {
  useEffect(() => {
    if (!error) return;
    if (error instanceof ApiRequestError && error.isAuthError) return;
    notifications.show({ color: 'red', message, autoClose: 10_000 });
  }, [error, message]);
}

/** The object does not exist or is not the user's: say so and lead back to its list. */
export function NotFoundState(props: { title: string; text: string; back: string; backLabel: string; testId: string }) {
  return (
    <Center py={96} px="md" data-testid={props.testId}>
      <Stack align="center" gap="md" maw={520}>
        <ThemeIcon size={64} radius="xl" variant="light" color="gray">
          <IconEyeOff size={32} />
        </ThemeIcon>
        <Title order={2} ta="center">
          {props.title}
        </Title>
        <Text c="dimmed" ta="center">
          {props.text}
        </Text>
        <Button component={Link} to={props.back}>
          {props.backLabel}
        </Button>
      </Stack>
    </Center>
  );
}

/** The load failed for another reason: the spec's text and a retry. */
export function LoadErrorState(props: { text: string; retryLabel: string; onRetry: () => void; testId: string }) {
  return (
    <Center py={96} px="md" data-testid={props.testId}>
      <Stack align="center" gap="md" maw={520}>
        <Text c="dimmed" ta="center">
          {props.text}
        </Text>
        <Button leftSection={<IconRefresh size={16} />} onClick={props.onRetry}>
          {props.retryLabel}
        </Button>
      </Stack>
    </Center>
  );
}

export function LoadingState({ testId }: { testId: string }) {
  return (
    <Center h="60vh" data-testid={testId}>
      <Loader />
    </Center>
  );
}

/** A part of a page that failed to load: the reason in red and a small retry, in its place. */
export function InlineLoadError(props: { text: string; retryLabel: string; onRetry: () => void; testId?: string }) {
  return (
    <Group gap="sm" data-testid={props.testId}>
      <Text size="sm" c="red">
        {props.text}
      </Text>
      <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={props.onRetry}>
        {props.retryLabel}
      </Button>
    </Group>
  );
}
