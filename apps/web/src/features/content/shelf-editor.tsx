import {
  CONTENT_DEFAULTS,
  CONTENT_LIMITS,
  type Media,
  type ShelfDisplay,
  shelfContentScenarioSchema,
} from '@emolens/contracts';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Divider,
  Grid,
  Group,
  Paper,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconArrowsShuffle, IconMarquee2, IconPhotoPlus, IconPlus, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { MoveButtons } from '../../components/sortable-list.tsx';
import { EditorHeading, errorsOf, FormError, moveItem, newId, refreshErrors, SecondsInput } from './content-form.tsx';
import { MediaThumb, useResearchImages } from './media-image.tsx';
import type { ContentEditorProps } from './research-content.tsx';
import { ZoneEditor } from './zone-editor.tsx';

const PREFIX = 'shelf_content_scenario';

/**
 * The shelf of a shelf research (spec section 5): its displays in showing order, each an image
 * with its zones (areas of interest drawn on it), and whether the displays are shown in random
 * order. Saved with the form.
 */
export function ShelfEditor({ form, research, editable }: ContentEditorProps) {
  const { t } = useTranslation('content');
  const { list, images, byId } = useResearchImages(research.id);
  const displays = form.values.shelf_content_scenario;
  const [focusId, setFocusId] = useState<string | null>(null);

  const change = (update: (displays: ShelfDisplay[]) => ShelfDisplay[]) => {
    const next = update(form.getValues().shelf_content_scenario);
    form.setFieldValue(PREFIX, next);
    refreshErrors(form, PREFIX, errorsOf(shelfContentScenarioSchema, next, PREFIX), false);
  };
  const changeDisplay = (id: string, update: (display: ShelfDisplay) => ShelfDisplay) =>
    change((current) => current.map((display) => (display.id === id ? update(display) : display)));

  const add = () => {
    const used = new Set(form.getValues().shelf_content_scenario.map((display) => display.image));
    const display: ShelfDisplay = {
      id: newId(),
      name: '',
      task: '',
      duration_seconds: CONTENT_DEFAULTS.shelfSeconds,
      auto_display: true,
      // The first picture no shelf shows yet; the analyst may choose another.
      image: images.find((media) => !used.has(media.id))?.id ?? '',
      zones: [],
    };
    change((current) => [...current, display]);
    setFocusId(display.id);
  };

  const move = (from: number, to: number) => change((current) => moveItem(current, from, to));

  const remove = (display: ShelfDisplay, index: number) => {
    const drop = () => change((current) => current.filter((d) => d.id !== display.id));
    if (display.zones.length === 0 && display.name.trim() === '') {
      drop();
      return;
    }
    const name = display.name.trim() || t('shelf.untitled', { number: index + 1 });
    openConfirm({
      title: t('shelf.deleteTitle'),
      children: <Text size="sm">{t('shelf.deleteText', { name, zones: display.zones.length })}</Text>,
      labels: { confirm: t('actions.delete'), cancel: t('actions.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'shelf-confirm-delete' },
      centered: true,
      onConfirm: drop,
    });
  };

  const listError = form.errors[PREFIX];

  return (
    <Stack gap="md" data-testid="shelf-editor">
      <EditorHeading title={t('shelf.title')} subtitle={t('shelf.subtitle')}>
        {editable && (
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={add}
            disabled={displays.length >= CONTENT_LIMITS.shelves}
            data-testid="shelf-add"
          >
            {t('shelf.add')}
          </Button>
        )}
      </EditorHeading>

      <Switch
        label={t('shelf.randomOrder')}
        description={t('shelf.randomOrderHint')}
        thumbIcon={form.values.shelf_setting.isRandomOrder ? <IconArrowsShuffle size={10} /> : undefined}
        checked={form.values.shelf_setting.isRandomOrder}
        disabled={!editable}
        onChange={(event) => form.setFieldValue('shelf_setting', { isRandomOrder: event.currentTarget.checked })}
        data-testid="shelf-random-order"
      />

      {list.isSuccess && images.length === 0 && (
        <Alert variant="light" color="gray" icon={<IconPhotoPlus size={18} />} data-testid="shelf-no-images">
          {editable ? t('shelf.noImages') : t('shelf.noImagesReadOnly')}
        </Alert>
      )}
      <FormError error={listError} />

      {displays.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="shelf-empty">
          {editable ? t('shelf.empty') : t('shelf.emptyReadOnly')}
        </Text>
      ) : (
        <Stack gap="lg" data-testid="shelf-list">
          {displays.map((display, index) => (
            <ShelfDisplayCard
              key={display.id}
              display={display}
              index={index}
              count={displays.length}
              images={images}
              imagesLoading={list.isPending}
              media={byId.get(display.image)}
              editable={editable}
              focus={focusId === display.id}
              errorOf={(path) => form.errors[`${PREFIX}.${index}.${path}`]}
              onChange={(update) => changeDisplay(display.id, update)}
              onMove={move}
              onRemove={() => remove(display, index)}
            />
          ))}
        </Stack>
      )}

      {editable && displays.length > 0 && (
        <Group>
          <Button
            variant="subtle"
            leftSection={<IconPlus size={16} />}
            onClick={add}
            disabled={displays.length >= CONTENT_LIMITS.shelves}
          >
            {t('shelf.addAnother')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function ShelfDisplayCard({
  display,
  index,
  count,
  images,
  imagesLoading,
  media,
  editable,
  focus,
  errorOf,
  onChange,
  onMove,
  onRemove,
}: {
  display: ShelfDisplay;
  index: number;
  count: number;
  images: Media[];
  imagesLoading: boolean;
  media: Media | undefined;
  editable: boolean;
  focus: boolean;
  errorOf: (path: string) => ReactNode;
  onChange: (update: (display: ShelfDisplay) => ShelfDisplay) => void;
  onMove: (from: number, to: number) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('content');
  const nameInput = useRef<HTMLInputElement>(null);
  const card = useRef<HTMLDivElement>(null);

  // A shelf just added is brought into view with its name ready for typing.
  useEffect(() => {
    if (!focus) return;
    card.current?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    nameInput.current?.focus({ preventScroll: true });
  }, [focus]);

  const set = <K extends keyof ShelfDisplay>(key: K, value: ShelfDisplay[K]) =>
    onChange((current) => ({ ...current, [key]: value }));
  const imageMissing = display.image !== '' && !media && !imagesLoading;
  const title = display.name.trim() || t('shelf.untitled', { number: index + 1 });

  return (
    <Paper ref={card} withBorder radius="lg" p="lg" data-testid="shelf-display" data-display-id={display.id}>
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
            <Badge size="lg" radius="sm" variant="filled" miw={32} data-testid="shelf-position">
              {index + 1}
            </Badge>
            <Text fw={600} truncate="end" title={title} data-testid="shelf-title">
              {title}
            </Text>
            <Badge variant="light" color="gray" radius="sm" style={{ flexShrink: 0 }} data-testid="shelf-zone-count">
              {t('zones.count', { number: display.zones.length })}
            </Badge>
          </Group>
          {editable && (
            <Group gap={2} wrap="nowrap">
              <MoveButtons
                index={index}
                count={count}
                onMove={onMove}
                testId="shelf"
                labels={{ up: t('actions.moveUp'), down: t('actions.moveDown') }}
              />
              <Tooltip label={t('shelf.delete')} withArrow>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('shelf.delete')}
                  onClick={onRemove}
                  data-testid="shelf-delete"
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
        </Group>

        <Grid gap="md">
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              ref={nameInput}
              label={t('shelf.name')}
              placeholder={editable ? t('shelf.namePlaceholder') : undefined}
              withAsterisk={editable}
              readOnly={!editable}
              maxLength={255}
              value={display.name}
              onChange={(event) => set('name', event.currentTarget.value)}
              error={errorOf('name')}
              data-testid="shelf-name"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <ImageSelect
              images={images}
              media={media}
              value={display.image}
              editable={editable}
              error={errorOf('image') ?? (imageMissing ? t('shelf.imageMissing') : undefined)}
              onChange={(image) => set('image', image)}
            />
          </Grid.Col>
          <Grid.Col span={12}>
            <Textarea
              label={t('shelf.task')}
              description={editable ? t('shelf.taskHint') : undefined}
              placeholder={editable ? t('shelf.taskPlaceholder') : undefined}
              readOnly={!editable}
              autosize
              minRows={2}
              maxRows={6}
              maxLength={2000}
              value={display.task}
              onChange={(event) => set('task', event.currentTarget.value)}
              error={errorOf('task')}
              data-testid="shelf-task"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 4 }}>
            <SecondsInput
              label={t('shelf.duration')}
              readOnly={!editable}
              seconds={display.duration_seconds}
              onSeconds={(seconds) => set('duration_seconds', seconds)}
              error={errorOf('duration_seconds')}
              data-testid="shelf-duration"
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 8 }} style={{ display: 'flex', alignItems: 'center' }}>
            <Switch
              mt={{ base: 0, sm: 'lg' }}
              label={t('shelf.autoDisplay')}
              description={t('shelf.autoDisplayHint')}
              checked={display.auto_display}
              disabled={!editable}
              onChange={(event) => set('auto_display', event.currentTarget.checked)}
              data-testid="shelf-auto-display"
            />
          </Grid.Col>
        </Grid>

        <Divider
          label={
            <Group gap={6}>
              <IconMarquee2 size={14} />
              {t('zones.title')}
            </Group>
          }
          labelPosition="left"
        />
        <ZoneEditor
          zones={display.zones}
          media={imageMissing ? undefined : media}
          editable={editable}
          errorOf={(path) => errorOf(`zones.${path}`)}
          onZones={(update) => onChange((current) => ({ ...current, zones: update(current.zones) }))}
        />
      </Stack>
    </Paper>
  );
}

/** The shelf's image, one of the research's pictures, each offered with a thumbnail. */
function ImageSelect({
  images,
  media,
  value,
  editable,
  error,
  onChange,
}: {
  images: Media[];
  media: Media | undefined;
  value: string;
  editable: boolean;
  error: ReactNode;
  onChange: (image: string) => void;
}) {
  const { t } = useTranslation('content');
  const byId = new Map(images.map((item) => [item.id, item]));
  return (
    <Select
      label={t('shelf.image')}
      placeholder={images.length === 0 ? t('shelf.imagePlaceholderNone') : t('shelf.imagePlaceholder')}
      withAsterisk={editable}
      readOnly={!editable}
      disabled={editable && images.length === 0}
      data={images.map((item) => ({ value: item.id, label: item.filename }))}
      value={media ? value : null}
      onChange={(next) => onChange(next ?? '')}
      allowDeselect={false}
      searchable={images.length > 8}
      nothingFoundMessage={t('shelf.imageNothingFound')}
      leftSection={media ? <MediaThumb media={media} width={30} height={22} radius="xs" /> : undefined}
      leftSectionWidth={media ? 42 : undefined}
      renderOption={({ option }) => (
        <Group gap="sm" wrap="nowrap">
          <MediaThumb media={byId.get(option.value)} width={48} height={32} radius="xs" />
          <Text size="sm" truncate="end">
            {option.label}
          </Text>
        </Group>
      )}
      error={error}
      data-testid="shelf-image"
    />
  );
}
