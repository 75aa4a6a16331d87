import { type Media, msg, type ShelfZone } from '@emolens/contracts';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type KeyboardEvent as ReactKeyboardEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../i18n/messages.ts';
import { mediaFileUrl } from '../media/api.ts';
import { type Size, useZoneSize } from './zone-format.ts';
import { type Rect, repeatsDescription } from './zone-geometry.ts';

/** Asks for the name and the description of a zone just drawn; the zone is added only with both. */
export function NewZoneModal({
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
