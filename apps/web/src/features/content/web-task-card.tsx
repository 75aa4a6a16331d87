import type { WebTask } from '@emolens/contracts';
import { Badge, Box, Group, Paper, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconClick, IconClock, IconClockOff, IconMapPin, IconPhoto, IconRoute } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SortableRow } from '../../components/sortable-list.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { mediaFileUrl } from '../media/api.ts';
import { type TaskActionHandlers, WebTaskCardActions } from './web-task-card-actions.tsx';

/**
 * One task of the list: its number and drag handle, its screenshot, what it asks and how it ends,
 * its problems, and its actions. A narrow card puts the text under the picture.
 */
export function WebTaskCard({
  task,
  index,
  total,
  editable,
  full,
  errors,
  imageMissing,
  row,
  ...handlers
}: {
  task: WebTask;
  index: number;
  total: number;
  editable: boolean;
  full: boolean;
  errors: string[];
  imageMissing: boolean;
  row: SortableRow;
} & TaskActionHandlers) {
  const number = index + 1;
  const unique = useTaskProblems(imageMissing, errors);
  const narrow = useMediaQuery('(max-width: 36em)') === true;

  const handle = (
    <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
      {row.handle}
      <Badge tt="none" size="lg" variant="light" radius="sm" data-testid="task-number">
        {number}
      </Badge>
    </Group>
  );
  const thumbnail = <Thumbnail task={task} missing={imageMissing} number={number} />;
  const body = <TaskSummary task={task} problems={unique} />;
  const actions = (
    <WebTaskCardActions index={index} total={total} editable={editable} full={full} menu={narrow} {...handlers} />
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
            {thumbnail}
            <Box ml="auto">{actions}</Box>
          </Group>
          {body}
        </Stack>
      ) : (
        <Group gap="md" wrap="nowrap" align="flex-start">
          {handle}
          {thumbnail}
          {body}
          {actions}
        </Group>
      )}
    </Paper>
  );
}

/** What the task asks, how it ends (steps or any click, time limit), its extras and its problems. */
function TaskSummary({ task, problems }: { task: WebTask; problems: string[] }) {
  const { t } = useTranslation('tasks');
  return (
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
        <Badge
          tt="none"
          variant="light"
          color="gray"
          leftSection={task.is_timeout ? <IconClock size={12} /> : <IconClockOff size={12} />}
          data-testid="task-card-time"
        >
          {task.is_timeout ? t('card.timeout', { seconds: task.timeout }) : t('card.noTimeout')}
        </Badge>
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
      {problems.map((message) => (
        <Text key={message} size="xs" c="red" data-testid="task-card-error">
          {message}
        </Text>
      ))}
    </Stack>
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

/** The task's problems to show, each once: a screenshot that is not the research's, then the form's errors. */
function useTaskProblems(imageMissing: boolean, errors: string[]): string[] {
  const problems = imageMissing ? [translateMessage({ key: 'content.imageUnknown' }), ...errors] : errors;
  return [...new Set(problems)];
}
