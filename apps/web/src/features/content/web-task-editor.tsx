/**
 * The task editor of a website research: the modal in which one task is edited as a draft (its
 * screenshot and points, description, time limit and switches, steps), built from the parts in
 * task-screenshot-picker, task-points-canvas and task-steps-editor.
 */
import { type Media, msg, type WebTask } from '@emolens/contracts';
import {
  Alert,
  Badge,
  Box,
  Button,
  Divider,
  Grid,
  Group,
  Modal,
  NumberInput,
  Paper,
  Stack,
  Switch,
  Text,
  Textarea,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconClick, IconClock, IconDeviceFloppy } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { translateMessage } from '../../i18n/messages.ts';
import { FigmaPreviewModal } from './figma-preview-modal.tsx';
import { TaskPoints } from './task-points-canvas.tsx';
import { TaskScreenshotPicker } from './task-screenshot-picker.tsx';
import { TaskStepsEditor } from './task-steps-editor.tsx';
import { checkTask, type TaskDraft, TIMEOUT_RANGE } from './web-tasks.ts';

/**
 * One task, edited as a draft: it goes into the research's list only when the contract accepts it
 * (spec section 5), and the research's Save button keeps it.
 */
export function TaskEditorModal({
  researchId,
  initial,
  number,
  isNew,
  readOnly,
  images,
  imageIds,
  figmaSite,
  onSave,
  onClose,
}: {
  researchId: string;
  initial: TaskDraft;
  number: number;
  isNew: boolean;
  readOnly: boolean;
  images: Media[];
  imageIds: ReadonlySet<string> | undefined;
  /** The research's site when it is a Figma prototype (its screens can be previewed), else undefined. */
  figmaSite: string | undefined;
  onSave: (task: WebTask) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('tasks');
  const compact = useMediaQuery('(max-width: 62em)');
  const [draft, setDraft] = useState(initial);
  const [attempted, setAttempted] = useState(false);
  const [preview, setPreview] = useState<{ url: string; title: string } | null>(null);

  const check = useMemo(() => checkTask(draft, imageIds, msg('content.imageUnknown')), [draft, imageIds]);
  const update = (change: Partial<TaskDraft>) => setDraft((prev) => ({ ...prev, ...change }));

  /**
   * The message of a field, translated, once the user tried to save (a message appearing on blur
   * would move the buttons under the pointer between the press and the release).
   */
  const errorOf = (path: string, shown = attempted): string | undefined => {
    const message = check.errors[path];
    return message && shown ? translateMessage(message) : undefined;
  };

  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  const requestClose = () => {
    if (readOnly || !dirty) {
      onClose();
      return;
    }
    openConfirm({
      title: t('editor.discard.title'),
      children: <Text size="sm">{t('editor.discard.text')}</Text>,
      labels: { confirm: t('editor.discard.confirm'), cancel: t('editor.discard.keep') },
      confirmProps: { color: 'red', 'data-testid': 'task-confirm-discard' },
      centered: true,
      zIndex: 400,
      onConfirm: onClose,
    });
  };

  const save = () => {
    if (check.task) onSave(check.task);
    else setAttempted(true);
  };

  const setAnyClick = (on: boolean) => {
    if (on && draft.steps.length > 0) {
      openConfirm({
        title: t('editor.anyClickConfirm.title'),
        children: <Text size="sm">{t('editor.anyClickConfirm.text', { number: draft.steps.length })}</Text>,
        labels: { confirm: t('editor.anyClickConfirm.confirm'), cancel: t('actions.cancel') },
        confirmProps: { color: 'orange', 'data-testid': 'any-click-confirm' },
        cancelProps: { 'data-testid': 'any-click-cancel' } as Record<string, string>,
        centered: true,
        zIndex: 400,
        onConfirm: () => setDraft((prev) => ({ ...prev, anyIsFinal: true, steps: [] })),
      });
      return;
    }
    setDraft((prev) => ({ ...prev, anyIsFinal: on, steps: on ? [] : prev.steps }));
  };

  const summary = attempted ? [...new Set(Object.values(check.errors).map((m) => translateMessage(m)))] : [];

  return (
    <Modal
      opened
      onClose={requestClose}
      size={1120}
      fullScreen={compact}
      closeOnClickOutside={false}
      title={
        <Group gap="xs">
          <Badge tt="none" size="lg" variant="light" radius="sm">
            {number}
          </Badge>
          <Text fw={600}>{isNew ? t('editor.newTitle') : t('editor.editTitle', { number })}</Text>
        </Group>
      }
    >
      <Stack gap="lg" data-testid="task-editor">
        <Grid gap="xl">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <Stack gap="sm">
              <TaskScreenshotPicker
                researchId={researchId}
                images={images}
                image={draft.image}
                readOnly={readOnly}
                error={errorOf('image', attempted || check.errors.image === msg('content.imageUnknown'))}
                onImage={(image) => update({ image })}
              />
              <TaskPoints
                draft={draft}
                readOnly={readOnly}
                finalPointError={errorOf('final_point')}
                pointsError={errorOf('additional_points')}
                onChange={update}
              />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <Stack gap="md">
              <Textarea
                label={t('editor.description')}
                description={t('editor.descriptionHint')}
                placeholder={readOnly ? undefined : t('editor.descriptionPlaceholder')}
                withAsterisk={!readOnly}
                readOnly={readOnly}
                autosize
                minRows={3}
                maxRows={8}
                maxLength={2000}
                value={draft.description}
                onChange={(event) => update({ description: event.currentTarget.value })}
                error={errorOf('description')}
                data-autofocus
                data-testid="task-description"
              />

              <Paper withBorder radius="md" p="sm">
                <Stack gap="xs">
                  <Switch
                    label={t('editor.timeLimit')}
                    description={t('editor.timeLimitHint')}
                    checked={draft.is_timeout}
                    disabled={readOnly}
                    onChange={(event) => {
                      const on = event.currentTarget.checked;
                      setDraft((prev) => ({
                        ...prev,
                        is_timeout: on,
                        // An emptied limit that is switched off goes back to the one it had.
                        timeout: !on && String(prev.timeout).trim() === '' ? initial.timeout : prev.timeout,
                      }));
                    }}
                    data-testid="task-is-timeout"
                  />
                  <NumberInput
                    aria-label={t('editor.timeout')}
                    description={t('editor.timeoutHint', { min: TIMEOUT_RANGE.min, max: TIMEOUT_RANGE.max })}
                    suffix={` ${t('editor.seconds')}`}
                    min={TIMEOUT_RANGE.min}
                    max={TIMEOUT_RANGE.max}
                    step={5}
                    allowDecimal={false}
                    allowNegative={false}
                    clampBehavior="none"
                    disabled={!draft.is_timeout}
                    readOnly={readOnly}
                    maw={220}
                    value={draft.timeout}
                    onChange={(value) => update({ timeout: value })}
                    error={errorOf('timeout')}
                    leftSection={<IconClock size={16} />}
                    data-testid="task-timeout"
                  />
                </Stack>
              </Paper>

              <Switch
                label={t('editor.withContinuation')}
                description={t('editor.withContinuationHint')}
                checked={draft.withContinuation}
                disabled={readOnly}
                onChange={(event) => update({ withContinuation: event.currentTarget.checked })}
                data-testid="task-with-continuation"
              />
              <Switch
                label={t('editor.autoShow')}
                description={t('editor.autoShowHint')}
                checked={draft.autoShowTaskDescription}
                disabled={readOnly}
                onChange={(event) => update({ autoShowTaskDescription: event.currentTarget.checked })}
                data-testid="task-auto-show"
              />
              <Switch
                label={t('editor.anyClick')}
                description={t('editor.anyClickHint')}
                checked={draft.anyIsFinal}
                disabled={readOnly}
                color="teal"
                onChange={(event) => setAnyClick(event.currentTarget.checked)}
                data-testid="task-any-click"
              />
            </Stack>
          </Grid.Col>
        </Grid>

        <Divider />

        {draft.anyIsFinal ? (
          <Alert variant="light" color="teal" icon={<IconClick size={18} />} data-testid="any-click-note">
            {t('editor.anyClickOn')}
          </Alert>
        ) : (
          <TaskStepsEditor
            steps={draft.steps}
            readOnly={readOnly}
            attempted={attempted}
            errorOf={errorOf}
            figmaSite={figmaSite}
            onPreview={(url, title) => setPreview({ url, title })}
            onChange={(steps) => update({ steps })}
          />
        )}

        <Box
          pt="md"
          pb="xs"
          style={{
            position: 'sticky',
            bottom: 0,
            zIndex: 5,
            background: 'var(--mantine-color-body)',
            borderTop: '1px solid var(--mantine-color-default-border)',
          }}
        >
          <Group justify="flex-end" gap="sm" wrap="nowrap">
            {readOnly ? (
              <Button variant="default" onClick={onClose}>
                {t('actions.close')}
              </Button>
            ) : (
              <>
                {summary.length > 0 ? (
                  <Group gap={6} wrap="nowrap" align="flex-start" mr="auto" style={{ minWidth: 0 }}>
                    <IconAlertCircle size={18} color="var(--mantine-color-red-6)" style={{ flexShrink: 0 }} />
                    <Text size="sm" c="red" lineClamp={3} data-testid="task-errors">
                      <Text span fw={600} inherit>
                        {t('editor.invalid')}:
                      </Text>{' '}
                      {summary.join(' · ')}
                    </Text>
                  </Group>
                ) : (
                  <Text size="xs" c="dimmed" mr="auto">
                    {t('editor.saveHint')}
                  </Text>
                )}
                <Button variant="default" onClick={requestClose} style={{ flexShrink: 0 }} data-testid="task-cancel">
                  {t('actions.cancel')}
                </Button>
                <Button
                  leftSection={<IconDeviceFloppy size={16} />}
                  onClick={save}
                  style={{ flexShrink: 0 }}
                  data-testid="task-save"
                >
                  {isNew ? t('editor.add') : t('editor.save')}
                </Button>
              </>
            )}
          </Group>
        </Box>
      </Stack>
      {preview && <FigmaPreviewModal url={preview.url} title={preview.title} onClose={() => setPreview(null)} />}
    </Modal>
  );
}
