import { isMessageKey } from '@emolens/contracts';
import { Alert, Anchor, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { translateMessage } from '../../i18n/messages.ts';

/**
 * Why a research's pool or HIT cannot be made or run now (the server's message keys), with the way to the tokens
 * page when a token is what is missing.
 */
export function RecruitingProblems({
  problems,
  tokensPath,
  tokensLabel,
  testId,
}: {
  problems: string[];
  tokensPath: string;
  tokensLabel: string;
  testId: string;
}) {
  if (!problems.length) return null;
  return (
    <Alert color="orange" icon={<IconAlertTriangle size={18} />} data-testid={testId}>
      <Stack gap={4}>
        {problems.filter(isMessageKey).map((problem) => (
          <Text key={problem} size="sm">
            {translateMessage({ key: problem })}
          </Text>
        ))}
        {problems.some((p) => p.startsWith('oauth.')) && (
          <Anchor component={Link} to={tokensPath} size="sm">
            {tokensLabel}
          </Anchor>
        )}
      </Stack>
    </Alert>
  );
}

/** A card of labelled facts in two columns (one on a phone); a string value wraps anywhere. */
export function FactsCard({ facts, testId }: { facts: [string, ReactNode][]; testId: string }) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid={testId}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="sm">
        {facts.map(([label, value]) => (
          <Stack key={label} gap={2}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            {typeof value === 'string' ? (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {value}
              </Text>
            ) : (
              value
            )}
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
