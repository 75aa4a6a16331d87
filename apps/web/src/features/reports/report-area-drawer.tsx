import {
  type AreaKeyFrame,
  type AreaShape,
  type Point,
  REPORT_AREA_LIMIT,
  type ReportAreaInput,
  type ReportItem,
  sameShapeKind,
  shapeAt,
  shapeBounds,
  shapeContains,
} from '@emolens/contracts';
import { ActionIcon, Button, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { type PointerEvent as ReactPointerEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clamp01, rectBetween, round4 } from '../content/zone-geometry.ts';
import { notifyError } from '../errors/notify.ts';
import { mediaFileUrl } from '../media/api.ts';
import { useSetReportAreas } from './api.ts';
import { ShapeLayer, ShapeOutline } from './area-shape.tsx';
import { MediaFrame } from './heatmap-view.tsx';
import { moveShape, withKeyFrame } from './report-area-shapes.ts';
import { VideoControls } from './report-area-video.tsx';

/** An area's identity in the list: what it is called and where it is. */
const areaKey = (a: ReportAreaInput) => `${a.name}:${JSON.stringify(a.shape)}:${a.key_frames.length}:${a.from}:${a.to}`;

/** A drag shorter than this (px, either way) draws nothing; a click this near the first point closes a polygon. */
const MIN_DRAG_PX = 6;
const CLOSE_PX = 10;

type Tool = 'rectangle' | 'polygon';

/**
 * Areas of interest drawn on one of the report's images or on its video (design section 8; decision 044): drag a
 * rectangle or click a polygon's points, name it, save; the report is built again with them. On a video the area
 * counts within a time window and may move: a key frame holds its shape at the frame shown, and between key frames
 * it moves linearly. A drawn shape is dragged to move it. The other items' drawn areas are kept as they are.
 */
export function AreaDrawer({
  researchId,
  reportId,
  item,
  isVideo,
  all,
  opened,
  onClose,
}: {
  researchId: string;
  reportId: string;
  item: ReportItem;
  /** A video: the area is drawn on a frame, counts within a time window and may move between key frames. */
  isVideo: boolean;
  /** Every drawn area of the report (all items). */
  all: ReportAreaInput[];
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('reportView');
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const save = useSetReportAreas(researchId, reportId);
  const [areas, setAreas] = useState<ReportAreaInput[]>(() => all.filter((a) => a.item === item.index));
  const [tool, setTool] = useState<Tool>('rectangle');
  const [pending, setPending] = useState<AreaShape | null>(null);
  const [points, setPoints] = useState<Point[] | null>(null);
  const [keyFrames, setKeyFrames] = useState<AreaKeyFrame[]>([]);
  const [name, setName] = useState('');
  const [drag, setDrag] = useState<{ start: Point; end: Point } | null>(null);
  const [move, setMove] = useState<{ origin: Point; base: AreaShape } | null>(null);
  const surface = useRef<HTMLDivElement>(null);
  const others = all.filter((a) => a.item !== item.index);
  // A video: the frame shown (s), and the new area's window.
  const duration =
    (item.seconds.at(-1) ?? 0) + (item.seconds.length > 1 ? (item.seconds[1] ?? 1) - (item.seconds[0] ?? 0) : 1);
  const [at, setAt] = useState(0);
  const [timeWindow, setTimeWindow] = useState<[number, number]>([0, duration]);
  const video = useRef<HTMLVideoElement>(null);
  const seek = (second: number) => {
    setAt(second);
    if (video.current) video.current.currentTime = second;
    // A moving area's shape follows the frame shown.
    const first = keyFrames[0];
    if (first) setPending(shapeAt({ shape: first.shape, key_frames: keyFrames }, second));
  };
  const full = others.length + areas.length >= REPORT_AREA_LIMIT;

  const size = () => surface.current?.getBoundingClientRect();
  const pointOf = (event: ReactPointerEvent): Point => {
    const rect = size();
    if (!rect || rect.width === 0 || rect.height === 0) return { x: 0, y: 0 };
    return {
      x: round4(clamp01((event.clientX - rect.left) / rect.width)),
      y: round4(clamp01((event.clientY - rect.top) / rect.height)),
    };
  };
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || full) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const point = pointOf(event);
    if (pending && !points && shapeContains(pending, point.x, point.y)) {
      setMove({ origin: point, base: pending });
      return;
    }
    if (tool === 'rectangle') setDrag({ start: point, end: point });
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (drag) setDrag({ start: drag.start, end: pointOf(event) });
    if (move) {
      const p = pointOf(event);
      setPending(moveShape(move.base, p.x - move.origin.x, p.y - move.origin.y));
    }
  };
  const onPointerUp = (event: ReactPointerEvent<HTMLDivElement>) => {
    const end = pointOf(event);
    const rect = size();
    const w = rect?.width ?? 0;
    const h = rect?.height ?? 0;
    if (move) {
      setMove(null);
      return;
    }
    if (tool === 'polygon') {
      const first = points?.[0];
      if (
        points &&
        first &&
        points.length >= 3 &&
        Math.hypot((end.x - first.x) * w, (end.y - first.y) * h) <= CLOSE_PX
      ) {
        closePolygon();
        return;
      }
      if (!points) setPending(null);
      setPoints([...(points ?? []), end]);
      return;
    }
    if (!drag) return;
    setDrag(null);
    if (Math.abs(end.x - drag.start.x) * w < MIN_DRAG_PX || Math.abs(end.y - drag.start.y) * h < MIN_DRAG_PX) return;
    setPending({ kind: 'rectangle', ...rectBetween(drag.start, end) });
  };
  const closePolygon = () => {
    if (!points || points.length < 3) return;
    setPending({ kind: 'polygon', points });
    setPoints(null);
  };
  const discard = () => {
    setPending(null);
    setPoints(null);
    setKeyFrames([]);
  };
  // A key frame must keep the area's kind (and a polygon's point count) so it can move between them.
  const keyFrameFits = !!pending && (!keyFrames[0] || sameShapeKind(keyFrames[0].shape, pending));
  const setKeyFrame = () => {
    if (pending && keyFrameFits) setKeyFrames((current) => withKeyFrame(current, { t: at, shape: pending }));
  };
  const add = () => {
    if (!pending || !name.trim()) return;
    const [from, to] = isVideo ? timeWindow : [null, null];
    const shape = keyFrames[0]?.shape ?? pending;
    setAreas((current) => [
      ...current,
      { item: item.index, name: name.trim(), shape, key_frames: keyFrames, from, to },
    ]);
    discard();
    setName('');
  };
  const submit = () =>
    save.mutate([...others, ...areas], {
      onSuccess: onClose,
      onError: (error) => notifyError(error),
    });

  const drawing: AreaShape | null = drag ? { kind: 'rectangle', ...rectBetween(drag.start, drag.end) } : pending;
  const hint = full
    ? t('draw.full', { max: REPORT_AREA_LIMIT })
    : tool === 'polygon'
      ? t('draw.hintPolygon')
      : t(isVideo ? 'draw.hintVideo' : 'draw.hint');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('draw.title', { label: item.label })}
      size="xl"
      fullScreen={phone}
      centered
      data-testid="area-drawer"
    >
      <Stack gap="md">
        <SegmentedControl
          value={tool}
          onChange={(v) => {
            setTool(v as Tool);
            setPoints(null);
          }}
          data={[
            { value: 'rectangle', label: t('draw.toolRectangle') },
            { value: 'polygon', label: t('draw.toolPolygon') },
          ]}
          aria-label={t('draw.tool')}
          data-testid="area-tool"
          style={{ alignSelf: 'flex-start' }}
        />
        <Text size="sm" c="dimmed">
          {hint}
        </Text>
        <MediaFrame width={item.width} height={item.height} maxHeight={phone ? 360 : 480}>
          {item.media_id && isVideo && (
            <video
              ref={video}
              // A media fragment makes the browser paint a frame before anything plays.
              src={`${mediaFileUrl(item.media_id)}#t=0.01`}
              muted
              preload="auto"
              style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }}
            />
          )}
          {item.media_id && !isVideo && (
            <img
              src={mediaFileUrl(item.media_id)}
              alt={item.label}
              draggable={false}
              style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', userSelect: 'none' }}
            />
          )}
          <div
            ref={surface}
            role="application"
            aria-label={t('draw.surface')}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            style={{ position: 'absolute', inset: 0, cursor: full ? 'default' : 'crosshair', touchAction: 'none' }}
            data-testid="area-surface"
          >
            <ShapeLayer width={1} height={1}>
              {areas.map((a) => (
                <ShapeOutline
                  key={areaKey(a)}
                  shape={shapeAt(a, at)}
                  stroke="var(--mantine-color-blue-6)"
                  fill="rgba(34, 139, 230, 0.12)"
                />
              ))}
              {drawing && (
                <ShapeOutline
                  shape={drawing}
                  stroke="var(--mantine-color-orange-6)"
                  fill="rgba(253, 126, 20, 0.15)"
                  testId="area-pending"
                />
              )}
              {points && points.length > 1 && (
                <polyline
                  points={points.map((p) => `${p.x},${p.y}`).join(' ')}
                  fill="none"
                  stroke="var(--mantine-color-orange-6)"
                  strokeWidth={2}
                  vectorEffect="non-scaling-stroke"
                />
              )}
            </ShapeLayer>
            {points?.map((p, i) => (
              <span
                // biome-ignore lint/suspicious/noArrayIndexKey: the points of the polygon being drawn, in order
                key={i}
                data-testid="area-point"
                style={{
                  position: 'absolute',
                  left: `calc(${p.x * 100}% - 4px)`,
                  top: `calc(${p.y * 100}% - 4px)`,
                  width: 8,
                  height: 8,
                  borderRadius: 4,
                  background: i === 0 ? 'var(--mantine-color-orange-8)' : 'var(--mantine-color-orange-5)',
                  pointerEvents: 'none',
                }}
              />
            ))}
            {areas.map((a) => {
              const b = shapeBounds(shapeAt(a, at));
              return (
                <Text
                  key={areaKey(a)}
                  span
                  size="xs"
                  fw={700}
                  px={4}
                  bg="blue"
                  c="white"
                  style={{
                    position: 'absolute',
                    left: `${b.x * 100}%`,
                    top: `${b.y * 100}%`,
                    borderRadius: 3,
                    pointerEvents: 'none',
                  }}
                >
                  {a.name}
                </Text>
              );
            })}
          </div>
        </MediaFrame>
        {points && (
          <Group gap="xs">
            <Button size="xs" onClick={closePolygon} disabled={points.length < 3} data-testid="area-close">
              {t('draw.close')}
            </Button>
            <Button size="xs" variant="subtle" color="gray" onClick={discard}>
              {t('draw.discard')}
            </Button>
          </Group>
        )}
        {isVideo && (
          <VideoControls
            at={at}
            duration={duration}
            seek={seek}
            pending={!!pending}
            keyFrames={keyFrames}
            keyFrameFits={keyFrameFits}
            setKeyFrame={setKeyFrame}
            clearKeyFrames={() => setKeyFrames([])}
            timeWindow={timeWindow}
            setTimeWindow={setTimeWindow}
          />
        )}
        {pending && (
          <Group gap="xs" align="flex-end">
            <TextInput
              label={t('draw.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') add();
              }}
              maxLength={100}
              style={{ flex: 1, minWidth: 160 }}
              data-autofocus
              data-testid="area-name"
            />
            <Button
              onClick={add}
              disabled={!name.trim() || (isVideo && timeWindow[1] <= timeWindow[0])}
              data-testid="area-add"
            >
              {t('draw.add')}
            </Button>
            <Button variant="subtle" color="gray" onClick={discard}>
              {t('draw.discard')}
            </Button>
          </Group>
        )}
        <Stack gap={6}>
          {areas.map((a, i) => (
            <Group key={areaKey(a)} gap="xs" justify="space-between" wrap="nowrap" data-testid="area-drawn">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {a.name}
                {a.from !== null && a.to !== null && (
                  <Text span size="xs" c="dimmed" ml={6}>
                    {t('draw.window', { from: a.from, to: a.to })}
                  </Text>
                )}
                {a.key_frames.length > 0 && (
                  <Text span size="xs" c="dimmed" ml={6}>
                    {t('draw.moving', { count: a.key_frames.length })}
                  </Text>
                )}
              </Text>
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('draw.remove', { name: a.name })}
                onClick={() => setAreas((current) => current.filter((_, k) => k !== i))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
        </Stack>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('draw.cancel')}
          </Button>
          <Button onClick={submit} loading={save.isPending} data-testid="area-save">
            {t('draw.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
