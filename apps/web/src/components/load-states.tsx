import { Button, Center, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEyeOff, IconRefresh } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { type ReactNode, useEffect } from 'react';
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

/**
 * An object page's texts from the keys `{prefix}.loadError`, `.notFoundTitle`, `.notFoundText`, `.backToList` and
 * `actions.retry` of the namespace `t` reads, its missing object's notice leading back to `back`.
 */
export function objectPageTexts(t: TFunction, prefix: string, back: string) {
  return {
    errorText: t(`${prefix}.loadError`),
    retryLabel: t('actions.retry'),
    notFound: {
      title: t(`${prefix}.notFoundTitle`),
      text: t(`${prefix}.notFoundText`),
      back,
      backLabel: t(`${prefix}.backToList`),
    },
  };
}

/**
 * A page of one object (spec section 2: loaded first, then shown): `children` with the object once loaded; until
 * then the loader, or the missing object's notice leading back to its list, or the load error with a retry — each
 * with a test id `{testId}-loading`, `-not-found`, `-load-error`. A failed load is told in a red notification too
 * (but for a missing object when `noticeNotFound` is false). With `preferData` an object already shown stays shown
 * when a later load fails.
 */
export function ObjectPage<T>(props: {
  query: { data: T | undefined; error: unknown; isError: boolean; refetch: () => unknown };
  testId: string;
  errorText: string;
  retryLabel: string;
  notFound: { title: string; text: string; back: string; backLabel: string };
  noticeNotFound?: boolean;
  preferData?: boolean;
  children: (data: T) => ReactNode;
}) {
  const { query, testId, noticeNotFound = true } = props;
  useLoadErrorNotice(noticeNotFound || !isNotFound(query.error) ? query.error : null, props.errorText);
  if (props.preferData && query.data !== undefined) return props.children(query.data);
  if (isNotFound(query.error)) return <NotFoundState {...props.notFound} testId={`${testId}-not-found`} />;
  if (query.data !== undefined) return props.children(query.data);
  if (query.isError) {
    return (
      <LoadErrorState
        text={props.errorText}
        retryLabel={props.retryLabel}
        onRetry={() => void query.refetch()}
        testId={`${testId}-load-error`}
      />
    );
  }
  return <LoadingState testId={`${testId}-loading`} />;
}

/** A part of a panel while its data loads: a small loader, or the reason it failed with a retry; nothing once loaded. */
export function InlineLoadState(props: {
  query: { isPending: boolean; isError: boolean; refetch: () => unknown };
  text: string;
  retryLabel: string;
}) {
  const { query } = props;
  if (query.isPending) {
    return (
      <Center py="lg">
        <Loader size="sm" />
      </Center>
    );
  }
  if (!query.isError) return null;
  return <InlineLoadError text={props.text} retryLabel={props.retryLabel} onRetry={() => void query.refetch()} />;
}

/**
 * A panel's data until it first comes: the load error with a retry, or a small loader while it loads; nothing once
 * there is data (a later failed load leaves what was shown).
 */
export function FirstLoadState(props: {
  query: { data: unknown; isError: boolean; isPending: boolean; refetch: () => unknown };
  text: string;
  retryLabel: string;
}) {
  const { query } = props;
  if (query.data !== undefined) return null;
  if (query.isError) {
    return <InlineLoadError text={props.text} retryLabel={props.retryLabel} onRetry={() => query.refetch()} />;
  }
  return query.isPending ? <Loader size="sm" /> : null;
}
