import { type RecruitingService, type RecruitingToken, shareRecruitingTokenInput } from '@emolens/contracts';
import { ActionIcon, Button, CopyButton, Group, Modal, Paper, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconShare } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client.ts';
import { issueMessages, translateFields } from '../../i18n/messages.ts';
import { useUser } from '../auth/api.ts';
import { useRecruitingTokenActions } from './api.ts';
import { failed, toastOk } from './token-feedback.ts';

/** The user's public ID, which a colleague needs to share a token with them. */
export function YourUserId() {
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

/** Shares a token with a user by their public ID; an unknown ID or the owner's own is said under the field. */
export function ShareModal({
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
      setError(issueMessages(parsed.error).user_id);
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
