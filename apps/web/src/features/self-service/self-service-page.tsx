import type { SelfServiceTest } from '@emolens/contracts';
import { Alert, Button, Group, Stack, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMessageReport, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { openDeleteConfirm } from '../../components/confirm-delete.tsx';
import { ObjectPage, objectPageTexts } from '../../components/load-states.tsx';
import { BackLink } from '../../components/page-notices.tsx';
import { useDeleteSelfService, useSelfServiceTest } from './api.ts';
import { DraftWizard } from './draft-wizard.tsx';
import { notifyActionError } from './notify-action.ts';
import { StateBadge, useSelfServiceFormat } from './self-service-ui.tsx';
import { HistoryPanel, TestOverview } from './test-overview.tsx';

const LIST = '/cabinet/self-service';

/** self-service/{id} (issue 15, item 2): loads the test, then shows its wizard (a draft) or its state. */
export function SelfServicePage() {
  const { t } = useTranslation('selfService');
  const { id = '' } = useParams();
  const query = useSelfServiceTest(id);
  return (
    <ObjectPage query={query} testId="self-service" {...objectPageTexts(t, 'page', LIST)}>
      {(test) => <TestPage key={test.id} test={test} />}
    </ObjectPage>
  );
}

function TestPage({ test }: { test: SelfServiceTest }) {
  const { t } = useTranslation('selfService');
  const format = useSelfServiceFormat();
  const navigate = useNavigate();
  const remove = useDeleteSelfService(test.id);
  const [dirty, setDirty] = useState(false);
  // Everything the user may do comes from the server's `can`: the wizard only when the draft is theirs to edit.
  const editing = test.state === 'draft' && test.can.edit;

  const confirmDelete = () =>
    openDeleteConfirm({
      t,
      title: test.title,
      testId: 'confirm-action',
      onConfirm: () =>
        remove.mutateAsync(undefined, {
          onSuccess: () => {
            navigate(LIST);
            notifications.show({ color: 'green', message: t('delete.done', { title: test.title }) });
          },
          onError: (error) => notifyActionError(error),
        }),
    });

  const deleteButton = test.can.delete && (
    <Button
      color="red"
      variant="subtle"
      leftSection={<IconTrash size={16} />}
      onClick={confirmDelete}
      disabled={dirty}
      loading={remove.isPending}
      data-testid="self-service-delete"
    >
      {t('delete.button')}
    </Button>
  );

  return (
    <Stack gap="lg" maw={1200} data-testid="self-service-page" data-state={test.state}>
      <Stack gap={6}>
        <BackLink to={LIST} label={t('page.backToList')} />
        <Group justify="space-between" align="flex-start" gap="sm">
          <Stack gap={4} style={{ minWidth: 0, flex: '1 1 260px' }}>
            <Group gap="sm" align="center">
              <Title
                order={2}
                style={{ overflowWrap: 'break-word', minWidth: 0 }}
                data-testid="self-service-title-text"
              >
                {test.title}
              </Title>
              <StateBadge state={test.state} size="lg" />
            </Group>
            <Text size="sm" c="dimmed">
              {t('page.meta', {
                owner: test.owner.name || test.owner.username,
                created: format.dateTime(test.created_at),
              })}
            </Text>
          </Stack>
          {deleteButton &&
            (dirty ? (
              <Tooltip label={t('draft.saveFirst')} withArrow>
                <span>{deleteButton}</span>
              </Tooltip>
            ) : (
              deleteButton
            ))}
        </Group>
      </Stack>

      {test.state === 'draft' && test.moderation_comment && (
        <Alert
          color="orange"
          variant="light"
          icon={<IconMessageReport size={20} />}
          title={t('page.returnedTitle')}
          style={{ border: '1px solid var(--mantine-color-orange-4)' }}
          data-testid="self-service-returned"
        >
          <Stack gap={6}>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {test.moderation_comment}
            </Text>
            <Text size="xs" c="dimmed">
              {t('page.returnedHint')}
            </Text>
          </Stack>
        </Alert>
      )}

      {editing ? (
        <>
          <DraftWizard test={test} onDirtyChange={setDirty} />
          {test.history.length > 1 && <HistoryPanel test={test} />}
        </>
      ) : (
        <TestOverview test={test} />
      )}
    </Stack>
  );
}
