import { figmaEmbedUrl, msg, type WebTask } from '@emolens/contracts';
import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Code,
  CopyButton,
  Group,
  List,
  Menu,
  Paper,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import {
  IconAlertTriangle,
  IconArrowDown,
  IconArrowUp,
  IconBrandFigma,
  IconCheck,
  IconClick,
  IconClock,
  IconClockOff,
  IconCopy,
  IconDotsVertical,
  IconEye,
  IconEyeOff,
  IconHandFinger,
  IconListCheck,
  IconMapPin,
  IconPencil,
  IconPhoto,
  IconPlayerPlay,
  IconPlus,
  IconRoute,
  IconTrash,
  IconViewportWide,
} from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OrderMenu, SortableList, type SortableRow } from '../../components/sortable-list.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { mediaFileUrl } from '../media/api.ts';
import { moveItem } from './content-form.tsx';
import { FigmaPreviewModal } from './figma-preview-modal.tsx';
import { useResearchImages } from './media-image.tsx';
import type { ContentEditorProps } from './research-content.tsx';
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

interface CardAction {
  label: string;
  tooltip?: string;
  Icon: typeof IconPencil;
  color?: string;
  disabled?: boolean;
  onClick: () => void;
  testId: string;
}

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
export function WebTasksBuilder({ form, campaign, editable }: ContentEditorProps) {
  const { t } = useTranslation('tasks');
  const tasks = form.values.settings.webResourceScenario;
  const settings = form.values.settings;
  const { list, images: pictures } = useResearchImages(campaign.id);
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
    modals.openConfirmModal({
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
              <Button mt="xs" leftSection={<IconPlus size={16} />} onClick={addTask} data-testid="task-add">
                {t('add')}
              </Button>
            )}
          </Stack>
        </Paper>
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
          campaignId={campaign.id}
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

/** Spec section 9: where a Figma prototype is embedded, with which options, and a preview on demand. */
function FigmaPanel({ siteUrl }: { siteUrl: string }) {
  const { t } = useTranslation('tasks');
  const [preview, setPreview] = useState(false);
  const embed = figmaEmbedUrl(siteUrl);
  /** The embed options of spec section 9, as the embed address sets them. */
  const options = [
    {
      icon: <IconViewportWide size={14} />,
      name: t('figma.scaling'),
      value: 'scaling=contain',
      hint: t('figma.scalingHint'),
    },
    {
      icon: <IconHandFinger size={14} />,
      name: t('figma.hotspots'),
      value: 'hotspot-hints=0',
      hint: t('figma.hotspotsHint'),
    },
    { icon: <IconEyeOff size={14} />, name: t('figma.ui'), value: 'hide-ui=1', hint: t('figma.uiHint') },
  ];

  return (
    <Paper withBorder radius="lg" p="md" data-testid="figma-panel">
      <Stack gap="sm">
        <Group gap={8}>
          <ThemeIcon variant="light" color="grape" radius="md">
            <IconBrandFigma size={16} />
          </ThemeIcon>
          <Text fw={600}>{t('figma.title')}</Text>
        </Group>
        {embed ? (
          <>
            <Text size="sm" c="dimmed">
              {t('figma.text')}
            </Text>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              <Code
                block
                style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
                data-testid="figma-embed-url"
              >
                {embed}
              </Code>
              <CopyButton value={embed}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? t('figma.copied') : t('figma.copy')} withArrow>
                    <ActionIcon
                      variant="subtle"
                      color={copied ? 'teal' : 'gray'}
                      onClick={copy}
                      aria-label={t('figma.copy')}
                      data-testid="figma-embed-copy"
                    >
                      {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
            <List spacing={6} size="sm" center data-testid="figma-options">
              {options.map((option) => (
                <List.Item
                  key={option.value}
                  icon={
                    <ThemeIcon size={22} radius="xl" variant="light">
                      {option.icon}
                    </ThemeIcon>
                  }
                >
                  <Text span size="sm" fw={500}>
                    {option.name}
                  </Text>{' '}
                  <Code>{option.value}</Code>
                  <Text size="xs" c="dimmed">
                    {option.hint}
                  </Text>
                </List.Item>
              ))}
            </List>
            <Group>
              <Button
                variant="light"
                leftSection={<IconPlayerPlay size={16} />}
                onClick={() => setPreview(true)}
                data-testid="figma-preview"
              >
                {t('figma.preview')}
              </Button>
              <Text size="xs" c="dimmed">
                {t('figma.previewNote')}
              </Text>
            </Group>
          </>
        ) : (
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle size={18} />}
            title={t('figma.invalidTitle')}
            data-testid="figma-url-error"
          >
            {translateMessage(msg('content.figmaUrl'))}
          </Alert>
        )}
      </Stack>
      {preview && embed && (
        <FigmaPreviewModal url={embed} title={t('figma.previewTitle')} onClose={() => setPreview(false)} />
      )}
    </Paper>
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
  onMove: (from: number, to: number) => void;
  onEdit: (index: number) => void;
  onDuplicate: (index: number) => void;
  onDelete: (index: number) => void;
}) {
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
        <TaskCard
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

function TaskCard({
  task,
  index,
  total,
  editable,
  full,
  errors,
  imageMissing,
  row,
  onMove,
  onEdit,
  onDuplicate,
  onDelete,
}: {
  task: WebTask;
  index: number;
  total: number;
  editable: boolean;
  full: boolean;
  errors: string[];
  imageMissing: boolean;
  row: SortableRow;
  onMove: (from: number, to: number) => void;
  onEdit: (index: number) => void;
  onDuplicate: (index: number) => void;
  onDelete: (index: number) => void;
}) {
  const { t } = useTranslation('tasks');
  const number = index + 1;
  const problems = imageMissing ? [translateMessage(msg('content.imageUnknown')), ...errors] : errors;
  const unique = [...new Set(problems)];
  const narrow = useMediaQuery('(max-width: 36em)');

  const handle = (
    <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
      {row.handle}
      <Badge tt="none" size="lg" variant="light" radius="sm" data-testid="task-number">
        {number}
      </Badge>
    </Group>
  );
  const body = (
    <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
      <Text fw={500} lineClamp={2} style={{ overflowWrap: 'anywhere' }} data-testid="task-card-description">
        {task.description}
      </Text>
      <Group gap={6}>
        {task.anyIsFinal ? (
          <Badge
            tt="none"
            variant="light"
            color="teal"
            leftSection={<IconClick size={12} />}
            data-testid="task-card-steps"
          >
            {t('card.anyClick')}
          </Badge>
        ) : (
          <Badge
            tt="none"
            variant="light"
            color="blue"
            leftSection={<IconRoute size={12} />}
            data-testid="task-card-steps"
          >
            {task.steps.length > 0 ? t('card.steps', { number: task.steps.length }) : t('card.noSteps')}
          </Badge>
        )}
        {task.is_timeout ? (
          <Badge
            tt="none"
            variant="light"
            color="gray"
            leftSection={<IconClock size={12} />}
            data-testid="task-card-time"
          >
            {t('card.timeout', { seconds: task.timeout })}
          </Badge>
        ) : (
          <Badge
            tt="none"
            variant="light"
            color="gray"
            leftSection={<IconClockOff size={12} />}
            data-testid="task-card-time"
          >
            {t('card.noTimeout')}
          </Badge>
        )}
        {task.additional_points.length > 0 && (
          <Badge tt="none" variant="light" color="indigo" leftSection={<IconMapPin size={12} />}>
            {t('card.points', { number: task.additional_points.length })}
          </Badge>
        )}
        {task.withContinuation && (
          <Badge tt="none" variant="outline" color="grape">
            {t('card.continuation')}
          </Badge>
        )}
        {!task.autoShowTaskDescription && (
          <Badge tt="none" variant="outline" color="gray">
            {t('card.descriptionOnRequest')}
          </Badge>
        )}
      </Group>
      {!task.anyIsFinal && task.steps.length > 0 && (
        <Text size="xs" c="dimmed" ff="monospace" truncate="end" data-testid="task-card-path">
          {task.steps.map((step) => step.targetNodeId).join(' → ')}
        </Text>
      )}
      {unique.map((message) => (
        <Text key={message} size="xs" c="red" data-testid="task-card-error">
          {message}
        </Text>
      ))}
    </Stack>
  );
  // The card's actions: icon buttons on a wide card, a menu on a narrow one.
  const edit: CardAction = {
    label: t('actions.edit'),
    Icon: IconPencil,
    onClick: () => onEdit(index),
    testId: 'task-edit',
  };
  const duplicate: CardAction = {
    label: t('actions.duplicate'),
    tooltip: full ? t('limit', { max: MAX_TASKS }) : undefined,
    Icon: IconCopy,
    disabled: full,
    onClick: () => onDuplicate(index),
    testId: 'task-duplicate',
  };
  const remove: CardAction = {
    label: t('actions.delete'),
    Icon: IconTrash,
    color: 'red',
    onClick: () => onDelete(index),
    testId: 'task-delete',
  };
  const actions =
    narrow && editable ? (
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={t('actions.more')} data-testid="task-actions-menu">
            <IconDotsVertical size={18} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {[edit, duplicate].map((action) => (
            <Menu.Item
              key={action.testId}
              leftSection={<action.Icon size={14} />}
              disabled={action.disabled}
              onClick={action.onClick}
            >
              {action.label}
            </Menu.Item>
          ))}
          <Menu.Item
            leftSection={<IconArrowUp size={14} />}
            disabled={index === 0}
            onClick={() => onMove(index, index - 1)}
          >
            {t('actions.moveUp')}
          </Menu.Item>
          <Menu.Item
            leftSection={<IconArrowDown size={14} />}
            disabled={index === total - 1}
            onClick={() => onMove(index, index + 1)}
          >
            {t('actions.moveDown')}
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={remove.onClick}>
            {remove.label}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    ) : (
      <Group gap={2} wrap="nowrap" style={{ flexShrink: 0 }}>
        {editable ? (
          <>
            <OrderMenu
              index={index}
              count={total}
              onMove={onMove}
              testId="task"
              labels={{ order: t('actions.order'), up: t('actions.moveUp'), down: t('actions.moveDown') }}
            />
            {[edit, duplicate, remove].map((action) => (
              <Tooltip key={action.testId} label={action.tooltip ?? action.label} withArrow>
                <ActionIcon
                  variant="subtle"
                  color={action.color}
                  aria-label={action.label}
                  disabled={action.disabled}
                  onClick={action.onClick}
                  data-testid={action.testId}
                >
                  <action.Icon size={16} />
                </ActionIcon>
              </Tooltip>
            ))}
          </>
        ) : (
          <Tooltip label={t('actions.view')} withArrow>
            <ActionIcon
              variant="subtle"
              aria-label={t('actions.view')}
              onClick={() => onEdit(index)}
              data-testid="task-view"
            >
              <IconEye size={16} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    );

  return (
    <Paper
      {...row.props}
      withBorder
      radius="lg"
      p="md"
      shadow={row.dragging ? 'lg' : 'xs'}
      data-testid="task-card"
      data-invalid={unique.length > 0 || undefined}
      style={{
        ...row.props.style,
        borderColor: row.props.style.borderColor ?? (unique.length > 0 ? 'var(--mantine-color-red-5)' : undefined),
      }}
    >
      {narrow ? (
        <Stack gap="sm">
          <Group gap="md" wrap="nowrap" align="flex-start">
            {handle}
            <Thumbnail task={task} missing={imageMissing} number={number} />
            <Box ml="auto">{actions}</Box>
          </Group>
          {body}
        </Stack>
      ) : (
        <Group gap="md" wrap="nowrap" align="flex-start">
          {handle}
          <Thumbnail task={task} missing={imageMissing} number={number} />
          {body}
          {actions}
        </Group>
      )}
    </Paper>
  );
}

/** The task's screenshot, small, with its final point. */
function Thumbnail({ task, missing, number }: { task: WebTask; missing: boolean; number: number }) {
  const { t } = useTranslation('tasks');
  const [failed, setFailed] = useState(false);
  const size = { w: 120, h: 76 };
  if (missing || failed || !task.image) {
    return (
      <Tooltip label={missing ? t('card.imageMissing') : t('card.noImage')} withArrow>
        <ThemeIcon variant="light" color={missing ? 'red' : 'gray'} {...size} radius="md" style={{ flexShrink: 0 }}>
          <IconPhoto size={24} />
        </ThemeIcon>
      </Tooltip>
    );
  }
  return (
    <Box
      {...size}
      style={{
        flexShrink: 0,
        borderRadius: 'var(--mantine-radius-md)',
        overflow: 'hidden',
        border: '1px solid var(--mantine-color-default-border)',
        background: 'var(--mantine-color-gray-1)',
      }}
      data-testid="task-card-thumbnail"
    >
      {/* The image keeps its proportions, so the marker sits where it does on the full screenshot. */}
      <Box pos="relative" style={{ lineHeight: 0 }}>
        <img
          src={mediaFileUrl(task.image)}
          alt={t('card.screenshotAlt', { number })}
          style={{ display: 'block', width: '100%', height: 'auto' }}
          onError={() => setFailed(true)}
        />
        {task.final_point && (
          <Box
            pos="absolute"
            style={{
              left: `${task.final_point.x * 100}%`,
              top: `${task.final_point.y * 100}%`,
              width: 10,
              height: 10,
              transform: 'translate(-50%, -50%)',
              borderRadius: '50%',
              background: 'var(--mantine-color-green-6)',
              border: '2px solid white',
              boxShadow: '0 0 0 1px rgba(0,0,0,.25)',
            }}
          />
        )}
      </Box>
    </Box>
  );
}
