import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  type Modifier,
  PointerSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, type MantineSpacing, Menu, Stack, Tooltip } from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp, IconGripVertical } from '@tabler/icons-react';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Which texts of the common `sortable` group name the list's items: the handle's label and the
 * screen-reader announcements of a drag.
 */
export type SortableTexts = 'scenario' | 'picture' | 'task' | 'question' | 'option' | 'row';

/** What a row of a sortable list gets to draw itself. */
export interface SortableRow {
  /** The grip the row is dragged by (pointer, or keyboard: Space to lift, arrows to move); null when the list is not editable. */
  handle: ReactNode;
  dragging: boolean;
  /** For the row's Paper: the dragged node, which follows the pointer lifted above the other rows. */
  props: {
    ref: (node: HTMLElement | null) => void;
    shadow: 'lg' | undefined;
    style: CSSProperties;
    'data-dragging': true | undefined;
  };
}

/** A dragged row moves only up and down. */
const verticalOnly: Modifier = ({ transform }) => ({ ...transform, x: 0 });

/**
 * A vertical list reordered by dragging its rows by a grip handle (dnd-kit; pointer and keyboard,
 * with translated screen-reader announcements). `onMove` gets the places a row is dropped from and
 * to; each row is drawn by `children`.
 */
export function SortableList<T>({
  items,
  getId,
  texts,
  valuesOf,
  editable,
  disabled = false,
  gap,
  testId,
  onMove,
  children,
}: {
  items: readonly T[];
  getId: (item: T) => string;
  texts: SortableTexts;
  /** The values that name an item in its texts (`number` or `name`). */
  valuesOf: (item: T, index: number) => Record<string, string | number>;
  /** Without it there are no handles and nothing moves. */
  editable: boolean;
  /** The handles are there, but nothing moves for now (a save is under way). */
  disabled?: boolean;
  gap: MantineSpacing;
  /** `gallery` names the list `gallery-list` and its handles `gallery-drag-handle` for the tests. */
  testId: string;
  onMove: (from: number, to: number) => void;
  children: (item: T, index: number, row: SortableRow) => ReactNode;
}) {
  const { t } = useTranslation('common');
  const sensors = useSensors(
    // A few pixels of movement before a drag starts, so that a click on the handle stays a click.
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const indexOf = (id: UniqueIdentifier) => items.findIndex((item) => getId(item) === id);
  const valuesAt = (id: UniqueIdentifier) => {
    const index = indexOf(id);
    const item = items[index];
    return item === undefined ? {} : valuesOf(item, index);
  };
  const text = (key: string, id: UniqueIdentifier, over?: UniqueIdentifier) =>
    t(`sortable.${texts}.${key}`, {
      ...valuesAt(id),
      ...(over === undefined ? {} : { position: indexOf(over) + 1, total: items.length }),
    });
  const announcements: Announcements = {
    onDragStart: ({ active }) => text('picked', active.id),
    onDragOver: ({ active, over }) => (over ? text('over', active.id, over.id) : undefined),
    onDragEnd: ({ active, over }) => (over ? text('dropped', active.id, over.id) : text('cancelled', active.id)),
    onDragCancel: ({ active }) => text('cancelled', active.id),
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over) onMove(indexOf(active.id), indexOf(over.id));
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={[verticalOnly]}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t(`sortable.${texts}.instructions`) } }}
    >
      <SortableContext items={items.map(getId)} strategy={verticalListSortingStrategy}>
        <Stack gap={gap} data-testid={`${testId}-list`}>
          {items.map((item, index) => (
            <Row
              key={getId(item)}
              id={getId(item)}
              label={t(`sortable.${texts}.handle`, valuesOf(item, index))}
              editable={editable}
              disabled={disabled}
              testId={testId}
            >
              {(row) => children(item, index, row)}
            </Row>
          ))}
        </Stack>
      </SortableContext>
    </DndContext>
  );
}

function Row({
  id,
  label,
  editable,
  disabled,
  testId,
  children,
}: {
  id: string;
  label: string;
  editable: boolean;
  disabled: boolean;
  testId: string;
  children: (row: SortableRow) => ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id,
    disabled: !editable || disabled,
  });
  const handle = editable ? (
    <ActionIcon
      ref={setActivatorNodeRef}
      variant="subtle"
      color="gray"
      aria-label={label}
      {...attributes}
      {...listeners}
      style={{ cursor: isDragging ? 'grabbing' : 'grab', touchAction: 'none', marginInlineStart: -6 }}
      data-testid={`${testId}-drag-handle`}
    >
      <IconGripVertical size={18} />
    </ActionIcon>
  ) : null;
  return children({
    handle,
    dragging: isDragging,
    props: {
      ref: setNodeRef,
      shadow: isDragging ? 'lg' : undefined,
      'data-dragging': isDragging || undefined,
      style: {
        transform: CSS.Translate.toString(transform),
        transition,
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
        borderColor: isDragging ? 'var(--mantine-primary-color-filled)' : undefined,
      },
    },
  });
}

interface MoveProps {
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  /** `shelf` names the buttons `shelf-move-up` and `shelf-move-down` for the tests. */
  testId: string;
}

/** Move up and move down buttons of a list's row (the way without dragging). */
export function MoveButtons({
  index,
  count,
  onMove,
  testId,
  labels,
}: MoveProps & { labels: { up: string; down: string } }) {
  return (
    <>
      <Tooltip label={labels.up} withArrow>
        <ActionIcon
          variant="subtle"
          aria-label={labels.up}
          disabled={index === 0}
          onClick={() => onMove(index, index - 1)}
          data-testid={`${testId}-move-up`}
        >
          <IconArrowUp size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={labels.down} withArrow>
        <ActionIcon
          variant="subtle"
          aria-label={labels.down}
          disabled={index === count - 1}
          onClick={() => onMove(index, index + 1)}
          data-testid={`${testId}-move-down`}
        >
          <IconArrowDown size={16} />
        </ActionIcon>
      </Tooltip>
    </>
  );
}

/** A row's order menu: move up, move down (the way without dragging, in less room than buttons). */
export function OrderMenu({
  index,
  count,
  onMove,
  testId,
  disabled = false,
  labels,
}: MoveProps & { disabled?: boolean; labels: { order: string; up: string; down: string } }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Tooltip label={labels.order} withArrow>
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            aria-label={labels.order}
            disabled={disabled || count < 2}
            data-testid={`${testId}-order-menu`}
          >
            <IconArrowsSort size={16} />
          </ActionIcon>
        </Menu.Target>
      </Tooltip>
      <Menu.Dropdown>
        <Menu.Item
          leftSection={<IconArrowUp size={14} />}
          disabled={index === 0}
          onClick={() => onMove(index, index - 1)}
          data-testid={`${testId}-move-up`}
        >
          {labels.up}
        </Menu.Item>
        <Menu.Item
          leftSection={<IconArrowDown size={14} />}
          disabled={index === count - 1}
          onClick={() => onMove(index, index + 1)}
          data-testid={`${testId}-move-down`}
        >
          {labels.down}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
