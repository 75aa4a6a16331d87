import { type ContentType, MEDIA_ERROR_MESSAGES, type Media, type MediaKind } from '@emolens/contracts';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Image,
  Loader,
  Paper,
  Progress,
  Stack,
  Text,
  ThemeIcon,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconPhoto,
  IconPlayerPause,
  IconPlayerPlay,
  IconTrash,
  IconUpload,
  IconVideo,
  IconX,
} from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openConfirm } from '../../components/confirm.ts';
import { translateMessage } from '../../i18n/messages.ts';
import { notifyError } from '../errors/notify.ts';
import {
  mediaFileUrl,
  uploadRules,
  useDeleteMedia,
  useMediaStatus,
  useRefreshMediaList,
  useResearchMedia,
} from './api.ts';
import { useMediaUpload } from './use-media-upload.ts';

const MIB = 1024 * 1024;
const STATUS_COLORS: Record<Media['status'], string> = {
  uploading: 'blue',
  processing: 'yellow',
  ready: 'green',
  failed: 'red',
};

function useNumber() {
  const { i18n } = useTranslation();
  return (value: number, digits = 1) =>
    new Intl.NumberFormat(i18n.language, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(value);
}

/** Megabytes of a byte count: two decimals for small files, so that they do not read as 0 MB. */
function megabytes(number: ReturnType<typeof useNumber>, bytes: number): string {
  const value = bytes / MIB;
  return number(value, value < 10 ? 2 : 1);
}

/**
 * The content of a saved research: its uploaded files and, while the project is a draft, a
 * resumable upload of new ones (spec sections 5 and 8), of the one kind its content type takes.
 */
export function ContentUploader({
  researchId,
  contentType,
  editable,
}: {
  researchId: string;
  contentType: ContentType;
  editable: boolean;
}) {
  const { t } = useTranslation('media');
  const list = useResearchMedia(researchId);
  const items = list.data?.items ?? [];
  const rules = uploadRules(contentType);
  // A contentless research has no files to show or take.
  if (!rules) return null;

  return (
    <Stack gap="md" data-testid="media-section">
      {list.isPending ? (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm" c="dimmed">
            {t('loading')}
          </Text>
        </Group>
      ) : list.isError ? (
        <Alert color="red" variant="light">
          {t('loadError')}
        </Alert>
      ) : items.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="media-empty">
          {editable ? t(`empty.${rules.kind}`) : t('emptyReadOnly')}
        </Text>
      ) : (
        <Stack gap="xs" data-testid="media-list">
          {items.map((media) => (
            <MediaRow key={media.id} media={media} researchId={researchId} editable={editable} />
          ))}
        </Stack>
      )}
      {editable ? (
        <UploadControl
          researchId={researchId}
          kind={rules.kind}
          accept={rules.accept}
          maxMegabytes={rules.maxMegabytes}
        />
      ) : (
        <Text size="xs" c="dimmed">
          {t('readOnly')}
        </Text>
      )}
    </Stack>
  );
}

function MediaRow({ media, researchId, editable }: { media: Media; researchId: string; editable: boolean }) {
  const { t } = useTranslation('media');
  const number = useNumber();
  const refreshList = useRefreshMediaList(researchId);
  const current = useMediaStatus(media).data;
  const remove = useDeleteMedia(researchId);
  const [posterFailed, setPosterFailed] = useState(false);

  // Processing finished: the list takes the probe results too.
  useEffect(() => {
    if (media.status === 'processing' && current.status !== 'processing') {
      void refreshList();
    }
  }, [media.status, current.status, refreshList]);

  const confirmDelete = () =>
    openConfirm({
      title: t('delete.title'),
      children: <Text size="sm">{t('delete.text', { name: current.filename })}</Text>,
      labels: { confirm: t('delete.confirm'), cancel: t('delete.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'media-confirm-delete' },
      centered: true,
      onConfirm: () =>
        remove.mutateAsync(current.id, {
          onSuccess: () =>
            notifications.show({ color: 'green', message: t('delete.done', { name: current.filename }) }),
          onError: (error) => notifyError(error),
        }),
    });

  const details: string[] = [];
  if (current.duration_seconds !== null)
    details.push(t('details.duration', { value: number(current.duration_seconds) }));
  if (current.fps !== null) details.push(t('details.fps', { value: number(current.fps, 2) }));
  if (current.width !== null && current.height !== null) {
    details.push(t('details.resolution', { width: current.width, height: current.height }));
  }
  const KindIcon = current.kind === 'video' ? IconVideo : IconPhoto;
  // A picture is its own thumbnail; a video has its poster frame once probed.
  const thumbnail = current.kind === 'image' ? mediaFileUrl(current.id) : current.poster_url;

  return (
    <Paper withBorder radius="md" p="sm" data-testid="media-item" data-status={current.status}>
      <Group gap="md" wrap="nowrap" align="center">
        {thumbnail && !posterFailed ? (
          <Image
            src={thumbnail}
            alt=""
            w={96}
            h={54}
            radius="sm"
            fit="cover"
            onError={() => setPosterFailed(true)}
            data-testid="media-poster"
          />
        ) : (
          <ThemeIcon variant="light" color="gray" w={96} h={54} radius="sm">
            <KindIcon size={24} />
          </ThemeIcon>
        )}
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={600} truncate="end" title={current.filename} data-testid="media-name">
              {current.filename}
            </Text>
            <Badge
              size="sm"
              variant="light"
              color={STATUS_COLORS[current.status]}
              leftSection={current.status === 'processing' ? <Loader size={10} color="yellow" /> : undefined}
              data-testid="media-status"
            >
              {t(`status.${current.status}`)}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed" data-testid="media-meta">
            {[t(`kinds.${current.kind}`), t('size', { value: megabytes(number, current.size) }), ...details].join(
              ' · ',
            )}
          </Text>
          {current.status === 'failed' && current.error_code && (
            <Text size="xs" c="red" data-testid="media-item-error">
              {translateMessage({ key: MEDIA_ERROR_MESSAGES[current.error_code] })}
            </Text>
          )}
        </Stack>
        {editable && (
          <Tooltip label={t('actions.delete')}>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('actions.delete')}
              onClick={confirmDelete}
              loading={remove.isPending}
              data-testid="media-delete"
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
    </Paper>
  );
}

function UploadControl({
  researchId,
  kind,
  accept,
  maxMegabytes,
}: {
  researchId: string;
  kind: MediaKind;
  accept: string;
  maxMegabytes: number;
}) {
  const { t } = useTranslation('media');
  const number = useNumber();
  const refreshList = useRefreshMediaList(researchId);
  const input = useRef<HTMLInputElement>(null);
  // A finished upload's bar stays a moment at 100 %, then makes room for the next one; the same file picked again
  // continues where a broken transfer stopped.
  const { transfer, problem, percent, start, pause, resume, abandon } = useMediaUpload(researchId, kind, {
    doneShownMs: 5000,
    resumable: true,
    onUploaded: (_, file) => {
      notifications.show({ color: 'green', message: t('uploaded', { name: file.name }), autoClose: 4000 });
      void refreshList();
    },
    onFailure: (failure) => notifications.show({ color: 'red', message: t(`errors.${failure}`), autoClose: 7000 }),
  });
  const cancel = () => {
    abandon();
    notifications.show({ color: 'gray', message: t('cancelled'), autoClose: 3000 });
  };

  const busy = transfer !== null && transfer.state !== 'done';

  return (
    <Stack gap="xs">
      <Group gap="sm" align="center">
        <Button
          variant="light"
          leftSection={<IconUpload size={16} />}
          onClick={() => input.current?.click()}
          disabled={busy}
          data-testid="media-choose"
        >
          {t('choose')}
        </Button>
        <Text size="xs" c="dimmed" data-testid="media-hint">
          {t(`hint.${kind}`, { size: number(maxMegabytes, kind === 'video' ? 0 : 1) })}
        </Text>
        <input
          ref={input}
          type="file"
          hidden
          accept={accept}
          data-testid="media-input"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = '';
            if (file) void start(file);
          }}
        />
      </Group>
      {problem && (
        <Text size="sm" c="red" data-testid="media-error">
          {t(`errors.${problem}`)}
        </Text>
      )}
      {transfer && (
        <Paper withBorder radius="md" p="sm" data-testid="media-upload">
          <Stack gap={6}>
            <Group justify="space-between" gap="sm" wrap="nowrap">
              <Text size="sm" fw={500} truncate="end" style={{ minWidth: 0 }}>
                {transfer.state === 'done'
                  ? t('progress.done', { name: transfer.name })
                  : transfer.state === 'paused'
                    ? t('progress.paused', { name: transfer.name })
                    : t('progress.label', { name: transfer.name })}
              </Text>
              {busy && (
                <Group gap={4} wrap="nowrap">
                  {transfer.state === 'paused' ? (
                    <Tooltip label={t('actions.resume')}>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('actions.resume')}
                        onClick={resume}
                        data-testid="media-resume"
                      >
                        <IconPlayerPlay size={16} />
                      </ActionIcon>
                    </Tooltip>
                  ) : (
                    <Tooltip label={t('actions.pause')}>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('actions.pause')}
                        onClick={pause}
                        data-testid="media-pause"
                      >
                        <IconPlayerPause size={16} />
                      </ActionIcon>
                    </Tooltip>
                  )}
                  <Tooltip label={t('actions.cancel')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('actions.cancel')}
                      onClick={cancel}
                      data-testid="media-cancel"
                    >
                      <IconX size={16} />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              )}
            </Group>
            <Progress
              value={percent}
              color={transfer.state === 'done' ? 'green' : transfer.state === 'paused' ? 'gray' : 'blue'}
              animated={transfer.state === 'uploading'}
              striped={transfer.state === 'uploading'}
              aria-label={t('progress.aria')}
            />
            <Group justify="space-between" gap="sm">
              <Text size="xs" c="dimmed" data-testid="media-upload-percent">
                {percent}%
              </Text>
              <Text size="xs" c="dimmed" data-testid="media-upload-bytes">
                {t('progress.bytes', {
                  sent: megabytes(number, transfer.sent),
                  total: megabytes(number, transfer.total),
                })}
              </Text>
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
