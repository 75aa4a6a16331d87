import { CONTENT_MESSAGES, MEDIA_LIMITS, type Media, mediaKindOf, type Point, type WebTask } from '@emolens/contracts';
import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Checkbox,
  CloseButton,
  Divider,
  Grid,
  Group,
  Image,
  Input,
  Modal,
  NumberInput,
  Paper,
  Progress,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  ThemeIcon,
  Tooltip,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import {
  IconAlertCircle,
  IconClick,
  IconClock,
  IconDeviceFloppy,
  IconEye,
  IconFlag,
  IconInfoCircle,
  IconMapPin,
  IconPhoto,
  IconPlus,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type MouseEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Upload } from 'tus-js-client';
import { MoveButtons } from '../../components/sortable-list.tsx';
import { translateValidation } from '../campaigns/messages.ts';
import { checkMediaFile, createMediaUpload, mediaKeys, type UploadFailure } from '../media/api.ts';
import { FormError, moveItem } from './content-form.tsx';
import { mediaFileUrl } from './media-image.tsx';
import {
  checkTask,
  type DraftStep,
  emptyStep,
  figmaScreenUrl,
  isNodeId,
  MAX_POINTS,
  MAX_STEPS,
  nextStepBlocker,
  nodeIdFromInput,
  pointAt,
  type TaskDraft,
  TIMEOUT_RANGE,
} from './web-tasks.ts';

type PointMode = 'final' | 'additional';

/** A Figma prototype in an iframe: mounted only when the analyst asks, so figma.com is not called before. */
export function FigmaPreviewModal({ url, title, onClose }: { url: string; title: string; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={title} size="90%" centered>
      <Stack gap="xs" data-testid="figma-preview-modal">
        <Box
          style={{
            borderRadius: 'var(--mantine-radius-md)',
            overflow: 'hidden',
            border: '1px solid var(--mantine-color-default-border)',
            background: 'var(--mantine-color-gray-1)',
          }}
        >
          <iframe
            src={url}
            title={title}
            allowFullScreen
            style={{ display: 'block', width: '100%', height: '70vh', border: 0 }}
            data-testid="figma-preview-frame"
          />
        </Box>
        <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
          {url}
        </Text>
      </Stack>
    </Modal>
  );
}

/**
 * One task, edited as a draft: it goes into the research's list only when the contract accepts it
 * (spec section 5), and the research's Save button keeps it.
 */
export function TaskEditorModal({
  campaignId,
  initial,
  number,
  isNew,
  readOnly,
  images,
  imageIds,
  siteUrl,
  isFigma,
  onSave,
  onClose,
}: {
  campaignId: string;
  initial: TaskDraft;
  number: number;
  isNew: boolean;
  readOnly: boolean;
  images: Media[];
  imageIds: ReadonlySet<string> | undefined;
  siteUrl: string;
  isFigma: boolean;
  onSave: (task: WebTask) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('tasks');
  const { t: tc } = useTranslation('campaigns');
  const compact = useMediaQuery('(max-width: 62em)');
  const [draft, setDraft] = useState(initial);
  const [attempted, setAttempted] = useState(false);
  const [mode, setMode] = useState<PointMode>('final');
  const [preview, setPreview] = useState<{ url: string; title: string } | null>(null);

  const check = useMemo(() => checkTask(draft, imageIds, CONTENT_MESSAGES.imageUnknown), [draft, imageIds]);
  const update = (change: Partial<TaskDraft>) => setDraft((prev) => ({ ...prev, ...change }));

  /**
   * The message of a field, translated, once the user tried to save (a message appearing on blur
   * would move the buttons under the pointer between the press and the release).
   */
  const errorOf = (path: string, shown = attempted): string | undefined => {
    const message = check.errors[path];
    return message && shown ? translateValidation(message, tc) : undefined;
  };

  const dirty = JSON.stringify(draft) !== JSON.stringify(initial);
  const requestClose = () => {
    if (readOnly || !dirty) {
      onClose();
      return;
    }
    modals.openConfirmModal({
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
      modals.openConfirmModal({
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

  const summary = attempted ? [...new Set(Object.values(check.errors).map((m) => translateValidation(m, tc)))] : [];

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
        <Grid gutter="xl">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <ScreenshotField
              campaignId={campaignId}
              draft={draft}
              images={images}
              readOnly={readOnly}
              mode={mode}
              onMode={setMode}
              imageError={errorOf('image', attempted || check.errors.image === CONTENT_MESSAGES.imageUnknown)}
              finalPointError={errorOf('final_point')}
              pointsError={errorOf('additional_points')}
              onChange={update}
            />
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
          <StepsEditor
            steps={draft.steps}
            readOnly={readOnly}
            attempted={attempted}
            errorOf={errorOf}
            figmaUrl={(nodeId) => (isFigma ? figmaScreenUrl(siteUrl, nodeId) : undefined)}
            isFigma={isFigma}
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

/** The screenshot: chosen from the research's pictures or uploaded here, with its points. */
function ScreenshotField({
  campaignId,
  draft,
  images,
  readOnly,
  mode,
  onMode,
  imageError,
  finalPointError,
  pointsError,
  onChange,
}: {
  campaignId: string;
  draft: TaskDraft;
  images: Media[];
  readOnly: boolean;
  mode: PointMode;
  onMode: (mode: PointMode) => void;
  imageError: string | undefined;
  finalPointError: string | undefined;
  pointsError: string | undefined;
  onChange: (change: Partial<TaskDraft>) => void;
}) {
  const { t } = useTranslation('tasks');
  const full = draft.additional_points.length >= MAX_POINTS;
  const options = images.map((m) => ({ value: m.id, label: m.filename }));

  const place = (point: Point) => {
    if (mode === 'final') onChange({ final_point: point });
    else if (!full) onChange({ additional_points: [...draft.additional_points, point] });
  };
  const remove = (index: number) =>
    onChange({ additional_points: draft.additional_points.filter((_, i) => i !== index) });

  return (
    <Stack gap="sm">
      <Input.Wrapper
        label={t('editor.screenshot')}
        description={t('editor.screenshotHint')}
        withAsterisk={!readOnly}
        error={imageError}
        errorProps={{ 'data-testid': 'task-image-error' } as Record<string, string>}
      >
        <Group gap="xs" mt={6} align="flex-start" wrap="nowrap">
          <Select
            style={{ flex: 1, minWidth: 0 }}
            placeholder={images.length ? t('editor.chooseImage') : t('editor.noImages')}
            data={options}
            value={options.some((o) => o.value === draft.image) ? draft.image : null}
            onChange={(value) => onChange({ image: value ?? '' })}
            readOnly={readOnly}
            disabled={!readOnly && images.length === 0}
            allowDeselect={false}
            searchable
            nothingFoundMessage={t('editor.noImageFound')}
            error={!!imageError}
            leftSection={
              draft.image && options.some((o) => o.value === draft.image) ? (
                <Image src={mediaFileUrl(draft.image)} w={24} h={18} radius={3} fit="cover" alt="" />
              ) : (
                <IconPhoto size={16} />
              )
            }
            renderOption={({ option }) => (
              <Group gap="sm" wrap="nowrap">
                <Image src={mediaFileUrl(option.value)} w={48} h={32} radius={4} fit="cover" alt="" />
                <Text size="sm" truncate="end">
                  {option.label}
                </Text>
              </Group>
            )}
            comboboxProps={{ zIndex: 400 }}
            data-testid="task-image-select"
          />
          {!readOnly && <ScreenshotUpload campaignId={campaignId} onUploaded={(id) => onChange({ image: id })} />}
        </Group>
      </Input.Wrapper>

      {draft.image ? (
        <>
          {!readOnly && (
            <Group justify="space-between" gap="xs" wrap="wrap">
              <SegmentedControl
                size="xs"
                value={mode}
                onChange={(value) => onMode(value as PointMode)}
                data={[
                  {
                    value: 'final',
                    label: (
                      <Group gap={6} wrap="nowrap" justify="center">
                        <IconFlag size={14} />
                        <span>{t('editor.mode.final')}</span>
                      </Group>
                    ),
                  },
                  {
                    value: 'additional',
                    label: (
                      <Group gap={6} wrap="nowrap" justify="center">
                        <IconMapPin size={14} />
                        <span>{t('editor.mode.additional')}</span>
                      </Group>
                    ),
                  },
                ]}
                data-testid="point-mode"
              />
              <Text size="xs" c="dimmed" data-testid="point-mode-hint">
                {mode === 'final'
                  ? t('editor.finalHint')
                  : full
                    ? t('editor.pointsLimit', { max: MAX_POINTS })
                    : t('editor.additionalHint')}
              </Text>
            </Group>
          )}
          <PointsCanvas
            image={draft.image}
            finalPoint={draft.final_point}
            additional={draft.additional_points}
            mode={mode}
            readOnly={readOnly}
            invalid={!!finalPointError}
            onPlace={place}
            onRemove={remove}
          />
        </>
      ) : (
        <Paper
          withBorder
          radius="md"
          p="xl"
          style={{
            borderStyle: 'dashed',
            borderColor: finalPointError ? 'var(--mantine-color-red-5)' : undefined,
            background: 'var(--mantine-color-gray-0)',
          }}
          data-testid="task-canvas-empty"
        >
          <Stack align="center" gap={6} ta="center">
            <ThemeIcon variant="light" color="gray" size={44} radius="xl">
              <IconPhoto size={24} />
            </ThemeIcon>
            <Text size="sm" c="dimmed" maw={360}>
              {t('editor.noScreenshot')}
            </Text>
          </Stack>
        </Paper>
      )}
      {finalPointError && (
        <Text size="sm" c="red" data-testid="task-final-point-error">
          {finalPointError}
        </Text>
      )}
      {pointsError && (
        <Text size="sm" c="red">
          {pointsError}
        </Text>
      )}

      {draft.image && (draft.final_point || draft.additional_points.length > 0) && (
        <Group gap={6} data-testid="point-list">
          {draft.final_point && (
            <Badge
              tt="none"
              variant="light"
              color="green"
              leftSection={<IconFlag size={12} />}
              data-testid="final-point-chip"
            >
              {t('editor.finalAt', percent(draft.final_point))}
            </Badge>
          )}
          {draft.additional_points.map((point, index) => (
            <Badge
              tt="none"
              // biome-ignore lint/suspicious/noArrayIndexKey: points have no identity besides their place
              key={index}
              variant="light"
              color="indigo"
              pr={readOnly ? undefined : 3}
              rightSection={
                readOnly ? undefined : (
                  <CloseButton
                    size="xs"
                    variant="transparent"
                    aria-label={t('editor.removePoint', { number: index + 1 })}
                    onClick={() => remove(index)}
                    data-testid="additional-point-remove"
                  />
                )
              }
              data-testid="additional-point-chip"
            >
              {t('editor.pointAt', { number: index + 1, ...percent(point) })}
            </Badge>
          ))}
        </Group>
      )}
    </Stack>
  );
}

function percent(point: Point): { x: string; y: string } {
  return { x: `${Math.round(point.x * 100)}%`, y: `${Math.round(point.y * 100)}%` };
}

/**
 * The screenshot at the width of the column (tall pages scroll); a click puts a point where it
 * lands, as fractions of the image. A keyboard press puts it in the middle, to be moved with a click.
 */
function PointsCanvas({
  image,
  finalPoint,
  additional,
  mode,
  readOnly,
  invalid,
  onPlace,
  onRemove,
}: {
  image: string;
  finalPoint: Point | null;
  additional: Point[];
  mode: PointMode;
  readOnly: boolean;
  invalid: boolean;
  onPlace: (point: Point) => void;
  onRemove: (index: number) => void;
}) {
  const { t } = useTranslation('tasks');
  const surface = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: another image may load where one failed
  useEffect(() => setFailed(false), [image]);

  const place = (event: MouseEvent<HTMLButtonElement>) => {
    const box = surface.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return;
    if (event.detail === 0) onPlace(pointAt(0.5, 0.5));
    else onPlace(pointAt((event.clientX - box.left) / box.width, (event.clientY - box.top) / box.height));
  };

  if (failed) {
    return (
      <Alert color="red" variant="light" icon={<IconPhoto size={18} />} data-testid="task-image-failed">
        {t('editor.imageFailed')}
      </Alert>
    );
  }

  return (
    <Box
      style={{
        maxHeight: 560,
        overflow: 'auto',
        borderRadius: 'var(--mantine-radius-md)',
        border: `1px solid ${invalid ? 'var(--mantine-color-red-5)' : 'var(--mantine-color-default-border)'}`,
        background: 'var(--mantine-color-gray-1)',
      }}
    >
      <div ref={surface} style={{ position: 'relative', lineHeight: 0 }} data-testid="task-canvas">
        <img
          src={mediaFileUrl(image)}
          alt=""
          draggable={false}
          onError={() => setFailed(true)}
          style={{ display: 'block', width: '100%', height: 'auto', userSelect: 'none' }}
        />
        <button
          type="button"
          aria-label={mode === 'final' ? t('editor.canvasFinal') : t('editor.canvasAdditional')}
          disabled={readOnly}
          onClick={place}
          style={{
            position: 'absolute',
            inset: 0,
            padding: 0,
            border: 0,
            background: 'transparent',
            cursor: readOnly ? 'default' : 'crosshair',
          }}
          data-testid="task-canvas-target"
        />
        {additional.map((point, index) => (
          <Marker
            // biome-ignore lint/suspicious/noArrayIndexKey: points have no identity besides their place
            key={index}
            point={point}
            color="var(--mantine-color-indigo-6)"
            size={24}
            label={t('editor.removePoint', { number: index + 1 })}
            onClick={!readOnly && mode === 'additional' ? () => onRemove(index) : undefined}
            testId="additional-point-marker"
          >
            {index + 1}
          </Marker>
        ))}
        {finalPoint && (
          <Marker
            point={finalPoint}
            color="var(--mantine-color-green-7)"
            size={30}
            label={t('editor.finalMarker')}
            testId="final-point-marker"
            halo
          >
            <IconFlag size={16} />
          </Marker>
        )}
      </div>
    </Box>
  );
}

function Marker({
  point,
  color,
  size,
  label,
  onClick,
  testId,
  halo = false,
  children,
}: {
  point: Point;
  color: string;
  size: number;
  label: string;
  onClick?: (() => void) | undefined;
  testId: string;
  halo?: boolean;
  children: ReactNode;
}) {
  const style = {
    position: 'absolute' as const,
    left: `${point.x * 100}%`,
    top: `${point.y * 100}%`,
    width: size,
    height: size,
    transform: 'translate(-50%, -50%)',
    borderRadius: '50%',
    background: color,
    color: 'white',
    border: '2px solid white',
    boxShadow: halo
      ? `0 0 0 4px color-mix(in srgb, ${color} 35%, transparent), 0 2px 6px rgba(0,0,0,.35)`
      : '0 2px 6px rgba(0,0,0,.35)',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    fontSize: 12,
    fontWeight: 700,
    lineHeight: 1,
    padding: 0,
  };
  if (!onClick) {
    return (
      <span
        role="img"
        aria-label={label}
        title={label}
        style={{ ...style, pointerEvents: 'none' }}
        data-testid={testId}
        data-x={point.x}
        data-y={point.y}
      >
        {children}
      </span>
    );
  }
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      style={{ ...style, cursor: 'pointer' }}
      data-testid={testId}
      data-x={point.x}
      data-y={point.y}
    >
      {children}
    </button>
  );
}

interface Transfer {
  name: string;
  sent: number;
  total: number;
}

/** A screenshot uploaded right from the task (a picture of the research, like those above). */
function ScreenshotUpload({ campaignId, onUploaded }: { campaignId: string; onUploaded: (mediaId: string) => void }) {
  const { t } = useTranslation('tasks');
  const { t: tm } = useTranslation('media');
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const upload = useRef<Upload | null>(null);
  const [transfer, setTransfer] = useState<Transfer | null>(null);
  const [problem, setProblem] = useState<UploadFailure | null>(null);

  useEffect(() => () => void upload.current?.abort(), []);

  const start = async (file: File) => {
    setProblem(null);
    const invalid = mediaKindOf(file.name) === 'image' ? checkMediaFile(file) : 'invalidFormat';
    if (invalid) {
      setProblem(invalid);
      return;
    }
    setTransfer({ name: file.name, sent: 0, total: file.size });
    const next = await createMediaUpload(campaignId, file, {
      onProgress: (sent, total) => setTransfer((prev) => (prev ? { ...prev, sent, total } : prev)),
      onSuccess: (mediaId) => {
        upload.current = null;
        setTransfer(null);
        void client.invalidateQueries({ queryKey: mediaKeys.list(campaignId) }).then(() => {
          if (mediaId) onUploaded(mediaId);
        });
      },
      onError: (failure) => {
        upload.current = null;
        setTransfer(null);
        setProblem(failure);
        void client.invalidateQueries({ queryKey: mediaKeys.list(campaignId) });
      },
    });
    upload.current = next;
    next.start();
  };

  const percentDone = transfer && transfer.total > 0 ? Math.floor((transfer.sent / transfer.total) * 100) : 0;

  return (
    <Stack gap={4} style={{ flexShrink: 0 }} w={transfer ? 160 : undefined}>
      <Tooltip label={t('editor.uploadHint', { size: MEDIA_LIMITS.imageBytes / (1024 * 1024) })} withArrow>
        <Button
          variant="light"
          leftSection={<IconUpload size={16} />}
          loading={transfer !== null}
          onClick={() => input.current?.click()}
          data-testid="task-image-upload"
        >
          {t('editor.upload')}
        </Button>
      </Tooltip>
      <input
        ref={input}
        type="file"
        hidden
        accept="image/jpeg,image/png,.jpeg,.jpg,.png"
        data-testid="task-image-input"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file) void start(file);
        }}
      />
      {transfer && <Progress value={percentDone} size="sm" animated aria-label={tm('progress.aria')} />}
      {problem && (
        <Text size="xs" c="red" data-testid="task-image-upload-error">
          {tm(`errors.${problem}`)}
        </Text>
      )}
    </Stack>
  );
}

/**
 * The steps of a task (spec section 5): screens of the prototype in order, one of them at least
 * completing the task. A step joins only after the last one is complete, and a screen already in
 * the list is refused.
 */
function StepsEditor({
  steps,
  readOnly,
  attempted,
  errorOf,
  figmaUrl,
  isFigma,
  onPreview,
  onChange,
}: {
  steps: DraftStep[];
  readOnly: boolean;
  attempted: boolean;
  errorOf: (path: string, shown?: boolean) => string | undefined;
  figmaUrl: (nodeId: string) => string | undefined;
  isFigma: boolean;
  onPreview: (url: string, title: string) => void;
  onChange: (steps: DraftStep[]) => void;
}) {
  const { t } = useTranslation('tasks');
  const { t: tc } = useTranslation('campaigns');
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
          attempted || errorOf(nodePath, true) === stepTwice(tc),
        );
        const url = figmaUrl(step.targetNodeId);
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
                          ? translateValidation(CONTENT_MESSAGES.nodeIdInvalid, tc)
                          : translateValidation(CONTENT_MESSAGES.nodeIdMissing, tc)
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

type TC = (key: string, options?: Record<string, unknown>) => string;
const stepTwice = (tc: TC) => translateValidation(CONTENT_MESSAGES.stepTwice, tc);
