import { Box, SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** A phone card's figures, two a row: each a dimmed label over its value. */
export function FactsGrid({ facts }: { facts: [string, ReactNode][] }) {
  return (
    <SimpleGrid cols={2} spacing="xs" verticalSpacing={6}>
      {facts.map(([label, value]) => (
        <Box key={label} miw={0}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Box fz="sm">{value}</Box>
        </Box>
      ))}
    </SimpleGrid>
  );
}
