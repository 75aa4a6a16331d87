import { type Media, msg, type ShelfZone } from '@emolens/contracts';
import {
  ActionIcon,
  alpha,
  ColorSwatch,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconPhotoOff, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n/messages.ts';
import { FormError } from './content-form.tsx';
import { NewZoneModal } from './new-zone-modal.tsx';
import { ZoneCanvas } from './zone-canvas.tsx';
import { type Size, useZoneSize, zoneColor } from './zone-format.ts';
import { type Rect, repeatedDescriptions } from './zone-geometry.ts';

/*
 * The zone editor of a shelf display: the zones (areas of interest) are drawn with the mouse on the
 * shelf image and kept as fractions of its width and height, so they do not depend on the size the
 * image is drawn at.
 */

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
