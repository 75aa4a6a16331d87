import { Table, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A table of the cabinet: scrolled sideways below `minWidth`, a header row of `columns` (an empty string for a
 * column without a title), `children` the rows; the rest are the table's own props (striped, spacing, test id…).
 */
export function DataTable({
  minWidth,
  columns,
  children,
  ...table
}: { minWidth: number; columns: string[]; children: ReactNode } & Omit<TableProps, 'children'> & {
    'data-testid'?: string;
  }) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table {...table}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed; an untitled one may repeat
              <Table.Th key={i}>{column || null}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
