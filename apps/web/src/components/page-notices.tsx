import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconRefresh } from '@tabler/icons-react';
import { Link } from 'react-router';

/** The link above a cabinet page's title, back to its list. */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Anchor component={Link} to={to} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} />
        {label}
      </Group>
    </Anchor>
  );
}

/** A save refused because someone else changed the object meanwhile: what happened and a reload. */
export function ConflictAlert(props: {
  title: string;
  message: string;
  text: string;
  reloadLabel: string;
  onReload: () => void;
  testId: string;
}) {
  return (
    <Alert color="red" variant="light" icon={<IconRefresh size={18} />} title={props.title} data-testid={props.testId}>
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{props.message}</Text>
        <Text size="sm">{props.text}</Text>
        <Button size="xs" color="red" variant="light" leftSection={<IconRefresh size={14} />} onClick={props.onReload}>
          {props.reloadLabel}
        </Button>
      </Stack>
    </Alert>
  );
}
