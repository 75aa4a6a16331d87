import { type Media, msg, type Point, type ShelfZone } from '@emolens/contracts';
import {
  ActionIcon,
  alpha,
  Box,
  Button,
  ColorSwatch,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconPhotoOff, IconTrash } from '@tabler/icons-react';
import {
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
  type PointerEvent as ReactPointerEvent,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n/messages.ts';
import { mediaFileUrl } from '../media/api.ts';
import { FormError } from './content-form.tsx';
import { clamp01, type Rect, rectBetween, repeatedDescriptions, repeatsDescription, zoneAt } from './zone-geometry.ts';

/*
 * The zone editor of a shelf display: the zones (areas of interest) are drawn with the mouse on the
 * shelf image and kept as fractions of its width and height, so they do not depend on the size the
 * image is drawn at.
 */

/** The tallest a shelf image is drawn for its zones. */
const CANVAS_MAX_HEIGHT = 560;
/** A drag shorter than this (px, either way) is a click: it selects a zone instead of drawing one. */
const MIN_DRAG_PX = 6;
const ZONE_COLORS = ['blue', 'orange', 'teal', 'grape', 'pink', 'cyan', 'lime', 'indigo', 'red', 'yellow'];

interface Size {
  width: number;
  height: number;
}

const zoneColor = (index: number) => `var(--mantine-color-${ZONE_COLORS[index % ZONE_COLORS.length]}-6)`;

function usePercent() {
  const { i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 1 });
  return (fraction: number) => format.format(fraction);
}

/** "25 % × 30 % · 320 × 180 px": a zone's size, in pixels too when the image's own size is known. */
function useZoneSize() {
  const { t } = useTranslation('content');
  const percent = usePercent();
  return (rect: Pick<Rect, 'width' | 'height'>, natural: Size | null) => {
    const parts = [t('zones.size', { width: percent(rect.width), height: percent(rect.height) })];
    if (natural) {
      parts.push(
        t('units.pixels', {
          width: Math.round(rect.width * natural.width),
          height: Math.round(rect.height * natural.height),
        }),
      );
    }
    return parts.join(' · ');
  };
}

/**
 * The zones of one shelf image: drawn with the mouse on the image (a rectangle from where the
 * button goes down to where it comes up), listed below it with their names, descriptions and sizes.
 */
export function ZoneEditor({
  zones,
  media,
  editable,
  errorOf,
  onZones,
}: {
  zones: ShelfZone[];
  media: Media | undefined;
  editable: boolean;
  errorOf: (path: string) => ReactNode;
  onZones: (update: (zones: ShelfZone[]) => ShelfZone[]) => void;
}) {
  const { t } = useTranslation('content');
  const zoneSize = useZoneSize();
  const [selected, setSelected] = useState<number | null>(null);
  const [pending, setPending] = useState<Rect | null>(null);
  const [loaded, setLoaded] = useState<{ id: string; size: Size } | null>(null);

  const natural: Size | null =
    media && loaded?.id === media.id
      ? loaded.size
      : media?.width && media.height
        ? { width: media.width, height: media.height }
        : null;
  const repeated = repeatedDescriptions(zones);
  const uniqueMessage = translateMessage(msg('content.zoneDescriptionsUnique'));

  const setZone = (index: number, patch: Partial<ShelfZone>) =>
    onZones((current) => current.map((zone, i) => (i === index ? { ...zone, ...patch } : zone)));
  const removeZone = (index: number) => {
    onZones((current) => current.filter((_, i) => i !== index));
    setSelected((current) => (current === null || current === index ? null : current > index ? current - 1 : current));
  };
  const addZone = (name: string, description: string) => {
    if (!pending) return;
    const zone: ShelfZone = { name, description, ...pending };
    setSelected(zones.length);
    onZones((current) => [...current, zone]);
    setPending(null);
  };

  if (!media) {
    return (
      <Paper
        radius="md"
        p="xl"
        bg="var(--mantine-color-gray-0)"
        style={{ border: '1px dashed var(--mantine-color-gray-4)' }}
        data-testid="zone-no-image"
      >
        <Stack gap={6} align="center">
          <IconPhotoOff size={28} color="var(--mantine-color-gray-5)" />
          <Text size="sm" c="dimmed" ta="center">
            {t('zones.noImage')}
          </Text>
        </Stack>
      </Paper>
    );
  }

  return (
    <Stack gap="sm">
      {editable && (
        <Text size="sm" c="dimmed">
          {t('zones.hint')}
        </Text>
      )}
      <ZoneCanvas
        media={media}
        zones={zones}
        selected={selected}
        editable={editable}
        natural={natural}
        pending={pending}
        onLoad={(size) => setLoaded({ id: media.id, size })}
        onSelect={setSelected}
        onDraw={setPending}
        onDelete={removeZone}
      />
      <FormError error={errorOf('')} />
      {zones.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="zones-empty">
          {editable ? t('zones.empty') : t('zones.emptyReadOnly')}
        </Text>
      ) : (
        <Stack gap="xs" data-testid="zone-list">
          {zones.map((zone, index) => {
            const color = zoneColor(index);
            const isSelected = selected === index;
            const placeError = errorOf(`${index}.width`) ?? errorOf(`${index}.height`) ?? errorOf(`${index}.x`);
            return (
              <Paper
                // biome-ignore lint/suspicious/noArrayIndexKey: zones have no ids; a row is its place in the list
                key={index}
                withBorder
                radius="md"
                p="sm"
                onClick={() => setSelected(index)}
                onFocusCapture={() => setSelected(index)}
                data-testid="zone-row"
                data-selected={isSelected || undefined}
                style={{
                  borderColor: isSelected ? color : undefined,
                  boxShadow: isSelected ? `0 0 0 1px ${color}` : undefined,
                  background: isSelected ? alpha(color, 0.04) : undefined,
                }}
              >
                <Stack gap="xs">
                  <Group justify="space-between" wrap="nowrap" gap="sm">
                    <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                      <ColorSwatch color={color} size={14} withShadow={false} />
                      <Text size="sm" fw={600}>
                        {t('zones.zone', { number: index + 1 })}
                      </Text>
                      <Text size="xs" c="dimmed" truncate="end" data-testid="zone-size">
                        {zoneSize(zone, natural)}
                      </Text>
                    </Group>
                    {editable && (
                      <Tooltip label={t('zones.delete')} withArrow>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('zones.deleteNumber', { number: index + 1 })}
                          onClick={(event) => {
                            event.stopPropagation();
                            removeZone(index);
                          }}
                          data-testid="zone-delete"
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                  <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" verticalSpacing="xs">
                    <TextInput
                      label={t('zones.name')}
                      placeholder={editable ? t('zones.namePlaceholder') : undefined}
                      withAsterisk={editable}
                      readOnly={!editable}
                      maxLength={100}
                      value={zone.name}
                      onChange={(event) => setZone(index, { name: event.currentTarget.value })}
                      error={errorOf(`${index}.name`)}
                      data-testid="zone-name"
                    />
                    <TextInput
                      label={t('zones.description')}
                      placeholder={editable ? t('zones.descriptionPlaceholder') : undefined}
                      withAsterisk={editable}
                      readOnly={!editable}
                      maxLength={500}
                      value={zone.description}
                      onChange={(event) => setZone(index, { description: event.currentTarget.value })}
                      error={errorOf(`${index}.description`) ?? (repeated.has(index) ? uniqueMessage : undefined)}
                      data-testid="zone-description"
                    />
                  </SimpleGrid>
                  {placeError && (
                    <Text size="xs" c="red">
                      {placeError}
                    </Text>
                  )}
                </Stack>
              </Paper>
            );
          })}
        </Stack>
      )}
      {pending && (
        <NewZoneModal
          rect={pending}
          media={media}
          natural={natural}
          zones={zones}
          number={zones.length + 1}
          onAdd={addZone}
          onCancel={() => setPending(null)}
        />
      )}
    </Stack>
  );
}

/** The image with its zones over it; the pointer draws new zones and picks drawn ones. */
function ZoneCanvas({
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

/** Asks for the name and the description of a zone just drawn; the zone is added only with both. */
function NewZoneModal({
  rect,
  media,
  natural,
  zones,
  number,
  onAdd,
  onCancel,
}: {
  rect: Rect;
  media: Media;
  natural: Size | null;
  zones: ShelfZone[];
  number: number;
  onAdd: (name: string, description: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('content');
  const zoneSize = useZoneSize();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [tried, setTried] = useState(false);

  const repeated = repeatsDescription(zones, description);
  const required = translateMessage(msg('validation.required'));
  const nameError = tried && name.trim() === '' ? required : undefined;
  const descriptionError = repeated
    ? translateMessage(msg('content.zoneDescriptionsUnique'))
    : tried && description.trim() === ''
      ? required
      : undefined;

  const confirm = () => {
    setTried(true);
    if (name.trim() === '' || description.trim() === '' || repeated) return;
    onAdd(name.trim(), description.trim());
  };
  const onEnter = (event: ReactKeyboardEvent) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      confirm();
    }
  };

  // The drawn part of the image, cut out with a background (fractions map to background percentages).
  const span = (size: number, offset: number) => (size >= 1 ? 0 : (offset / (1 - size)) * 100);
  const previewRatio = natural
    ? (rect.width * natural.width) / (rect.height * natural.height)
    : rect.width / rect.height;

  return (
    <Modal
      opened
      onClose={onCancel}
      title={t('zones.newTitle', { number })}
      centered
      radius="lg"
      data-testid="zone-modal"
    >
      <Stack gap="md">
        <Group gap="md" wrap="nowrap" align="center">
          <div
            aria-hidden
            style={{
              width: Math.min(120, 80 * previewRatio),
              height: Math.min(80, 120 / previewRatio),
              flexShrink: 0,
              borderRadius: 'var(--mantine-radius-sm)',
              border: '1px solid var(--mantine-color-gray-3)',
              backgroundImage: `url("${mediaFileUrl(media.id)}")`,
              backgroundSize: `${100 / rect.width}% ${100 / rect.height}%`,
              backgroundPosition: `${span(rect.width, rect.x)}% ${span(rect.height, rect.y)}%`,
              backgroundRepeat: 'no-repeat',
            }}
          />
          <Text size="sm" c="dimmed" data-testid="zone-modal-size">
            {zoneSize(rect, natural)}
          </Text>
        </Group>
        <TextInput
          label={t('zones.name')}
          placeholder={t('zones.namePlaceholder')}
          withAsterisk
          data-autofocus
          maxLength={100}
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          onKeyDown={onEnter}
          error={nameError}
          data-testid="zone-modal-name"
        />
        <TextInput
          label={t('zones.description')}
          description={t('zones.descriptionHint')}
          placeholder={t('zones.descriptionPlaceholder')}
          withAsterisk
          maxLength={500}
          value={description}
          onChange={(event) => setDescription(event.currentTarget.value)}
          onKeyDown={onEnter}
          error={descriptionError}
          data-testid="zone-modal-description"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} data-testid="zone-modal-cancel">
            {t('actions.cancel')}
          </Button>
          <Button onClick={confirm} disabled={repeated} data-testid="zone-modal-add">
            {t('zones.add')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
