import type { RecruitingToken } from '@emolens/contracts';
import { ActionIcon, Badge, Box, Button, Code, Group, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconShare, IconTrash, IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TokenPlatform } from './token-platforms.ts';

/** Badges keep their whole text in a narrow table column. */
const WHOLE = { minWidth: 'max-content' } as const;

export interface Handlers {
  activate: (token: RecruitingToken) => void;
  share: (token: RecruitingToken) => void;
  remove: (token: RecruitingToken) => void;
  revoke: (token: RecruitingToken, user: { public_user_id: string; username: string }) => void;
}

interface TokenProps {
  token: RecruitingToken;
  handlers: Handlers;
  platform: TokenPlatform;
}

/** The cells of a token; `compact` (the desktop table) turns sharing and deleting into icon buttons. */
function useTokenCells({ token, handlers, platform }: TokenProps, compact: boolean) {
  const { t, i18n } = useTranslation('integrations');
  const when = (iso: string) =>
    new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'medium' }).format(new Date(iso));
  const deleteButton = compact ? (
    <ActionIcon
      variant="light"
      color="red"
      size="md"
      disabled={!token.can.delete}
      onClick={() => handlers.remove(token)}
      aria-label={t('tokens.delete')}
      data-testid="token-delete"
    >
      <IconTrash size={16} />
    </ActionIcon>
  ) : (
    <Button
      size="xs"
      variant="light"
      color="red"
      leftSection={<IconTrash size={14} />}
      disabled={!token.can.delete}
      onClick={() => handlers.remove(token)}
      data-testid="token-delete"
    >
      {t('tokens.delete')}
    </Button>
  );
  const activeBadge = (
    <Badge
      color="green"
      variant="light"
      tt="none"
      style={WHOLE}
      leftSection={<IconCheck size={12} />}
      data-testid="token-active"
    >
      {t('tokens.active')}
    </Badge>
  );
  const activateButton = (
    <Button size="xs" variant="light" onClick={() => handlers.activate(token)} data-testid="token-activate">
      {t('tokens.activate')}
    </Button>
  );
  const cells: Record<
    'name' | 'status' | 'environment' | 'hint' | 'owner' | 'shared' | 'linked' | 'actions',
    ReactNode
  > = {
    name: (
      <Group gap={6} wrap="wrap">
        <Text size="sm" fw={500}>
          {token.description}
        </Text>
        {!compact && token.active && activeBadge}
      </Group>
    ),
    /** The table's own column: active, or the button that makes it so. */
    status: token.active ? activeBadge : token.can.activate ? activateButton : null,
    environment: (
      <Badge color={token.environment === 'production' ? 'indigo' : 'yellow'} variant="outline" tt="none" style={WHOLE}>
        {t(`tokens.environments.${token.environment}`)}
      </Badge>
    ),
    hint: <Code style={{ whiteSpace: 'nowrap' }}>{platform.hint(token)}</Code>,
    owner: token.mine ? (
      <Text size="sm">{t('tokens.you')}</Text>
    ) : (
      <Stack gap={0}>
        <Text size="sm">{token.owner.username}</Text>
        <Text size="xs" c="dimmed" ff="monospace">
          {token.owner.public_user_id}
        </Text>
      </Stack>
    ),
    shared:
      token.shared_with === null ? (
        <Tooltip label={t('tokens.notShown')} withArrow>
          <Text size="sm" c="dimmed" span>
            —
          </Text>
        </Tooltip>
      ) : token.shared_with.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('tokens.nobody')}
        </Text>
      ) : (
        <Group gap={6}>
          {token.shared_with.map((user) => (
            <Tooltip
              key={user.public_user_id}
              label={user.active ? t('tokens.activeForUser') : user.public_user_id}
              withArrow
              multiline
              maw={260}
            >
              <Badge
                variant="light"
                color={user.active ? 'green' : 'gray'}
                tt="none"
                style={WHOLE}
                pr={user.can.revoke ? 3 : undefined}
                leftSection={user.active ? <IconCheck size={12} /> : undefined}
                rightSection={
                  user.can.revoke ? (
                    <ActionIcon
                      size="xs"
                      variant="transparent"
                      color="gray"
                      onClick={() => handlers.revoke(token, user)}
                      aria-label={t('tokens.revokeShare', { user: user.username })}
                      data-testid="share-revoke"
                    >
                      <IconX size={12} />
                    </ActionIcon>
                  ) : undefined
                }
                data-testid="share-chip"
              >
                {user.username}
              </Badge>
            </Tooltip>
          ))}
        </Group>
      ),
    linked: (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {when(token.created_at)}
      </Text>
    ),
    actions: (
      <Group gap="xs" wrap={compact ? 'nowrap' : 'wrap'} justify="flex-end">
        {!compact && token.can.activate && activateButton}
        {token.can.share &&
          (compact ? (
            <Tooltip label={t('tokens.share')} withArrow>
              <ActionIcon
                variant="default"
                size="md"
                onClick={() => handlers.share(token)}
                aria-label={t('tokens.share')}
                data-testid="token-share"
              >
                <IconShare size={16} />
              </ActionIcon>
            </Tooltip>
          ) : (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconShare size={14} />}
              onClick={() => handlers.share(token)}
              data-testid="token-share"
            >
              {t('tokens.share')}
            </Button>
          ))}
        {token.mine && (
          <Tooltip
            label={token.can.delete ? t('tokens.delete') : t('tokens.deleteShared')}
            disabled={token.can.delete && !compact}
            withArrow
            multiline
            maw={240}
          >
            {/* A disabled button gets no pointer events: the wrapper carries the tooltip. */}
            <Box component="span" style={{ display: 'inline-flex' }}>
              {deleteButton}
            </Box>
          </Tooltip>
        )}
      </Group>
    ),
  };
  return cells;
}

export function TokenRow(props: TokenProps) {
  const { token } = props;
  const c = useTokenCells(props, true);
  return (
    <Table.Tr data-testid="recruiting-token-row" bg={token.active ? 'var(--mantine-color-green-light)' : undefined}>
      <Table.Td>{c.name}</Table.Td>
      <Table.Td>{c.status}</Table.Td>
      <Table.Td>{c.environment}</Table.Td>
      <Table.Td>{c.hint}</Table.Td>
      <Table.Td>{c.owner}</Table.Td>
      <Table.Td>{c.shared}</Table.Td>
      <Table.Td>{c.linked}</Table.Td>
      <Table.Td>{c.actions}</Table.Td>
    </Table.Tr>
  );
}

export function TokenCard(props: TokenProps) {
  const { token, platform } = props;
  const { t } = useTranslation('integrations');
  const c = useTokenCells(props, false);
  const line = (label: string, value: ReactNode) => (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Text size="xs" c="dimmed" w={110} style={{ flexShrink: 0 }} pt={2}>
        {label}
      </Text>
      <Box style={{ minWidth: 0 }}>{value}</Box>
    </Group>
  );
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      data-testid="recruiting-token-card"
      style={token.active ? { borderColor: 'var(--mantine-color-green-5)' } : undefined}
    >
      <Stack gap={8}>
        {c.name}
        {line(t('tokens.environment'), c.environment)}
        {line(t(platform.hintLabel), c.hint)}
        {line(t('tokens.owner'), c.owner)}
        {line(t('tokens.sharedWith'), c.shared)}
        {line(t('tokens.linkedAt'), c.linked)}
        {c.actions}
      </Stack>
    </Paper>
  );
}
