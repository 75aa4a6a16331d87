/**
 * The points of a task on its screenshot: the final point and the additional points, put with a
 * click on the picture and listed as chips under it.
 */
import type { Point } from '@emolens/contracts';
import { Alert, Badge, Box, CloseButton, Group, Paper, SegmentedControl, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconFlag, IconMapPin, IconPhoto } from '@tabler/icons-react';
import { type MouseEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mediaFileUrl } from '../media/api.ts';
import { MAX_POINTS, pointAt, type TaskDraft } from './web-tasks.ts';

type PointMode = 'final' | 'additional';
type PointsDraft = Pick<TaskDraft, 'image' | 'final_point' | 'additional_points'>;

/**
 * The points of the task's screenshot: which kind a click puts, the picture to click on (a
 * placeholder while there is none), the messages of the points and the list of them.
 */
export function TaskPoints({
  draft,
  readOnly,
  finalPointError,
  pointsError,
  onChange,
}: {
  draft: PointsDraft;
  readOnly: boolean;
  finalPointError: string | undefined;
  pointsError: string | undefined;
  onChange: (change: Partial<PointsDraft>) => void;
}) {
  const { t } = useTranslation('tasks');
  const [mode, setMode] = useState<PointMode>('final');
  const full = draft.additional_points.length >= MAX_POINTS;

  const place = (point: Point) => {
    if (mode === 'final') onChange({ final_point: point });
    else if (!full) onChange({ additional_points: [...draft.additional_points, point] });
  };
  const remove = (index: number) =>
    onChange({ additional_points: draft.additional_points.filter((_, i) => i !== index) });

  return (
    <>
      {draft.image ? (
        <>
          {!readOnly && (
            <Group justify="space-between" gap="xs" wrap="wrap">
              <SegmentedControl
                size="xs"
                value={mode}
                onChange={(value) => setMode(value as PointMode)}
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
    </>
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

/** A point on the screenshot: a button where clicking it removes the point, else only a mark. */
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
  const shared = {
    'aria-label': label,
    title: label,
    'data-testid': testId,
    'data-x': point.x,
    'data-y': point.y,
  };
  if (!onClick) {
    return (
      <span role="img" {...shared} style={{ ...style, pointerEvents: 'none' }}>
        {children}
      </span>
    );
  }
  return (
    <button type="button" {...shared} onClick={onClick} style={{ ...style, cursor: 'pointer' }}>
      {children}
    </button>
  );
}
