import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  type Modifier,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { Project, Scenario } from '@emolens/contracts';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Menu,
  Paper,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  IconArrowDown,
  IconArrowsSort,
  IconArrowUp,
  IconCopy,
  IconDownload,
  IconGripVertical,
  IconLock,
  IconPencil,
  IconPlus,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '../errors/notify.ts';
import {
  downloadDisplayOrder,
  scenarioKeys,
  useDeleteScenario,
  useDuplicateScenario,
  useReorderScenarios,
  useScenarioList,
} from './api.ts';
import { QuotaLinksPanel } from './quota-links-panel.tsx';
import { ScenarioModal } from './scenario-modal.tsx';

/** The project's scenarios and, below them, its quota links. */
export function ScenariosPanel({ project }: { project: Project }) {
  return (
    <Stack gap="lg">
      <ScenarioList project={project} />
      <QuotaLinksPanel project={project} />
    </Stack>
  );
}

function ScenarioList({ project }: { project: Project }) {
  const { t } = useTranslation('scenarios');
  const query = useScenarioList(project.id);
  const reorder = useReorderScenarios(project.id);
  const duplicate = useDuplicateScenario(project.id);
  const remove = useDeleteScenario(project.id);
  /** undefined: closed; null: a new scenario. */
  const [editing, setEditing] = useState<Scenario | null | undefined>(undefined);
  const [downloading, setDownloading] = useState<string | null>(null);
  const editable = project.status === 'new';
  const scenarios = query.data ?? [];
  const busy = reorder.isPending || duplicate.isPending || remove.isPending;

  const client = useQueryClient();
  const sensors = useSensors(
    // A few pixels of movement before a drag starts, so that a click on the handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  /** Shows the new order at once and saves it; a failed save puts the old order back (the error is notified globally). */
  const moveTo = (from: number, to: number) => {
    if (from === to || from < 0 || to < 0 || to >= scenarios.length) return;
    const key = scenarioKeys.list(project.id);
    const previous = client.getQueryData<Scenario[]>(key);
    const next = arrayMove(scenarios, from, to).map((s, i) => ({ ...s, order_number: i + 1 }));
    void client.cancelQueries({ queryKey: key });
    client.setQueryData(key, next);
    reorder.mutateAsync(next.map((s) => s.id)).catch(() => {
      if (previous) client.setQueryData(key, previous);
    });
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over) return;
    moveTo(
      scenarios.findIndex((s) => s.id === active.id),
      scenarios.findIndex((s) => s.id === over.id),
    );
  };

  const numberOf = (id: string | number) => scenarios.find((s) => s.id === id)?.order_number ?? '';
  const positionOf = (id: string | number) => scenarios.findIndex((s) => s.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('drag.picked', { number: numberOf(active.id) }),
    onDragOver: ({ active, over }) =>
      over
        ? t('drag.over', { number: numberOf(active.id), position: positionOf(over.id), total: scenarios.length })
        : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? t('drag.dropped', { number: numberOf(active.id), position: positionOf(over.id), total: scenarios.length })
        : t('drag.cancelled', { number: numberOf(active.id) }),
    onDragCancel: ({ active }) => t('drag.cancelled', { number: numberOf(active.id) }),
  };

  const confirmDelete = (scenario: Scenario) =>
    modals.openConfirmModal({
      title: t('delete.title', { number: scenario.order_number }),
      children: <Text size="sm">{t('delete.text')}</Text>,
      labels: { confirm: t('delete.confirm'), cancel: t('actions.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-action' },
      centered: true,
      onConfirm: () =>
        remove.mutate(scenario.id, {
          onSuccess: () => notifications.show({ color: 'green', message: t('delete.done'), autoClose: 4000 }),
        }),
    });

  const download = async (scenario: Scenario) => {
    setDownloading(scenario.id);
    try {
      await downloadDisplayOrder(scenario.id);
    } catch (error) {
      notifyError(error);
    } finally {
      setDownloading(null);
    }
  };

  return (
    <Paper withBorder radius="lg" p="xl" data-testid="scenarios-panel">
      <Stack gap="md">
        <Group justify="space-between" align="center">
          <Stack gap={2}>
            <Title order={3} size="h4">
              {t('scenarios.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('scenarios.subtitle')}
            </Text>
          </Stack>
          {editable ? (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)} data-testid="scenario-add">
              {t('scenarios.add')}
            </Button>
          ) : (
            <Group gap={6} c="dimmed">
              <IconLock size={16} />
              <Text size="sm">{t('scenarios.readOnly')}</Text>
            </Group>
          )}
        </Group>

        {!editable && (
          <Alert color="gray" variant="light" icon={<IconLock size={18} />} data-testid="scenarios-read-only">
            {t('scenarios.frozen')}
          </Alert>
        )}

        {query.isPending && (
          <Center py="lg">
            <Loader size="sm" />
          </Center>
        )}
        {query.isError && (
          <Group gap="sm">
            <Text size="sm" c="red">
              {t('scenarios.loadError')}
            </Text>
            <Button size="xs" variant="light" leftSection={<IconRefresh size={14} />} onClick={() => query.refetch()}>
              {t('actions.retry')}
            </Button>
          </Group>
        )}
        {query.isSuccess && scenarios.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="scenarios-empty">
            {editable ? t('scenarios.empty') : t('scenarios.emptyFrozen')}
          </Text>
        )}

        {scenarios.length > 0 && (
          <DndContext
            sensors={sensors}
            collisionDetection={closestCenter}
            modifiers={[verticalOnly]}
            onDragEnd={onDragEnd}
            accessibility={{ announcements, screenReaderInstructions: { draggable: t('drag.instructions') } }}
          >
            <SortableContext items={scenarios.map((s) => s.id)} strategy={verticalListSortingStrategy}>
              <Stack gap="md" data-testid="scenario-list">
                {scenarios.map((scenario, index) => (
                  <SortableRow key={scenario.id} id={scenario.id} editable={editable} disabled={busy}>
                    {(handle) => (
                      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
                        <Group align="flex-start" wrap="nowrap" gap="md" style={{ minWidth: 0 }}>
                          <Group gap={6} wrap="nowrap">
                            {handle(t('drag.handle', { number: scenario.order_number }))}
                            <Badge size="lg" variant="light" radius="sm" data-testid="scenario-number">
                              {scenario.order_number}
                            </Badge>
                          </Group>
                          <Stack gap={6} style={{ minWidth: 0 }}>
                            <Text fw={500} style={{ overflowWrap: 'anywhere' }} data-testid="scenario-description">
                              {scenario.description || t('scenarios.noDescription')}
                            </Text>
                            <Text size="sm" c="dimmed" data-testid="scenario-researches">
                              {scenario.campaigns.length
                                ? scenario.campaigns.map((c, i) => `${i + 1}. ${c.title}`).join('  ·  ')
                                : t('scenarios.noResearches')}
                            </Text>
                            <Group gap={6}>
                              {scenario.is_random_order && (
                                <Badge variant="outline" color="grape" size="sm">
                                  {t('badges.randomOrder')}
                                </Badge>
                              )}
                              {scenario.is_use_face_checker && (
                                <Badge variant="outline" color="teal" size="sm">
                                  {t('badges.faceChecker')}
                                </Badge>
                              )}
                              {scenario.is_paid && (
                                <Badge variant="outline" color="yellow" size="sm">
                                  {t('badges.paid')}
                                </Badge>
                              )}
                              {scenario.quota !== null && (
                                <Badge variant="outline" color="gray" size="sm">
                                  {t('badges.quota', { quota: scenario.quota })}
                                </Badge>
                              )}
                            </Group>
                          </Stack>
                        </Group>
                        <Group gap={4} wrap="nowrap">
                          {editable && (
                            <>
                              <Menu position="bottom-end" withinPortal>
                                <Tooltip label={t('actions.order')} withArrow>
                                  <Menu.Target>
                                    <ActionIcon
                                      variant="subtle"
                                      aria-label={t('actions.order')}
                                      disabled={busy || scenarios.length < 2}
                                      data-testid="scenario-order-menu"
                                    >
                                      <IconArrowsSort size={16} />
                                    </ActionIcon>
                                  </Menu.Target>
                                </Tooltip>
                                <Menu.Dropdown>
                                  <Menu.Item
                                    leftSection={<IconArrowUp size={14} />}
                                    disabled={index === 0}
                                    onClick={() => moveTo(index, index - 1)}
                                    data-testid="scenario-move-up"
                                  >
                                    {t('actions.moveUp')}
                                  </Menu.Item>
                                  <Menu.Item
                                    leftSection={<IconArrowDown size={14} />}
                                    disabled={index === scenarios.length - 1}
                                    onClick={() => moveTo(index, index + 1)}
                                    data-testid="scenario-move-down"
                                  >
                                    {t('actions.moveDown')}
                                  </Menu.Item>
                                </Menu.Dropdown>
                              </Menu>
                              <Tooltip label={t('actions.edit')} withArrow>
                                <ActionIcon
                                  variant="subtle"
                                  aria-label={t('actions.edit')}
                                  disabled={busy}
                                  onClick={() => setEditing(scenario)}
                                  data-testid="scenario-edit"
                                >
                                  <IconPencil size={16} />
                                </ActionIcon>
                              </Tooltip>
                              <Tooltip label={t('actions.duplicate')} withArrow>
                                <ActionIcon
                                  variant="subtle"
                                  aria-label={t('actions.duplicate')}
                                  disabled={busy}
                                  onClick={() =>
                                    duplicate.mutate(scenario.id, {
                                      onSuccess: () =>
                                        notifications.show({
                                          color: 'green',
                                          message: t('scenarios.duplicated'),
                                          autoClose: 4000,
                                        }),
                                    })
                                  }
                                  data-testid="scenario-duplicate"
                                >
                                  <IconCopy size={16} />
                                </ActionIcon>
                              </Tooltip>
                            </>
                          )}
                          <Tooltip label={t('actions.downloadOrder')} withArrow>
                            <ActionIcon
                              variant="subtle"
                              aria-label={t('actions.downloadOrder')}
                              loading={downloading === scenario.id}
                              onClick={() => void download(scenario)}
                              data-testid="scenario-download"
                            >
                              <IconDownload size={16} />
                            </ActionIcon>
                          </Tooltip>
                          {editable && (
                            <Tooltip label={t('actions.delete')} withArrow>
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                aria-label={t('actions.delete')}
                                disabled={busy}
                                onClick={() => confirmDelete(scenario)}
                                data-testid="scenario-delete"
                              >
                                <IconTrash size={16} />
                              </ActionIcon>
                            </Tooltip>
                          )}
                        </Group>
                      </Group>
                    )}
                  </SortableRow>
                ))}
              </Stack>
            </SortableContext>
          </DndContext>
        )}
      </Stack>
      {editing !== undefined && (
        <ScenarioModal projectId={project.id} scenario={editing} onClose={() => setEditing(undefined)} />
      )}
    </Paper>
  );
}

/** A dragged row moves only up and down. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

/**
 * One scenario row that can be dragged by its handle (pointer, or keyboard: Space to lift, arrows to move).
 * `children` gets a function that renders the handle; without `editable` there is no handle.
 */
function SortableRow({
  id,
  editable,
  disabled,
  children,
}: {
  id: string;
  editable: boolean;
  disabled: boolean;
  children: (handle: (label: string) => ReactNode) => ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled: !editable || disabled,
  });
  const handle = (label: string) =>
    editable ? (
      <ActionIcon
        ref={setActivatorNodeRef}
        variant="subtle"
        color="gray"
        aria-label={label}
        {...attributes}
        {...listeners}
        style={{ cursor: isDragging ? 'grabbing' : 'grab', touchAction: 'none', marginInlineStart: -6 }}
        data-testid="scenario-drag-handle"
      >
        <IconGripVertical size={18} />
      </ActionIcon>
    ) : null;
  return (
    <Paper
      ref={setNodeRef}
      withBorder
      radius="md"
      p="md"
      shadow={isDragging ? 'lg' : undefined}
      data-testid="scenario-row"
      data-dragging={isDragging || undefined}
      style={{
        transform: CSS.Translate.toString(transform),
        transition,
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
        borderColor: isDragging ? 'var(--mantine-primary-color-filled)' : undefined,
      }}
    >
      {children(handle)}
    </Paper>
  );
}
