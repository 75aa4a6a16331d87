import { Button, Center, Group, Loader, Pagination, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { EmptyState } from './empty-state.tsx';

/** A cabinet list while its first page loads. */
export function ListLoading() {
  return (
    <Center py={80}>
      <Loader />
    </Center>
  );
}

/** A cabinet list that could not be loaded: the reason and a retry, where the rows would be. */
export function ListLoadError(props: {
  title: string;
  text: string;
  retryLabel: string;
  onRetry: () => void;
  testId: string;
}) {
  return (
    <EmptyState
      testId={props.testId}
      icon={<IconRefresh size={28} />}
      title={props.title}
      text={props.text}
      action={
        <Button variant="default" onClick={props.onRetry}>
          {props.retryLabel}
        </Button>
      }
    />
  );
}

export interface PagerLabels {
  shown: (range: { from: number; to: number; total: number }) => string;
  previous: string;
  next: string;
}

/**
 * Below a cabinet list: which rows are shown and the pages. On a single page the count is shown
 * only with `countOnSinglePage`.
 */
export function ListPager(props: {
  data: { page: number; page_size: number; total: number; items: readonly unknown[] };
  page: number;
  onPage: (page: number) => void;
  labels: PagerLabels;
  countOnSinglePage?: boolean;
  countTestId?: string;
}) {
  const { data, labels } = props;
  const pages = Math.max(1, Math.ceil(data.total / data.page_size));
  if (pages === 1 && !props.countOnSinglePage) return null;
  const first = (data.page - 1) * data.page_size;
  return (
    <Group justify="space-between" p="md">
      <Text size="sm" c="dimmed" data-testid={props.countTestId}>
        {labels.shown({ from: first + 1, to: first + data.items.length, total: data.total })}
      </Text>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={Math.min(props.page, pages)}
          onChange={props.onPage}
          getControlProps={(control) => ({
            'aria-label': control === 'previous' ? labels.previous : labels.next,
          })}
        />
      )}
    </Group>
  );
}
