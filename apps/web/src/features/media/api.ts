import {
  CONTENT_MEDIA_KIND,
  type ContentType,
  CSRF_HEADER,
  isCleanText,
  MEDIA_ACCEPT,
  MEDIA_ID_HEADER,
  MEDIA_LIMITS,
  MEDIA_NAME_MAX,
  MEDIA_UPLOAD_PATH,
  type Media,
  type MediaKind,
  mediaKindOf,
  mediaListOutput,
  mediaOutput,
  type UploadMetadata,
} from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { DetailedError, Upload } from 'tus-js-client';
import { z } from 'zod';
import { apiRequest, csrfToken } from '../../api/client.ts';

export const mediaKeys = {
  all: ['media'] as const,
  list: (researchId: string) => ['media', 'list', researchId] as const,
  item: (id: string) => ['media', 'item', id] as const,
};

const mediaPath = (id: string) => `/cabinet/media/${encodeURIComponent(id)}/`;

/** The uploaded file itself (the cabinet session's cookie is enough for a plain `<img src>`). */
export function mediaFileUrl(id: string): string {
  return `/api${mediaPath(id)}file/`;
}

/**
 * What a research's uploader takes: its content type's one kind of file (a video research videos, the pictures,
 * shelf and website-prototype researches images), offered by the file picker (`accept`) and named by its texts.
 */
export function uploadRules(
  contentType: ContentType,
): { kind: MediaKind; accept: string; maxMegabytes: number } | null {
  const kind = CONTENT_MEDIA_KIND[contentType];
  if (!kind) return null;
  const limit = kind === 'video' ? MEDIA_LIMITS.videoBytes : MEDIA_LIMITS.imageBytes;
  return { kind, accept: MEDIA_ACCEPT[kind], maxMegabytes: limit / (1024 * 1024) };
}

/** Spec section 8: the name's format, the research's kind and the size of its kind, checked before anything is sent. */
export function checkMediaFile(
  file: { name: string; size: number },
  accepted: MediaKind,
): 'invalidFormat' | 'tooLarge' | 'invalidName' | null {
  // The server's rule for the name (uploadMetadataSchema): no control characters, 255 at most.
  if (file.name.length > MEDIA_NAME_MAX || !isCleanText(file.name)) return 'invalidName';
  const kind: MediaKind | undefined = mediaKindOf(file.name);
  if (!kind || kind !== accepted || file.size === 0) return 'invalidFormat';
  const limit = kind === 'video' ? MEDIA_LIMITS.videoBytes : MEDIA_LIMITS.imageBytes;
  return file.size > limit ? 'tooLarge' : null;
}

/** GET /cabinet/campaigns/{id}/media/: the research's files, oldest first. */
export function useResearchMedia(researchId: string) {
  return useQuery({
    queryKey: mediaKeys.list(researchId),
    queryFn: () => apiRequest('GET', `/cabinet/campaigns/${encodeURIComponent(researchId)}/media/`, mediaListOutput),
  });
}

/** GET /cabinet/media/{id}/ every 2 s while the file is being processed; stops once ready or failed. */
export function useMediaStatus(media: Media) {
  return useQuery({
    queryKey: mediaKeys.item(media.id),
    queryFn: () => apiRequest('GET', mediaPath(media.id), mediaOutput),
    initialData: media,
    enabled: media.status === 'processing',
    refetchInterval: (query) => (query.state.data?.status === 'processing' ? 2000 : false),
    meta: { silent: true },
  });
}

/** Asks for the research's media list again (after an upload, or when a file's processing ends). */
export function useRefreshMediaList(researchId: string) {
  const client = useQueryClient();
  return useCallback(() => client.invalidateQueries({ queryKey: mediaKeys.list(researchId) }), [client, researchId]);
}

/** DELETE /cabinet/media/{id}/ */
export function useDeleteMedia(researchId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', mediaPath(id), z.unknown()),
    onSettled: () => client.invalidateQueries({ queryKey: mediaKeys.list(researchId) }),
  });
}

/** Why an upload failed: one of the spec's messages, the launched project, or anything else. */
export type UploadFailure = 'invalidFormat' | 'tooLarge' | 'invalidName' | 'frozen' | 'notFound' | 'failed';

export function uploadFailureOf(error: unknown): UploadFailure {
  const response = error instanceof DetailedError ? error.originalResponse : null;
  if (!response) return 'failed';
  // By status alone: the server answers 413 for a file too large and 415 for one of another format.
  const status = response.getStatus();
  if (status === 413) return 'tooLarge';
  if (status === 415) return 'invalidFormat';
  // A refused upload field: the name is the only one a user chooses.
  if (status === 400) return 'invalidName';
  if (status === 409) return 'frozen';
  if (status === 404) return 'notFound';
  return 'failed';
}

export interface UploadHandlers {
  onProgress: (sent: number, total: number) => void;
  onSuccess: (mediaId: string | null) => void;
  onError: (failure: UploadFailure) => void;
}

/**
 * A resumable upload (tus) of `file` to /mediaserver with `metadata`; not started yet. The id of what it made comes
 * back in the `idHeader` answer header; a failure is named by `failureOf`.
 */
export async function tusUpload<F>(
  file: File,
  metadata: Record<string, string>,
  idHeader: string,
  failureOf: (error: unknown) => F,
  handlers: {
    onProgress: (sent: number, total: number) => void;
    onSuccess: (id: string | null) => void;
    onError: (failure: F) => void;
  },
): Promise<Upload> {
  const token = await csrfToken();
  return new Upload(file, {
    endpoint: MEDIA_UPLOAD_PATH,
    headers: { [CSRF_HEADER]: token },
    metadata: { ...metadata },
    chunkSize: 50 * 1024 * 1024,
    retryDelays: [0, 1000, 3000, 5000],
    removeFingerprintOnSuccess: true,
    // A refusal (4xx other than a lost connection's) does not get better by asking again.
    onShouldRetry: (error) => {
      const status = error.originalResponse?.getStatus() ?? 0;
      return status === 0 || status === 423 || status >= 500;
    },
    onProgress: handlers.onProgress,
    onSuccess: ({ lastResponse }) => handlers.onSuccess(lastResponse.getHeader(idHeader) ?? null),
    onError: (error) => handlers.onError(failureOf(error)),
  });
}

/** A resumable upload (tus) of one content file of a research to /mediaserver; not started yet. */
export function createMediaUpload(researchId: string, file: File, handlers: UploadHandlers): Promise<Upload> {
  const metadata: UploadMetadata = {
    filename: file.name,
    filetype: file.type,
    campaign_id: researchId,
    role: 'content',
  };
  return tusUpload(file, metadata, MEDIA_ID_HEADER, uploadFailureOf, handlers);
}
