import {
  linkMturkTokenInput,
  linkTolokaTokenInput,
  type RecruitingEnvironment,
  type RecruitingService,
  type RecruitingToken,
  shareRecruitingTokenInput,
} from '@emolens/contracts';
import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Code,
  CopyButton,
  Group,
  Input,
  Modal,
  Paper,
  PasswordInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconCopy, IconLock, IconPlugConnected, IconShare, IconTrash, IconX } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiRequestError } from '../../api/client.ts';
import { openConfirm } from '../../components/confirm.ts';
import { InlineLoadError } from '../../components/load-states.tsx';
import { translateFields, translateMessage } from '../../i18n/messages.ts';
import { useUser } from '../auth/api.ts';
import { errorMessage, notifyError } from '../errors/notify.ts';
import { useLinkRecruitingToken, useRecruitingTokenActions, useRecruitingTokens } from './api.ts';

/** The page's own texts of a service (the rest is shared under `tokens`). */
const TEXTS = { toloka: 'toloka', mturk: 'amazon' } as const;

/** Field messages of a failed check, by field path. */
function issuesOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = issue.path.join('.');
    if (path && !(path in errors)) errors[path] = translateMessage(issue.message);
  }
  return errors;
}

const toastOk = (message: string) => notifications.show({ color: 'green', message, autoClose: 4000 });

/**
 * A failed call that the page handles itself: the field messages go under the fields, and the red notification of
 * spec section 8 says the message once.
 */
function failed(error: unknown, setErrors?: (errors: Record<string, string>) => void) {
  if (error instanceof ApiRequestError && error.isAuthError) return;
  const fields = error instanceof ApiRequestError ? translateFields(error) : {};
  if (setErrors && Object.keys(fields).length > 0) {
    setErrors(fields);
    notifications.show({ color: 'red', message: errorMessage(error) });
    return;
  }
  notifyError(error);
}

/** Badges keep their whole text in a narrow table column. */
const WHOLE = { minWidth: 'max-content' } as const;

/**
 * Cabinet → Toloka (also at /cabinet/yandex-tasks) and Cabinet → Amazon (spec sections 2, 3, 6): the user's
 * tokens of the service and those shared with them — link (checked with the service), activate, delete, share
 * by user ID, revoke a share. Secrets are typed once and never shown again.
 */
export function RecruitingTokensPage({ service }: { service: RecruitingService }) {
  const { t } = useTranslation('integrations');
  const texts = TEXTS[service];
  const tokens = useRecruitingTokens(service);
  const actions = useRecruitingTokenActions(service);
  const [sharing, setSharing] = useState<RecruitingToken | null>(null);
  const serviceName = t(`${texts}.service`);
  const nameOf = (token: RecruitingToken) => token.description || token.hint;

  const activate = (token: RecruitingToken) =>
    actions.activate.mutate(token.id, { onSuccess: () => toastOk(t('tokens.activated')) });
  const confirmDelete = (token: RecruitingToken) =>
    openConfirm({
      title: t('tokens.deleteTitle'),
      children: <Text size="sm">{t('tokens.deleteText', { name: nameOf(token), service: serviceName })}</Text>,
      labels: { confirm: t('tokens.delete'), cancel: t('tokens.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () => actions.remove.mutateAsync(token.id, { onSuccess: () => toastOk(t('tokens.deleted')) }),
    });
  const confirmRevoke = (token: RecruitingToken, user: { public_user_id: string; username: string }) =>
    openConfirm({
      title: t('tokens.revokeTitle'),
      children: <Text size="sm">{t('tokens.revokeText', { user: user.username, name: nameOf(token) })}</Text>,
      labels: { confirm: t('tokens.revoke'), cancel: t('tokens.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () =>
        actions.revoke.mutateAsync(
          { id: token.id, publicUserId: user.public_user_id },
          { onSuccess: () => toastOk(t('tokens.revoked')) },
        ),
    });
  const handlers: Handlers = { activate, share: setSharing, remove: confirmDelete, revoke: confirmRevoke };

  const items = tokens.data?.items ?? [];
  return (
    <Stack gap="lg" maw={1180} data-testid={`recruiting-tokens-${service}`}>
      <Group justify="space-between" align="flex-start" gap="md">
        <Stack gap={4} maw={760} style={{ flex: '1 1 420px' }}>
          <Title order={2}>{t(`${texts}.title`)}</Title>
          <Text c="dimmed">{t(`${texts}.subtitle`)}</Text>
        </Stack>
        <YourUserId />
      </Group>

      <LinkForm service={service} canLink={tokens.data?.can.link ?? false} />

      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} data-testid="recruiting-token-list">
        <Stack gap="md">
          <Stack gap={2}>
            <Title order={3} size="h4">
              {t('tokens.listTitle')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('tokens.listHint')}
            </Text>
          </Stack>
          {tokens.isError && (
            <InlineLoadError
              text={t('tokens.loadFailed')}
              retryLabel={t('tokens.retry')}
              onRetry={() => tokens.refetch()}
            />
          )}
          {tokens.data && items.length === 0 && (
            <Text size="sm" c="dimmed" data-testid="recruiting-token-none">
              {t('tokens.none')}
            </Text>
          )}
          {items.length > 0 && (
            <>
              <Box visibleFrom="md">
                <Table.ScrollContainer minWidth={900}>
                  <Table verticalSpacing="sm" fz="sm">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>{t('tokens.description')}</Table.Th>
                        <Table.Th>{t('tokens.status')}</Table.Th>
                        <Table.Th>{t('tokens.environment')}</Table.Th>
                        <Table.Th>{service === 'toloka' ? t('tokens.token') : t('amazon.accessKeyId')}</Table.Th>
                        <Table.Th>{t('tokens.owner')}</Table.Th>
                        <Table.Th>{t('tokens.sharedWith')}</Table.Th>
                        <Table.Th>{t('tokens.linkedAt')}</Table.Th>
                        <Table.Th />
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {items.map((token) => (
                        <TokenRow key={token.id} token={token} handlers={handlers} />
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Box>
              <Stack gap="sm" hiddenFrom="md">
                {items.map((token) => (
                  <TokenCard key={token.id} token={token} handlers={handlers} service={service} />
                ))}
              </Stack>
            </>
          )}
        </Stack>
      </Paper>

      <ShareModal service={service} token={sharing} onClose={() => setSharing(null)} />
    </Stack>
  );
}

/** The user's public ID, which a colleague needs to share a token with them. */
function YourUserId() {
  const { t } = useTranslation('integrations');
  const id = useUser().data?.public_user_id;
  if (!id) return null;
  return (
    <Paper withBorder radius="md" px="md" py="xs" data-testid="your-user-id">
      <Group gap="sm" wrap="nowrap">
        <Stack gap={0}>
          <Text size="xs" c="dimmed">
            {t('tokens.yourId')}
          </Text>
          <Text fw={600} ff="monospace">
            {id}
          </Text>
        </Stack>
        <CopyButton value={id}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('tokens.copied') : t('tokens.yourIdHint')} withArrow multiline w={220}>
              <ActionIcon
                variant="subtle"
                color={copied ? 'teal' : 'gray'}
                onClick={copy}
                aria-label={t('tokens.copy')}
              >
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Paper>
  );
}

/** Labels in one line, the inputs under them, then the hints and messages: the inputs line up across the row. */
const ORDER: ('label' | 'input' | 'description' | 'error')[] = ['label', 'input', 'description', 'error'];

const EMPTY = { description: '', token: '', access_key_id: '', secret_access_key: '' };

/** Toloka: description, OAuth token, environment. Amazon: description, access key ID, secret, environment. */
function LinkForm({ service, canLink }: { service: RecruitingService; canLink: boolean }) {
  const { t } = useTranslation('integrations');
  const texts = TEXTS[service];
  const link = useLinkRecruitingToken(service);
  const [values, setValues] = useState(EMPTY);
  const [environment, setEnvironment] = useState<RecruitingEnvironment>('production');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (field: keyof typeof EMPTY) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors(({ [field]: _, ...rest }) => rest);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body =
      service === 'toloka'
        ? { description: values.description, token: values.token, environment }
        : {
            description: values.description,
            access_key_id: values.access_key_id,
            secret_access_key: values.secret_access_key,
            environment,
          };
    const parsed = (service === 'toloka' ? linkTolokaTokenInput : linkMturkTokenInput).safeParse(body);
    if (!parsed.success) {
      setErrors(issuesOf(parsed.error));
      return;
    }
    setErrors({});
    link.mutate(parsed.data as never, {
      onSuccess: (token) => {
        setValues(EMPTY);
        toastOk(token.active ? t('tokens.linkedActive') : t('tokens.linked'));
      },
      onError: (error) => failed(error, setErrors),
    });
  };

  const secretField =
    service === 'toloka' ? (
      <PasswordInput
        inputWrapperOrder={ORDER}
        label={t('toloka.token')}
        description={t('toloka.tokenHint')}
        withAsterisk
        autoComplete="off"
        value={values.token}
        onChange={(e) => set('token')(e.currentTarget.value)}
        error={errors.token}
        data-testid="recruiting-token-secret"
      />
    ) : (
      <>
        <TextInput
          inputWrapperOrder={ORDER}
          label={t('amazon.accessKeyId')}
          description={t('amazon.accessKeyHint')}
          withAsterisk
          autoComplete="off"
          spellCheck={false}
          value={values.access_key_id}
          onChange={(e) => set('access_key_id')(e.currentTarget.value.toUpperCase().replace(/\s+/g, ''))}
          error={errors.access_key_id}
          data-testid="recruiting-token-access-key"
        />
        <PasswordInput
          inputWrapperOrder={ORDER}
          label={t('amazon.secretAccessKey')}
          description={t('amazon.secretHint')}
          withAsterisk
          autoComplete="off"
          value={values.secret_access_key}
          onChange={(e) => set('secret_access_key')(e.currentTarget.value)}
          error={errors.secret_access_key}
          data-testid="recruiting-token-secret"
        />
      </>
    );

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="form" onSubmit={submit} noValidate>
      <Stack gap="md">
        <Title order={3} size="h4">
          {t('tokens.linkTitle')}
        </Title>
        <SimpleGrid
          cols={{ base: 1, sm: 2, lg: service === 'toloka' ? 3 : 4 }}
          spacing="md"
          verticalSpacing="md"
          style={{ alignItems: 'start' }}
        >
          <TextInput
            inputWrapperOrder={ORDER}
            label={t('tokens.description')}
            placeholder={t(`${texts}.descriptionPlaceholder`)}
            withAsterisk
            value={values.description}
            onChange={(e) => set('description')(e.currentTarget.value)}
            error={errors.description}
            data-testid="recruiting-token-description"
          />
          {secretField}
          <Input.Wrapper
            inputWrapperOrder={ORDER}
            label={t('tokens.environment')}
            description={t('tokens.environmentHint')}
            error={errors.environment}
          >
            <SegmentedControl
              fullWidth
              value={environment}
              onChange={(value) => setEnvironment(value as RecruitingEnvironment)}
              data={[
                { value: 'production', label: t('tokens.environments.production') },
                { value: 'sandbox', label: t('tokens.environments.sandbox') },
              ]}
              data-testid="recruiting-token-environment"
            />
          </Input.Wrapper>
        </SimpleGrid>
        <Group justify="space-between" align="center" gap="sm">
          <Group gap={6} wrap="nowrap" style={{ flex: '1 1 300px' }}>
            <IconLock size={16} color="var(--mantine-color-dimmed)" style={{ flexShrink: 0 }} />
            <Text size="xs" c="dimmed">
              {t('tokens.secretNote')}
            </Text>
          </Group>
          <Button
            type="submit"
            leftSection={<IconPlugConnected size={16} />}
            loading={link.isPending}
            disabled={!canLink}
            data-testid="recruiting-token-link"
          >
            {t('tokens.link')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Shares a token with a user by their public ID; an unknown ID or the owner's own is said under the field. */
function ShareModal({
  service,
  token,
  onClose,
}: {
  service: RecruitingService;
  token: RecruitingToken | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('integrations');
  const { share } = useRecruitingTokenActions(service);
  const [userId, setUserId] = useState('');
  const [error, setError] = useState<string | undefined>();
  const close = () => {
    setUserId('');
    setError(undefined);
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!token) return;
    const parsed = shareRecruitingTokenInput.safeParse({ user_id: userId });
    if (!parsed.success) {
      setError(issuesOf(parsed.error).user_id);
      return;
    }
    share.mutate(
      { id: token.id, userId: parsed.data.user_id },
      {
        onSuccess: () => {
          toastOk(t('tokens.shared', { user: parsed.data.user_id.toUpperCase() }));
          close();
        },
        onError: (failure) => {
          const field = failure instanceof ApiRequestError ? translateFields(failure).user_id : undefined;
          if (field) setError(field);
          else failed(failure);
        },
      },
    );
  };
  return (
    <Modal opened={token !== null} onClose={close} title={t('tokens.shareTitle')} centered data-testid="share-dialog">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm">{t('tokens.shareText', { name: token ? token.description || token.hint : '' })}</Text>
          <TextInput
            label={t('tokens.userId')}
            description={t('tokens.userIdHint')}
            withAsterisk
            autoComplete="off"
            data-autofocus
            value={userId}
            onChange={(e) => {
              setUserId(e.currentTarget.value);
              setError(undefined);
            }}
            error={error}
            data-testid="share-user-id"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('tokens.cancel')}
            </Button>
            <Button type="submit" leftSection={<IconShare size={16} />} loading={share.isPending}>
              {t('tokens.shareSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

interface Handlers {
  activate: (token: RecruitingToken) => void;
  share: (token: RecruitingToken) => void;
  remove: (token: RecruitingToken) => void;
  revoke: (token: RecruitingToken, user: { public_user_id: string; username: string }) => void;
}

/** The cells of a token; `compact` (the desktop table) turns sharing and deleting into icon buttons. */
function useTokenCells(token: RecruitingToken, handlers: Handlers, compact: boolean) {
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
    hint: <Code style={{ whiteSpace: 'nowrap' }}>{token.service === 'toloka' ? `••••${token.hint}` : token.hint}</Code>,
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

function TokenRow({ token, handlers }: { token: RecruitingToken; handlers: Handlers }) {
  const c = useTokenCells(token, handlers, true);
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

function TokenCard({
  token,
  handlers,
  service,
}: {
  token: RecruitingToken;
  handlers: Handlers;
  service: RecruitingService;
}) {
  const { t } = useTranslation('integrations');
  const c = useTokenCells(token, handlers, false);
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
        {line(service === 'toloka' ? t('tokens.token') : t('amazon.accessKeyId'), c.hint)}
        {line(t('tokens.owner'), c.owner)}
        {line(t('tokens.sharedWith'), c.shared)}
        {line(t('tokens.linkedAt'), c.linked)}
        {c.actions}
      </Stack>
    </Paper>
  );
}
