import {
  DEMO_ID_HEADER,
  DEMO_TOO_LONG_STATUS,
  type DemoAnalysis,
  type DemoKind,
  type DemoUploadMetadata,
  demoListOutput,
  demoResultOutput,
  isCleanText,
  MEDIA_LIMITS,
  MEDIA_NAME_MAX,
  mediaKindOf,
} from '@emolens/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DetailedError, type Upload } from 'tus-js-client';
import { z } from 'zod';
import { apiRequest } from '../../api/client.ts';
import { tusUpload } from '../media/api.ts';

export const demoKeys = {
  list: (kind: DemoKind) => ['demo', 'list', kind] as const,
  result: (id: string) => ['demo', 'result', id] as const,
};

const demoPath = (id: string) => `/cabinet/demo/${encodeURIComponent(id)}/`;

/** The analysed video (the session cookie is enough for `<video src>`; the server answers ranges). */
export function demoVideoUrl(id: string): string {
  return `/api${demoPath(id)}video/`;
}

/** The per-frame data as a download. */
export function demoFramesUrl(id: string, format: 'csv' | 'json'): string {
  return `/api${demoPath(id)}frames/?format=${format}`;
}

export const DEMO_PICKER_ACCEPT = 'video/mp4,video/webm,video/x-matroska,.mp4,.webm,.mkv';

export type DemoUploadFailure = 'invalidFormat' | 'tooLarge' | 'tooLong' | 'invalidName' | 'failed';

/** The name's format and the size, checked before anything is sent (the server decodes it anyway). */
export function checkDemoFile(file: { name: string; size: number }): DemoUploadFailure | null {
  if (file.name.length > MEDIA_NAME_MAX || !isCleanText(file.name)) return 'invalidName';
  if (mediaKindOf(file.name) !== 'video' || file.size === 0) return 'invalidFormat';
  return file.size > MEDIA_LIMITS.videoBytes ? 'tooLarge' : null;
}

function failureOf(error: unknown): DemoUploadFailure {
  const status = error instanceof DetailedError ? (error.originalResponse?.getStatus() ?? 0) : 0;
  if (status === 413) return 'tooLarge';
  if (status === 415) return 'invalidFormat';
  if (status === DEMO_TOO_LONG_STATUS) return 'tooLong';
  if (status === 400) return 'invalidName';
  return 'failed';
}

/** A resumable upload (tus, the same /mediaserver as content) of a demo or interview video; started. */
export async function startDemoUpload(
  kind: DemoKind,
  file: File,
  handlers: {
    onProgress: (sent: number, total: number) => void;
    onSuccess: (id: string | null) => void;
    onError: (failure: DemoUploadFailure) => void;
  },
): Promise<Upload> {
  const metadata: DemoUploadMetadata = { filename: file.name, filetype: file.type, demo_kind: kind };
  const upload = await tusUpload(file, metadata, DEMO_ID_HEADER, failureOf, handlers);
  upload.start();
  return upload;
}

const running = (items: DemoAnalysis[]) => items.some((i) => i.status === 'queued' || i.status === 'processing');

/** GET /cabinet/demo/?kind=: the user's analyses, asked again every 2 s while one is being worked on. */
export function useDemoList(kind: DemoKind) {
  return useQuery({
    queryKey: demoKeys.list(kind),
    queryFn: () => apiRequest('GET', `/cabinet/demo/?kind=${kind}`, demoListOutput),
    refetchInterval: (query) => (running(query.state.data?.items ?? []) ? 2000 : false),
  });
}

/** GET /cabinet/demo/{id}/result/ once the analysis is done. */
export function useDemoResult(id: string | null, done: boolean) {
  return useQuery({
    queryKey: demoKeys.result(id ?? ''),
    queryFn: () => apiRequest('GET', `${demoPath(id ?? '')}result/`, demoResultOutput),
    enabled: Boolean(id) && done,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useDeleteDemo(kind: DemoKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest('DELETE', demoPath(id), z.unknown()),
    onSettled: () => client.invalidateQueries({ queryKey: demoKeys.list(kind) }),
  });
}
