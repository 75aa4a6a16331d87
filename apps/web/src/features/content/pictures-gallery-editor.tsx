import {
  CONTENT_DEFAULTS,
  galleryWith,
  type Media,
  type PictureGallery,
  pictureGallerySchema,
} from '@emolens/contracts';
import { Alert, Badge, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconClock, IconPhoto, IconPhotoPlus } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { MoveButtons, SortableList } from '../../components/sortable-list.tsx';
import {
  EditorHeading,
  errorsOf,
  FormError,
  formatDuration,
  moveItem,
  refreshErrors,
  SecondsInput,
} from './content-form.tsx';
import { MediaThumb, useResearchImages } from './media-image.tsx';
import type { ContentEditorProps } from './research-content.tsx';

const PREFIX = 'picture_gallery';

/**
 * The pictures gallery of a pictures research (spec section 5: `picture_gallery`): every picture
 * uploaded to the research, in the order respondents see them, each with its duration. A picture
 * uploaded just now joins the end with the default duration; the gallery is saved with the form.
 */
export function PicturesGalleryEditor({ form, research, editable }: ContentEditorProps) {
  const { t } = useTranslation('content');
  const { list, images, byId } = useResearchImages(research.id);
  const ids = images.map((media) => media.id);
  const idsKey = ids.join(',');
  const gallery = galleryWith(form.values.picture_gallery, ids);
  const items = gallery.items;
  const total = items.reduce(
    (sum, item) => sum + (Number.isFinite(item.duration_seconds) ? item.duration_seconds : 0),
    0,
  );

  /** The form's gallery becomes `next`; the messages under it follow at once. */
  const write = (next: PictureGallery) => {
    form.setFieldValue(PREFIX, next);
    refreshErrors(form, PREFIX, errorsOf(pictureGallerySchema, next, PREFIX), true);
  };
  /** Changes the gallery as it is shown (with the pictures uploaded since it was loaded). */
  const change = (update: (items: PictureGallery['items']) => PictureGallery['items']) => {
    const current = galleryWith(form.getValues().picture_gallery, ids);
    write({ items: update(current.items) });
  };

  // A deleted picture leaves the gallery, so that a save does not name a file that is gone.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the research's pictures only
  useEffect(() => {
    if (!editable || !list.isSuccess) return;
    const present = new Set(ids);
    const current = form.getValues().picture_gallery;
    if (current.items.some((item) => !present.has(item.image))) {
      write({ items: current.items.filter((item) => present.has(item.image)) });
    }
  }, [idsKey, list.isSuccess, editable]);

  const move = (from: number, to: number) => {
    if (from === to || to < 0 || to >= items.length) return;
    change((current) => moveItem(current, from, to));
  };
  const setDuration = (image: string, seconds: number) =>
    change((current) => current.map((item) => (item.image === image ? { ...item, duration_seconds: seconds } : item)));

  // Errors are kept at the indices of the form's own list, which may still lack new pictures.
  const formItems = form.values.picture_gallery.items;
  const errorAt = (image: string, field: 'duration_seconds' | 'image') => {
    const index = formItems.findIndex((item) => item.image === image);
    return index < 0 ? undefined : form.errors[`${PREFIX}.items.${index}.${field}`];
  };
  const listError = form.errors[`${PREFIX}.items`] ?? form.errors[PREFIX];

  return (
    <Stack gap="md" data-testid="gallery-editor">
      <EditorHeading
        title={t('gallery.title')}
        subtitle={
          <>
            {t('gallery.subtitle')}
            {editable && ` ${t('gallery.subtitleNew', { seconds: CONTENT_DEFAULTS.pictureSeconds })}`}
          </>
        }
      >
        {items.length > 0 && (
          <Group gap="lg">
            <Group gap={6} c="dimmed">
              <IconPhoto size={16} />
              <Text size="sm" data-testid="gallery-count">
                {t('gallery.count', { number: items.length })}
              </Text>
            </Group>
            <Group gap={6} c="blue.7">
              <IconClock size={16} />
              <Text size="sm" fw={600} data-testid="gallery-total">
                {t('gallery.total', { duration: formatDuration(total, t) })}
              </Text>
            </Group>
          </Group>
        )}
      </EditorHeading>

      <FormError error={listError} testId="gallery-error" />

      {list.isPending ? (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            {t('gallery.loading')}
          </Text>
        </Group>
      ) : items.length === 0 ? (
        <Alert variant="light" color="gray" icon={<IconPhotoPlus size={18} />} data-testid="gallery-empty">
          {editable ? t('gallery.empty') : t('gallery.emptyReadOnly')}
        </Alert>
      ) : (
        <SortableList
          items={items}
          getId={(item) => item.image}
          texts="picture"
          valuesOf={(item) => ({ name: byId.get(item.image)?.filename ?? item.image })}
          editable={editable}
          gap="xs"
          testId="gallery"
          onMove={move}
        >
          {(item, index, row) => {
            const media = byId.get(item.image);
            const name = media?.filename ?? item.image;
            return (
              <Paper {...row.props} withBorder radius="md" p="sm" data-testid="gallery-row" data-image={item.image}>
                <Group gap="md" wrap="nowrap" align="center">
                  <Group gap={6} wrap="nowrap">
                    {row.handle}
                    <Badge variant="light" radius="sm" size="lg" miw={36} data-testid="gallery-position">
                      {index + 1}
                    </Badge>
                  </Group>
                  <MediaThumb media={media} width={96} height={64} />
                  <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                    <Text size="sm" fw={600} truncate="end" title={name} data-testid="gallery-name">
                      {name}
                    </Text>
                    <PictureMeta media={media} />
                    {errorAt(item.image, 'image') && (
                      <Text size="xs" c="red">
                        {errorAt(item.image, 'image')}
                      </Text>
                    )}
                  </Stack>
                  <SecondsInput
                    w={150}
                    readOnly={!editable}
                    aria-label={t('gallery.durationOf', { name })}
                    seconds={item.duration_seconds}
                    onSeconds={(seconds) => setDuration(item.image, seconds)}
                    error={errorAt(item.image, 'duration_seconds')}
                    data-testid="gallery-duration"
                  />
                  {editable && (
                    <Group gap={2} wrap="nowrap">
                      <MoveButtons
                        index={index}
                        count={items.length}
                        onMove={move}
                        testId="gallery"
                        labels={{ up: t('actions.moveUp'), down: t('actions.moveDown') }}
                      />
                    </Group>
                  )}
                </Group>
              </Paper>
            );
          }}
        </SortableList>
      )}
    </Stack>
  );
}

function PictureMeta({ media }: { media: Media | undefined }) {
  const { t } = useTranslation('content');
  if (!media) return null;
  const parts: string[] = [];
  if (media.width !== null && media.height !== null) {
    parts.push(t('units.pixels', { width: media.width, height: media.height }));
  }
  if (media.status !== 'ready') parts.push(t(`status.${media.status}`));
  if (parts.length === 0) return null;
  return (
    <Text size="xs" c={media.status === 'failed' ? 'red' : 'dimmed'}>
      {parts.join(' · ')}
    </Text>
  );
}
