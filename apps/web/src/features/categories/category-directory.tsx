// The categories directory (categories-page.tsx): its values by kind; managers add, rename and remove them.
import {
  CATEGORY_KINDS,
  type CategoryEntry,
  type CategoryKind,
  CONTENT_TYPES,
  type ContentType,
} from '@emolens/contracts';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Paper,
  ScrollArea,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconPencil, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/client.ts';
import { openConfirm } from '../../components/confirm.ts';
import { translateFields } from '../../i18n/messages.ts';
import { notifyError } from '../errors/notify.ts';
import { useCategoryAction } from './api.ts';

export function Directory({ entries, manage }: { entries: CategoryEntry[]; manage: boolean }) {
  const { t } = useTranslation('categories');
  const [kind, setKind] = useState<CategoryKind>('subtype');
  const shown = entries.filter((e) => e.kind === kind);
  return (
    <Paper withBorder radius="lg" p="md">
      <Stack gap="md">
        <Title order={3} size="h4">
          {t('directory.title')}
        </Title>
        <Tabs value={kind} onChange={(value) => value && setKind(value as CategoryKind)}>
          <ScrollArea type="auto" offsetScrollbars>
            <Tabs.List style={{ flexWrap: 'nowrap' }}>
              {CATEGORY_KINDS.map((k) => (
                <Tabs.Tab key={k} value={k} data-testid={`category-tab-${k}`}>
                  {t(`kinds.${k}`)}{' '}
                  <Badge size="xs" variant="light" color="gray">
                    {entries.filter((e) => e.kind === k).length}
                  </Badge>
                </Tabs.Tab>
              ))}
            </Tabs.List>
          </ScrollArea>
        </Tabs>
        {kind === 'subtype' && (
          <Text size="sm" c="dimmed">
            {t('directory.subtypeHint')}
          </Text>
        )}
        {manage && <AddCategory kind={kind} key={kind} />}
        {shown.length === 0 ? (
          <Text c="dimmed" ta="center" py="lg" data-testid="categories-empty">
            {t('directory.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={420}>
            <Table verticalSpacing="xs" data-testid="categories-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('directory.name')}</Table.Th>
                  {kind === 'subtype' && <Table.Th>{t('directory.contentType')}</Table.Th>}
                  <Table.Th>{t('directory.usedBy')}</Table.Th>
                  {manage && <Table.Th w={90} />}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((entry) => (
                  <CategoryRow key={entry.id} entry={entry} manage={manage} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}

function useContentTypeOptions() {
  const { t } = useTranslation('researches');
  return CONTENT_TYPES.map((value) => ({ value, label: t(`contentTypes.${value}`) }));
}

function AddCategory({ kind }: { kind: CategoryKind }) {
  const { t } = useTranslation('categories');
  const action = useCategoryAction();
  const contentTypes = useContentTypeOptions();
  const [name, setName] = useState('');
  const [contentType, setContentType] = useState<ContentType | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const submit = () => {
    setErrors({});
    action.mutate(
      { kind: 'create', input: { kind, name, content_type: kind === 'subtype' ? contentType : null } },
      {
        onSuccess: () => {
          setName('');
          notifications.show({ color: 'teal', message: t('directory.added') });
        },
        onError: (error) => {
          const fields = fieldMessages(error);
          if (Object.keys(fields).length) setErrors(fields);
          else notifyError(error);
        },
      },
    );
  };
  return (
    <Group align="flex-start" gap="sm" wrap="wrap" data-testid="category-add">
      <TextInput
        style={{ flex: '1 1 220px' }}
        placeholder={t('directory.newName')}
        aria-label={t('directory.newName')}
        value={name}
        error={errors.name}
        onChange={(e) => setName(e.currentTarget.value)}
        onKeyDown={(e) => e.key === 'Enter' && submit()}
        data-testid="category-name"
      />
      {kind === 'subtype' && (
        <Select
          style={{ flex: '0 1 200px' }}
          placeholder={t('directory.contentType')}
          aria-label={t('directory.contentType')}
          data={contentTypes}
          value={contentType}
          error={errors.content_type}
          onChange={(value) => setContentType(value as ContentType | null)}
          data-testid="category-content-type"
        />
      )}
      <Button
        leftSection={<IconPlus size={16} />}
        onClick={submit}
        loading={action.isPending}
        data-testid="category-submit"
      >
        {t('directory.add')}
      </Button>
    </Group>
  );
}

/** The field messages of a refused request, translated. */
const fieldMessages = (error: unknown) => (error instanceof ApiRequestError ? translateFields(error) : {});

function CategoryRow({ entry, manage }: { entry: CategoryEntry; manage: boolean }) {
  const { t } = useTranslation('categories');
  const tc = useTranslation('researches').t;
  const action = useCategoryAction();
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const save = () => {
    if (editing === null) return;
    action.mutate(
      { kind: 'rename', id: entry.id, name: editing },
      {
        onSuccess: () => setEditing(null),
        onError: (e) => {
          const fields = fieldMessages(e);
          if (fields.name) setError(fields.name);
          else notifyError(e);
        },
      },
    );
  };
  const remove = () =>
    openConfirm({
      title: t('directory.deleteTitle', { name: entry.name }),
      children: <Text size="sm">{t('directory.deleteText')}</Text>,
      labels: { confirm: t('directory.delete'), cancel: t('directory.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'category-delete-confirm' } as never,
      onConfirm: () => action.mutateAsync({ kind: 'delete', id: entry.id }, { onError: (e) => notifyError(e) }),
    });
  return (
    <Table.Tr data-testid="category-row">
      <Table.Td>
        {editing === null ? (
          <Text size="sm" fw={500}>
            {entry.name}
          </Text>
        ) : (
          <Group gap={4} wrap="nowrap">
            <TextInput
              size="xs"
              value={editing}
              error={error}
              aria-label={t('directory.name')}
              onChange={(e) => setEditing(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') save();
                if (e.key === 'Escape') setEditing(null);
              }}
              autoFocus
              data-testid="category-rename-input"
            />
            <ActionIcon variant="subtle" color="teal" onClick={save} aria-label={t('directory.save')}>
              <IconCheck size={16} />
            </ActionIcon>
            <ActionIcon
              variant="subtle"
              color="gray"
              onClick={() => setEditing(null)}
              aria-label={t('directory.cancel')}
            >
              <IconX size={16} />
            </ActionIcon>
          </Group>
        )}
      </Table.Td>
      {entry.kind === 'subtype' && (
        <Table.Td>
          <Badge variant="light">{entry.content_type ? tc(`contentTypes.${entry.content_type}`) : ''}</Badge>
        </Table.Td>
      )}
      <Table.Td>
        <Text size="sm" c={entry.used_by ? undefined : 'dimmed'}>
          {t('directory.researches', { count: entry.used_by })}
        </Text>
      </Table.Td>
      {manage && (
        <Table.Td>
          <Group gap={4} wrap="nowrap" justify="flex-end">
            <Tooltip label={t('directory.rename')}>
              <ActionIcon
                variant="subtle"
                onClick={() => {
                  setError(undefined);
                  setEditing(entry.name);
                }}
                aria-label={t('directory.rename')}
                data-testid="category-rename"
              >
                <IconPencil size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={entry.used_by ? t('directory.inUse') : t('directory.delete')}>
              <ActionIcon
                variant="subtle"
                color="red"
                disabled={entry.used_by > 0}
                onClick={remove}
                aria-label={t('directory.delete')}
                data-testid="category-delete"
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Table.Td>
      )}
    </Table.Tr>
  );
}
