import { Button, Center, CloseButton, Group, Loader, Pagination, Text, TextInput } from '@mantine/core';
import { IconRefresh, IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';
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

/** A cabinet list's search field: the typed text, with a button that clears it. */
export function ListSearch(props: {
  value: string;
  onChange: (value: string) => void;
  /** Shown above the field, or (`hiddenLabel`) given to screen readers only. */
  label: string;
  hiddenLabel?: boolean;
  placeholder: string;
  clearLabel: string;
  width: number;
  testId: string;
}) {
  return (
    <TextInput
      label={props.hiddenLabel ? undefined : props.label}
      aria-label={props.hiddenLabel ? props.label : undefined}
      placeholder={props.placeholder}
      leftSection={<IconSearch size={16} />}
      value={props.value}
      onChange={(event) => props.onChange(event.currentTarget.value)}
      rightSection={
        props.value ? <CloseButton size="sm" aria-label={props.clearLabel} onClick={() => props.onChange('')} /> : null
      }
      w={{ base: '100%', sm: props.width }}
      maxLength={255}
      data-testid={props.testId}
    />
  );
}

/** The texts of a cabinet list's states (the list's own namespace). */
export interface ListTexts extends PagerLabels {
  loadErrorTitle: string;
  loadErrorText: string;
  retry: string;
  filteredTitle: string;
  filteredText: string;
  clearFilters: string;
}

/**
 * A list's texts by the keys every cabinet list's namespace has (`list.loadErrorTitle`, `empty.filteredTitle`,
 * `list.shown`…), with the clear-filters label its own.
 */
export function listTexts(
  t: (key: string, options?: Record<string, unknown>) => string,
  clearFilters: string,
): ListTexts {
  return {
    loadErrorTitle: t('list.loadErrorTitle'),
    loadErrorText: t('list.loadErrorText'),
    retry: t('actions.retry'),
    filteredTitle: t('empty.filteredTitle'),
    filteredText: t('empty.filteredText'),
    clearFilters,
    shown: (range) => t('list.shown', range),
    previous: t('list.previousPage'),
    next: t('list.nextPage'),
  };
}

type Page<T> = { page: number; page_size: number; total: number; items: T[] };

/**
 * A cabinet list under its filters: the loader; the load error with a retry; when empty, the filtered-out notice
 * with a way to clear the filters, or `empty` (what there is to make); else `table` of the page's items and the pager.
 * Every state but the rows carries `testId`.
 */
export function ListBody<T>(props: {
  list: { isPending: boolean; isError: boolean; data: Page<T> | undefined; refetch: () => unknown };
  testId: string;
  texts: ListTexts;
  filtered: boolean;
  onClearFilters: () => void;
  empty: { icon: ReactNode; title: string; text: string; action: ReactNode };
  page: number;
  onPage: (page: number) => void;
  table: (items: T[]) => ReactNode;
  countOnSinglePage?: boolean;
  countTestId?: string;
}) {
  const { list, texts } = props;
  const data = list.data;
  if (list.isPending) return <ListLoading />;
  if (list.isError && !data) {
    return (
      <ListLoadError
        testId={props.testId}
        title={texts.loadErrorTitle}
        text={texts.loadErrorText}
        retryLabel={texts.retry}
        onRetry={() => void list.refetch()}
      />
    );
  }
  if (!data) return null;
  if (data.items.length === 0) {
    return props.filtered ? (
      <EmptyState
        testId={props.testId}
        icon={<IconSearch size={28} />}
        title={texts.filteredTitle}
        text={texts.filteredText}
        action={
          <Button variant="default" onClick={props.onClearFilters}>
            {texts.clearFilters}
          </Button>
        }
      />
    ) : (
      <EmptyState testId={props.testId} {...props.empty} />
    );
  }
  return (
    <>
      {props.table(data.items)}
      <ListPager
        data={data}
        page={props.page}
        onPage={props.onPage}
        labels={texts}
        countOnSinglePage={props.countOnSinglePage}
        countTestId={props.countTestId}
      />
    </>
  );
}
