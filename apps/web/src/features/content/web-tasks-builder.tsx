import type { WebTask } from '@emolens/contracts';
import { Badge, Button, Group, Paper, Stack, Text, ThemeIcon, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconListCheck, IconPlus, IconRoute } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { SortableList } from '../../components/sortable-list.tsx';
import { moveItem } from './content-form.tsx';
import { FigmaPanel } from './figma-panel.tsx';
import { useResearchImages } from './media-image.tsx';
import type { ContentEditorProps } from './research-content.tsx';
import { WebTaskCard } from './web-task-card.tsx';
import type { TaskActionHandlers } from './web-task-card-actions.tsx';
import { TaskEditorModal } from './web-task-editor.tsx';
import {
  draftOf,
  duplicateTask,
  MAX_TASKS,
  newTaskDraft,
  TASKS_PATH,
  type TaskDraft,
  taskFormErrors,
  withoutTaskErrors,
} from './web-tasks.ts';

/** Which task the editor shows: a new one (index null) or the one at `index`. */
interface Editing {
  index: number | null;
  draft: TaskDraft;
}

/**
 * The tasks of a website or prototype research (spec sections 3, 5 and 9), kept in the research
 * form's `settings.webResourceScenario` and saved with it: a list of task cards (add, edit,
 * duplicate, delete, reorder) and, for a Figma prototype, the embed address with its options.
 */
export function WebTasksBuilder({ form, research, editable }: ContentEditorProps) {
  const { t } = useTranslation('tasks');
  const tasks = form.values.settings.webResourceScenario;
  const settings = form.values.settings;
  const { list, images: pictures } = useResearchImages(research.id);
  const [editing, setEditing] = useState<Editing | null>(null);

  // A task's screenshot is one of the research's pictures that is ready.
  const images = useMemo(() => pictures.filter((m) => m.status === 'ready'), [pictures]);
  const loaded = list.isSuccess;
  const imageIds = useMemo(() => (loaded ? new Set(images.map((m) => m.id)) : undefined), [images, loaded]);

  /** A new list: the form takes it, and the errors about the old list's places go. */
  const setTasks = (next: WebTask[]) => {
    form.setFieldValue(TASKS_PATH as 'settings.webResourceScenario', next);
    form.setErrors(withoutTaskErrors(form.errors));
  };

  const saveTask = (task: WebTask) => {
    if (!editing) return;
    const index = editing.index;
    const next = index === null ? [...tasks, task] : tasks.map((item, i) => (i === index ? task : item));
    setTasks(next);
    setEditing(null);
    notifications.show({
      color: 'green',
      message: t('card.savedToList', { number: index === null ? next.length : index + 1 }),
      autoClose: 5000,
    });
  };

  const duplicate = (index: number) => {
    const task = tasks[index];
    if (!task || tasks.length >= MAX_TASKS) return;
    const next = [...tasks.slice(0, index + 1), duplicateTask(task), ...tasks.slice(index + 1)];
    setTasks(next);
    notifications.show({ color: 'green', message: t('card.duplicated', { number: index + 2 }), autoClose: 5000 });
  };

  const confirmDelete = (index: number) =>
    openConfirm({
      title: t('delete.title', { number: index + 1 }),
      children: <Text size="sm">{t('delete.text')}</Text>,
      labels: { confirm: t('delete.confirm'), cancel: t('actions.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'task-confirm-delete' },
      centered: true,
      onConfirm: () => setTasks(tasks.filter((_, i) => i !== index)),
    });

  const addTask = () => setEditing({ index: null, draft: newTaskDraft(settings) });
  const full = tasks.length >= MAX_TASKS;

  return (
    <Stack gap="md" data-testid="web-tasks">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2} style={{ flex: 1, minWidth: 240 }}>
          <Group gap={8}>
            <ThemeIcon variant="light" radius="md" size="md">
              <IconRoute size={16} />
            </ThemeIcon>
            <Title order={4}>{t('title')}</Title>
            {tasks.length > 0 && (
              <Badge tt="none" variant="light" color="gray" data-testid="task-count">
                {t('count', { number: tasks.length, max: MAX_TASKS })}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {t('subtitle')}
          </Text>
        </Stack>
        {editable && tasks.length > 0 && (
          <Tooltip label={t('limit', { max: MAX_TASKS })} disabled={!full} withArrow>
            <Button
              leftSection={<IconPlus size={16} />}
              onClick={() => !full && addTask()}
              data-disabled={full || undefined}
              aria-disabled={full}
              data-testid="task-add"
            >
              {t('add')}
            </Button>
          </Tooltip>
        )}
      </Group>

      {settings.isFigma && <FigmaPanel siteUrl={form.values.site_url} />}

      {tasks.length === 0 ? (
        <TasksEmpty editable={editable} onAdd={addTask} />
      ) : (
        <TaskList
          tasks={tasks}
          editable={editable}
          errors={form.errors}
          imageIds={imageIds}
          onMove={(from, to) => setTasks(moveItem(tasks, from, to))}
          onEdit={(index) => {
            const task = tasks[index];
            if (task) setEditing({ index, draft: draftOf(task) });
          }}
          onDuplicate={duplicate}
          onDelete={confirmDelete}
          full={full}
        />
      )}

      {editable && tasks.length > 0 && (
        <Text size="xs" c="dimmed">
          {t('saveHint')}
        </Text>
      )}

      {editing && (
        <TaskEditorModal
          key={editing.draft.id}
          researchId={research.id}
          initial={editing.draft}
          number={editing.index === null ? tasks.length + 1 : editing.index + 1}
          isNew={editing.index === null}
          readOnly={!editable}
          images={images}
          imageIds={imageIds}
          figmaSite={settings.isFigma ? form.values.site_url : undefined}
          onSave={saveTask}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}

function TaskList({
  tasks,
  editable,
  errors,
  imageIds,
  full,
  onMove,
  onEdit,
  onDuplicate,
  onDelete,
}: {
  tasks: WebTask[];
  editable: boolean;
  errors: Record<string, ReactNode>;
  imageIds: ReadonlySet<string> | undefined;
  full: boolean;
} & TaskActionHandlers) {
  return (
    <SortableList
      items={tasks}
      getId={(task) => task.id}
      texts="task"
      valuesOf={(_, index) => ({ number: index + 1 })}
      editable={editable}
      gap="sm"
      testId="task"
      onMove={onMove}
    >
      {(task, index, row) => (
        <WebTaskCard
          task={task}
          index={index}
          total={tasks.length}
          editable={editable}
          full={full}
          errors={taskFormErrors(errors, index)}
          imageMissing={!!imageIds && !imageIds.has(task.image)}
          row={row}
          onMove={onMove}
          onEdit={onEdit}
          onDuplicate={onDuplicate}
          onDelete={onDelete}
        />
      )}
    </SortableList>
  );
}

/** No task yet: what tasks are for, and the first one to add. */
function TasksEmpty({ editable, onAdd }: { editable: boolean; onAdd: () => void }) {
  const { t } = useTranslation('tasks');
  return (
    <Paper
      radius="lg"
      p="xl"
      withBorder
      style={{ borderStyle: 'dashed', background: 'var(--mantine-color-gray-0)' }}
      data-testid="tasks-empty"
    >
      <Stack align="center" gap="xs" ta="center">
        <ThemeIcon variant="light" size={48} radius="xl">
          <IconListCheck size={26} />
        </ThemeIcon>
        <Text fw={600}>{t('empty.title')}</Text>
        <Text size="sm" c="dimmed" maw={520}>
          {editable ? t('empty.text') : t('empty.readOnly')}
        </Text>
        {editable && (
          <Button mt="xs" leftSection={<IconPlus size={16} />} onClick={onAdd} data-testid="task-add">
            {t('add')}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
