/**
 * The task's screenshot field: a picture of the research chosen from a list with thumbnails, or
 * uploaded right here.
 */
import { MEDIA_LIMITS, type Media } from '@emolens/contracts';
import { Button, Group, Image, Input, Progress, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconPhoto, IconUpload } from '@tabler/icons-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { mediaFileUrl, useRefreshMediaList } from '../media/api.ts';
import { useMediaUpload } from '../media/use-media-upload.ts';

/** The screenshot: chosen from the research's pictures or uploaded here. */
export function TaskScreenshotPicker({
  researchId,
  images,
  image,
  readOnly,
  error,
  onImage,
}: {
  researchId: string;
  images: Media[];
  /** The chosen picture's media id ('' for none). */
  image: string;
  readOnly: boolean;
  error: string | undefined;
  onImage: (mediaId: string) => void;
}) {
  const { t } = useTranslation('tasks');
  const options = images.map((m) => ({ value: m.id, label: m.filename }));
  const known = options.some((o) => o.value === image);

  return (
    <Input.Wrapper
      label={t('editor.screenshot')}
      description={t('editor.screenshotHint')}
      withAsterisk={!readOnly}
      error={error}
      errorProps={{ 'data-testid': 'task-image-error' } as Record<string, string>}
    >
      <Group gap="xs" mt={6} align="flex-start" wrap="nowrap">
        <Select
          style={{ flex: 1, minWidth: 0 }}
          placeholder={images.length ? t('editor.chooseImage') : t('editor.noImages')}
          data={options}
          value={known ? image : null}
          onChange={(value) => onImage(value ?? '')}
          readOnly={readOnly}
          disabled={!readOnly && images.length === 0}
          allowDeselect={false}
          searchable
          nothingFoundMessage={t('editor.noImageFound')}
          error={!!error}
          leftSection={
            known ? (
              <Image src={mediaFileUrl(image)} w={24} h={18} radius={3} fit="cover" alt="" />
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
        {!readOnly && <ScreenshotUpload researchId={researchId} onUploaded={onImage} />}
      </Group>
    </Input.Wrapper>
  );
}

/** A screenshot uploaded right from the task (a picture of the research, like those above). */
function ScreenshotUpload({ researchId, onUploaded }: { researchId: string; onUploaded: (mediaId: string) => void }) {
  const { t } = useTranslation('tasks');
  const { t: tm } = useTranslation('media');
  const refreshList = useRefreshMediaList(researchId);
  const input = useRef<HTMLInputElement>(null);
  const { transfer, problem, percent, start } = useMediaUpload(researchId, 'image', {
    onUploaded: (mediaId) => {
      void refreshList().then(() => {
        if (mediaId) onUploaded(mediaId);
      });
    },
  });

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
      {transfer && <Progress value={percent} size="sm" animated aria-label={tm('progress.aria')} />}
      {problem && (
        <Text size="xs" c="red" data-testid="task-image-upload-error">
          {tm(`errors.${problem}`)}
        </Text>
      )}
    </Stack>
  );
}
