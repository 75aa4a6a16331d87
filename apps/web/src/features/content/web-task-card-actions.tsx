import { ActionIcon, Group, Menu, Tooltip } from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconCopy,
  IconDotsVertical,
  IconEye,
  IconPencil,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { OrderMenu } from '../../components/sortable-list.tsx';
import { MAX_TASKS } from './web-tasks.ts';

export interface TaskActionHandlers {
  onMove: (from: number, to: number) => void;
  onEdit: (index: number) => void;
  onDuplicate: (index: number) => void;
  onDelete: (index: number) => void;
}

interface CardAction {
  label: string;
  tooltip?: string;
  Icon: typeof IconPencil;
  color?: string;
  disabled?: boolean;
  onClick: () => void;
  testId: string;
}

/**
 * A task card's actions, each described once: icon buttons on a wide card, a menu on a narrow one
 * (`menu`), and only "view" when the research cannot be edited.
 */
export function WebTaskCardActions({
  index,
  total,
  editable,
  full,
  menu,
  onMove,
  onEdit,
  onDuplicate,
  onDelete,
}: { index: number; total: number; editable: boolean; full: boolean; menu: boolean } & TaskActionHandlers) {
  const { t } = useTranslation('tasks');
  if (!editable) {
    return (
      <Group gap={2} wrap="nowrap" style={{ flexShrink: 0 }}>
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
      </Group>
    );
  }
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

  if (menu) {
    return (
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
    );
  }
  return (
    <Group gap={2} wrap="nowrap" style={{ flexShrink: 0 }}>
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
    </Group>
  );
}
