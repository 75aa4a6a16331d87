import { type Point, REPORT_AREA_LIMIT, type ReportAreaInput, type ReportItem } from '@emolens/contracts';
import { ActionIcon, Button, Group, Modal, NumberInput, Slider, Stack, Text, TextInput } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconTrash } from '@tabler/icons-react';
import { type PointerEvent as ReactPointerEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n/messages.ts';
import { clamp01, type Rect, rectBetween } from '../content/zone-geometry.ts';
import { notifyError } from '../errors/notify.ts';
import { mediaFileUrl } from '../media/api.ts';
import { useSetReportAreas } from './api.ts';
import { MediaFrame } from './heatmap-view.tsx';

/** An area's identity in the list: where it is and what it is called. */
const areaKey = (a: ReportAreaInput) => `${a.x}:${a.y}:${a.width}:${a.height}:${a.from}:${a.to}:${a.name}`;

/** A drag shorter than this (px, either way) draws nothing. */
const MIN_DRAG_PX = 6;

const box = (r: Rect, color: string) =>
  ({
    position: 'absolute',
    left: `${r.x * 100}%`,
    top: `${r.y * 100}%`,
    width: `${r.width * 100}%`,
    height: `${r.height * 100}%`,
    border: `2px solid ${color}`,
    background: 'rgba(34, 139, 230, 0.12)',
    borderRadius: 4,
    pointerEvents: 'none',
  }) as const;

/**
 * Areas of interest drawn on one of the report's images (design section 8): drag a rectangle on the picture, name
 * it, save; the report is built again with them. The other items' drawn areas are kept as they are.
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
  /** A video: the area is drawn on a frame and counts within a time window. */
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
  const [pending, setPending] = useState<Rect | null>(null);
  const [name, setName] = useState('');
  const [drag, setDrag] = useState<{ start: Point; end: Point } | null>(null);
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
  };
  const full = others.length + areas.length >= REPORT_AREA_LIMIT;

  const pointOf = (event: ReactPointerEvent): Point => {
    const rect = surface.current?.getBoundingClientRect();
    if (!rect || rect.width === 0 || rect.height === 0) return { x: 0, y: 0 };
    return {
      x: clamp01((event.clientX - rect.left) / rect.width),
      y: clamp01((event.clientY - rect.top) / rect.height),
    };
  };
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || full) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const point = pointOf(event);
    setDrag({ start: point, end: point });
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (drag) setDrag({ start: drag.start, end: pointOf(event) });
  };
  const onPointerUp = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const end = pointOf(event);
    setDrag(null);
    const rect = surface.current?.getBoundingClientRect();
    const dx = Math.abs(end.x - drag.start.x) * (rect?.width ?? 0);
    const dy = Math.abs(end.y - drag.start.y) * (rect?.height ?? 0);
    if (dx < MIN_DRAG_PX || dy < MIN_DRAG_PX) return;
    setPending(rectBetween(drag.start, end));
  };
  const add = () => {
    if (!pending || !name.trim()) return;
    const [from, to] = isVideo ? timeWindow : [null, null];
    setAreas((current) => [...current, { item: item.index, name: name.trim(), ...pending, from, to }]);
    setPending(null);
    setName('');
  };
  const submit = () =>
    save.mutate([...others, ...areas], {
      onSuccess: onClose,
      onError: (error) => notifyError(error),
    });

  const drawing = drag ? rectBetween(drag.start, drag.end) : pending;
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
        <Text size="sm" c="dimmed">
          {full ? t('draw.full', { max: REPORT_AREA_LIMIT }) : t(isVideo ? 'draw.hintVideo' : 'draw.hint')}
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
            {areas.map((a) => (
              <div key={areaKey(a)} style={box(a, 'var(--mantine-color-blue-6)')}>
                <Text span size="xs" fw={700} px={4} bg="blue" c="white" style={{ borderRadius: 3 }}>
                  {a.name}
                </Text>
              </div>
            ))}
            {drawing && <div style={box(drawing, 'var(--mantine-color-orange-6)')} data-testid="area-pending" />}
          </div>
        </MediaFrame>
        {isVideo && (
          <Stack gap={4}>
            <Text size="xs" c="dimmed">
              {t('draw.frame', { second: at })}
            </Text>
            <Slider
              min={0}
              max={Math.max(0, Math.floor(duration))}
              step={1}
              value={at}
              onChange={seek}
              label={(v) => `${v} s`}
              aria-label={t('draw.frameLabel')}
              data-testid="area-frame"
            />
          </Stack>
        )}
        {pending && isVideo && (
          <Group gap="xs" align="flex-end">
            <NumberInput
              label={t('draw.from')}
              value={timeWindow[0]}
              min={0}
              max={duration}
              decimalScale={1}
              onChange={(v) => setTimeWindow(([, to]) => [typeof v === 'number' ? v : 0, to])}
              w={120}
              data-testid="area-from"
            />
            <NumberInput
              label={t('draw.to')}
              value={timeWindow[1]}
              min={0}
              max={duration}
              decimalScale={1}
              onChange={(v) => setTimeWindow(([from]) => [from, typeof v === 'number' ? v : duration])}
              error={timeWindow[1] <= timeWindow[0] ? translateMessage({ key: 'report.areaWindow' }) : undefined}
              w={120}
              data-testid="area-to"
            />
          </Group>
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
              style={{ flex: 1 }}
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
            <Button variant="subtle" color="gray" onClick={() => setPending(null)}>
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
