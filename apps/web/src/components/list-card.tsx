import { Box, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { DataTable } from './data-table.tsx';
import { InlineLoadError } from './load-states.tsx';

/** The card every page section sits in: a bordered, rounded paper, roomier from a tablet up. */
export function SectionCard({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid={testId}>
      {children}
    </Paper>
  );
}

/** A section's title, with a dimmed line under it when given. */
export function SectionTitle({ title, hint }: { title: string; hint?: string }) {
  const heading = (
    <Title order={3} size="h4">
      {title}
    </Title>
  );
  if (!hint) return heading;
  return (
    <Stack gap={2}>
      {heading}
      <Text size="sm" c="dimmed">
        {hint}
      </Text>
    </Stack>
  );
}

/**
 * A card listing a page's items (tokens and the like): its title, the load error with a retry, the text when there
 * are none; a table of `columns` from `breakpoint` up and the items' cards below it.
 */
export function ListCard<T>(props: {
  title: string;
  hint?: string;
  testId: string;
  query: { isError: boolean; data: unknown; refetch: () => unknown };
  errorText: string;
  retryLabel: string;
  emptyText: string;
  emptyTestId: string;
  items: T[];
  breakpoint: 'sm' | 'md';
  minWidth: number;
  /** The header cells; an empty string for a column without one. */
  columns: string[];
  row: (item: T) => ReactNode;
  card: (item: T) => ReactNode;
}) {
  const { query, items } = props;
  return (
    <SectionCard testId={props.testId}>
      <Stack gap="md">
        <SectionTitle title={props.title} hint={props.hint} />
        {query.isError && (
          <InlineLoadError text={props.errorText} retryLabel={props.retryLabel} onRetry={() => query.refetch()} />
        )}
        {query.data !== undefined && items.length === 0 && (
          <Text size="sm" c="dimmed" data-testid={props.emptyTestId}>
            {props.emptyText}
          </Text>
        )}
        {items.length > 0 && (
          <>
            <Box visibleFrom={props.breakpoint}>
              <DataTable minWidth={props.minWidth} verticalSpacing="sm" fz="sm" columns={props.columns}>
                {items.map(props.row)}
              </DataTable>
            </Box>
            <Stack gap="sm" hiddenFrom={props.breakpoint}>
              {items.map(props.card)}
            </Stack>
          </>
        )}
      </Stack>
    </SectionCard>
  );
}
