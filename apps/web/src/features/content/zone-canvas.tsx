import type { Media, Point, ShelfZone } from '@emolens/contracts';
import { alpha, Box, Stack, Text } from '@mantine/core';
import { IconPhotoOff } from '@tabler/icons-react';
import { type PointerEvent as ReactPointerEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mediaFileUrl } from '../media/api.ts';
import { type Size, zoneColor } from './zone-format.ts';
import { clamp01, type Rect, rectBetween, zoneAt } from './zone-geometry.ts';

/** The tallest a shelf image is drawn for its zones. */
const CANVAS_MAX_HEIGHT = 560;
/** A drag shorter than this (px, either way) is a click: it selects a zone instead of drawing one. */
const MIN_DRAG_PX = 6;

/** The image with its zones over it; the pointer draws new zones and picks drawn ones. */
export function ZoneCanvas({
  media,
  zones,
  selected,
  editable,
  natural,
  pending,
  onLoad,
  onSelect,
  onDraw,
  onDelete,
}: {
  media: Media;
  zones: ShelfZone[];
  selected: number | null;
  editable: boolean;
  natural: Size | null;
  pending: Rect | null;
  onLoad: (size: Size) => void;
  onSelect: (index: number | null) => void;
  onDraw: (rect: Rect) => void;
  onDelete: (index: number) => void;
}) {
  const { t } = useTranslation('content');
  const surface = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ start: Point; end: Point } | null>(null);
  const [failed, setFailed] = useState(false);

  const pointOf = (event: ReactPointerEvent): Point => {
    const box = surface.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return { x: 0, y: 0 };
    return { x: clamp01((event.clientX - box.left) / box.width), y: clamp01((event.clientY - box.top) / box.height) };
  };
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.focus({ preventScroll: true });
    const point = pointOf(event);
    if (!editable) {
      onSelect(zoneAt(zones, point));
      return;
    }
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ start: point, end: point });
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const end = pointOf(event);
    setDrag({ start: drag.start, end });
  };
  const onPointerUp = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const end = pointOf(event);
    setDrag(null);
    const box = surface.current?.getBoundingClientRect();
    const dx = Math.abs(end.x - drag.start.x) * (box?.width ?? 0);
    const dy = Math.abs(end.y - drag.start.y) * (box?.height ?? 0);
    if (dx < MIN_DRAG_PX || dy < MIN_DRAG_PX) {
      onSelect(zoneAt(zones, end));
      return;
    }
    const rect = rectBetween(drag.start, end);
    if (rect.width > 0 && rect.height > 0) onDraw(rect);
  };

  const drawing = drag ? rectBetween(drag.start, drag.end) : pending;
  // Once the image's own size is known the frame takes its proportions, so the zones lie exactly on it.
  const frame = natural
    ? {
        width: `min(100%, ${Math.round((CANVAS_MAX_HEIGHT * natural.width) / natural.height)}px)`,
        aspectRatio: `${natural.width} / ${natural.height}`,
      }
    : { width: 'fit-content', maxWidth: '100%' };

  return (
    <Box
      p="xs"
      style={{
        borderRadius: 'var(--mantine-radius-md)',
        background: 'var(--mantine-color-gray-1)',
        display: 'flex',
        justifyContent: 'center',
      }}
    >
      <Box
        style={{ position: 'relative', lineHeight: 0, userSelect: 'none', ...frame }}
        data-testid="zone-canvas-frame"
      >
        {failed ? (
          <Stack gap={6} align="center" justify="center" p="xl" h="100%" style={{ lineHeight: 1.4 }}>
            <IconPhotoOff size={28} color="var(--mantine-color-gray-5)" />
            <Text size="sm" c="dimmed">
              {t('zones.imageFailed')}
            </Text>
          </Stack>
        ) : (
          <img
            src={mediaFileUrl(media.id)}
            alt={media.filename}
            draggable={false}
            onLoad={(event) => {
              const image = event.currentTarget;
              if (image.naturalWidth && image.naturalHeight) {
                onLoad({ width: image.naturalWidth, height: image.naturalHeight });
              }
            }}
            onError={() => setFailed(true)}
            style={
              natural
                ? { display: 'block', width: '100%', height: '100%' }
                : { display: 'block', maxWidth: '100%', maxHeight: CANVAS_MAX_HEIGHT }
            }
          />
        )}
        <div
          ref={surface}
          role="application"
          aria-label={editable ? t('zones.canvasLabel') : t('zones.canvasLabelReadOnly')}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the surface takes Delete for the selected zone
          tabIndex={0}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => setDrag(null)}
          onKeyDown={(event) => {
            if (!editable || selected === null) return;
            if (event.key === 'Delete' || event.key === 'Backspace') {
              event.preventDefault();
              onDelete(selected);
            } else if (event.key === 'Escape') {
              onSelect(null);
            }
          }}
          data-testid="zone-canvas"
          style={{
            position: 'absolute',
            inset: 0,
            cursor: editable ? 'crosshair' : 'default',
            touchAction: 'none',
            outline: 'none',
          }}
        >
          {zones.map((zone, index) => (
            <ZoneBox
              // biome-ignore lint/suspicious/noArrayIndexKey: zones have no ids; a box is its place in the list
              key={index}
              rect={zone}
              color={zoneColor(index)}
              label={`${index + 1}${zone.name.trim() ? ` · ${zone.name.trim()}` : ''}`}
              selected={selected === index}
              dimmed={selected !== null && selected !== index}
            />
          ))}
          {drawing && <ZoneBox rect={drawing} color={zoneColor(zones.length)} label="" selected drawing />}
        </div>
      </Box>
    </Box>
  );
}

function ZoneBox({
  rect,
  color,
  label,
  selected,
  dimmed = false,
  drawing = false,
}: {
  rect: Rect;
  color: string;
  label: string;
  selected: boolean;
  dimmed?: boolean;
  drawing?: boolean;
}) {
  return (
    <div
      data-testid={drawing ? 'zone-draft' : 'zone-box'}
      data-selected={selected || undefined}
      style={{
        position: 'absolute',
        left: `${rect.x * 100}%`,
        top: `${rect.y * 100}%`,
        width: `${rect.width * 100}%`,
        height: `${rect.height * 100}%`,
        border: `2px ${drawing ? 'dashed' : 'solid'} ${color}`,
        background: alpha(color, selected ? 0.3 : 0.18),
        boxShadow: selected && !drawing ? `0 0 0 2px white, 0 0 0 4px ${color}` : undefined,
        opacity: dimmed ? 0.6 : 1,
        borderRadius: 3,
        pointerEvents: 'none',
        boxSizing: 'border-box',
        zIndex: selected ? 2 : 1,
      }}
    >
      {label && (
        <span
          style={{
            position: 'absolute',
            left: -2,
            top: -2,
            maxWidth: 'calc(100% + 4px)',
            padding: '2px 6px',
            background: color,
            color: 'white',
            fontSize: 11,
            fontWeight: 600,
            lineHeight: 1.3,
            borderRadius: '3px 0 3px 0',
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
          }}
        >
          {label}
        </span>
      )}
    </div>
  );
}
