/**
 * The steps of a website task: the prototype's screens the participant goes through, by node id,
 * with a preview of each screen when the prototype is on Figma.
 */
import { msg } from '@emolens/contracts';
import { ActionIcon, Badge, Button, Checkbox, Group, Paper, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconEye, IconInfoCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { MoveButtons } from '../../components/sortable-list.tsx';
import { translateMessage } from '../../i18n/messages.ts';
import { FormError, moveItem } from './content-form.tsx';
import {
  type DraftStep,
  emptyStep,
  figmaScreenUrl,
  isNodeId,
  MAX_STEPS,
  nextStepBlocker,
  nodeIdFromInput,
} from './web-tasks.ts';

/**
 * The steps of a task (spec section 5): screens of the prototype in order, one of them at least
 * completing the task. A step joins only after the last one is complete, and a screen already in
 * the list is refused.
 */
export function TaskStepsEditor({
  steps,
  readOnly,
  attempted,
  errorOf,
  figmaSite,
  onPreview,
  onChange,
}: {
  steps: DraftStep[];
  readOnly: boolean;
  attempted: boolean;
  /** The translated message of a field, when `shown` (by default once a save was tried). */
  errorOf: (path: string, shown?: boolean) => string | undefined;
  /** The research's site when it is a Figma prototype: its screens can then be previewed. */
  figmaSite: string | undefined;
  onPreview: (url: string, title: string) => void;
  onChange: (steps: DraftStep[]) => void;
}) {
  const { t } = useTranslation('tasks');
  const isFigma = figmaSite !== undefined;
  const blocker = nextStepBlocker(steps);
  const listError = errorOf('steps');
  const change = (index: number, patch: Partial<DraftStep>) =>
    onChange(steps.map((step, i) => (i === index ? { ...step, ...patch } : step)));

  const add = () => {
    if (blocker !== null) return;
    onChange([...steps, emptyStep()]);
  };

  return (
    <Stack gap="sm" data-testid="steps-editor">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2}>
          <Group gap={8}>
            <Text fw={600}>{t('steps.title')}</Text>
            {steps.length > 0 && (
              <Badge tt="none" variant="light" color="gray" size="sm">
                {steps.length}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed" maw={640}>
            {t('steps.hint')}
          </Text>
        </Stack>
      </Group>

      {steps.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="steps-empty">
          {readOnly ? t('steps.emptyReadOnly') : t('steps.empty')}
        </Text>
      )}

      {steps.map((step, index) => {
        const nodePath = `steps.${index}.targetNodeId`;
        const nodeError = errorOf(
          nodePath,
          // A screen already in the list is refused at once, while the id is typed.
          attempted || errorOf(nodePath, true) === translateMessage(msg('content.stepTwice')),
        );
        const url = isFigma ? figmaScreenUrl(figmaSite, step.targetNodeId) : undefined;
        return (
          <Paper
            key={step.key}
            withBorder
            radius="md"
            p="sm"
            data-testid="step-row"
            data-invalid={!!nodeError || undefined}
          >
            <Group gap="sm" align="flex-start" wrap="wrap">
              <Badge tt="none" variant="light" radius="sm" size="lg" mt={4} data-testid="step-number">
                {index + 1}
              </Badge>
              <TextInput
                w={230}
                aria-label={t('steps.nodeId', { number: index + 1 })}
                placeholder={t('steps.nodeIdPlaceholder')}
                readOnly={readOnly}
                maxLength={100}
                value={step.targetNodeId}
                onChange={(event) => change(index, { targetNodeId: nodeIdFromInput(event.currentTarget.value) })}
                error={nodeError}
                styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
                data-testid="step-node-id"
              />
              <TextInput
                style={{ flex: 1, minWidth: 200 }}
                aria-label={t('steps.description', { number: index + 1 })}
                placeholder={readOnly ? undefined : t('steps.descriptionPlaceholder')}
                readOnly={readOnly}
                maxLength={1000}
                value={step.description}
                onChange={(event) => change(index, { description: event.currentTarget.value })}
                error={errorOf(`steps.${index}.description`)}
                data-testid="step-description"
              />
              <Checkbox
                mt={8}
                label={t('steps.isFinal')}
                checked={step.isFinal}
                disabled={readOnly}
                onChange={(event) => change(index, { isFinal: event.currentTarget.checked })}
                data-testid="step-final"
              />
              <Group gap={2} wrap="nowrap" mt={2}>
                {isFigma && (
                  <Tooltip
                    label={
                      url
                        ? t('steps.preview')
                        : step.targetNodeId.trim()
                          ? translateMessage(msg('content.nodeIdInvalid'))
                          : translateMessage(msg('content.nodeIdMissing'))
                    }
                    withArrow
                  >
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('steps.preview')}
                      data-disabled={!url || undefined}
                      onClick={() => url && onPreview(url, t('steps.previewTitle', { node: step.targetNodeId }))}
                      data-testid="step-preview"
                    >
                      <IconEye size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
                {!readOnly && (
                  <>
                    <MoveButtons
                      index={index}
                      count={steps.length}
                      onMove={(from, to) => onChange(moveItem(steps, from, to))}
                      testId="step"
                      labels={{ up: t('actions.moveUp'), down: t('actions.moveDown') }}
                    />
                    <Tooltip label={t('steps.delete')} withArrow>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('steps.delete')}
                        onClick={() => onChange(steps.filter((_, i) => i !== index))}
                        data-testid="step-delete"
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Tooltip>
                  </>
                )}
              </Group>
            </Group>
          </Paper>
        );
      })}

      <FormError error={listError} testId="steps-error" />

      {!readOnly && (
        <Group gap="sm">
          <Tooltip
            label={
              blocker === 'limit'
                ? t('steps.addLimit', { max: MAX_STEPS })
                : t('steps.addBlocked', { number: blocker ?? 0 })
            }
            disabled={blocker === null}
            withArrow
            multiline
            w={300}
          >
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              onClick={add}
              data-disabled={blocker !== null || undefined}
              aria-disabled={blocker !== null}
              data-testid="step-add"
            >
              {t('steps.add')}
            </Button>
          </Tooltip>
          {steps.length > 0 && !steps.some((step) => step.isFinal) && !listError && (
            <Group gap={6} c="dimmed">
              <IconInfoCircle size={14} />
              <Text size="xs">{t('steps.markFinal')}</Text>
            </Group>
          )}
        </Group>
      )}
      {isFigma && steps.some((step) => isNodeId(step.targetNodeId)) && (
        <Text size="xs" c="dimmed">
          {t('steps.previewHint')}
        </Text>
      )}
    </Stack>
  );
}
