import type { MediaKind } from '@emolens/contracts';
import { useEffect, useRef, useState } from 'react';
import type { Upload } from 'tus-js-client';
import { checkMediaFile, createMediaUpload, type UploadFailure, useRefreshMediaList } from './api.ts';

/** One content file on its way to the server. */
export interface MediaTransfer {
  name: string;
  sent: number;
  total: number;
  state: 'uploading' | 'paused' | 'done';
}

interface Options {
  /** After the server has the file (its media id, when the answer named it). */
  onUploaded: (mediaId: string | null, file: File) => void;
  /** Besides the problem the hook keeps: a file refused before sending, or a transfer that failed. */
  onFailure?: (failure: UploadFailure) => void;
  /** A finished transfer's bar stays this long at 100 %; without it, it goes at once. */
  doneShownMs?: number;
  /** The same file picked again continues where a broken transfer of it stopped. */
  resumable?: boolean;
}

/**
 * A research's content file uploaded (tus) from a picker: checked first, its progress, its problem, paused, resumed
 * or abandoned. Leaving the page stops the transfer (a resumable one can continue later by its fingerprint); the
 * research's media list is refreshed after a failure (the caller refreshes after a success, as it needs).
 */
export function useMediaUpload(researchId: string, kind: MediaKind, options: Options) {
  const refreshList = useRefreshMediaList(researchId);
  const upload = useRef<Upload | null>(null);
  const [transfer, setTransfer] = useState<MediaTransfer | null>(null);
  const [problem, setProblem] = useState<UploadFailure | null>(null);
  const { onUploaded, onFailure, doneShownMs, resumable } = options;

  useEffect(() => () => void upload.current?.abort(), []);

  useEffect(() => {
    if (transfer?.state !== 'done' || doneShownMs === undefined) return;
    const timer = setTimeout(() => setTransfer(null), doneShownMs);
    return () => clearTimeout(timer);
  }, [transfer?.state, doneShownMs]);

  const fail = (failure: UploadFailure) => {
    setProblem(failure);
    onFailure?.(failure);
  };

  const start = async (file: File) => {
    setProblem(null);
    const invalid = checkMediaFile(file, kind);
    if (invalid) {
      fail(invalid);
      return;
    }
    setTransfer({ name: file.name, sent: 0, total: file.size, state: 'uploading' });
    const next = await createMediaUpload(researchId, file, {
      onProgress: (sent, total) => setTransfer((prev) => (prev ? { ...prev, sent, total } : prev)),
      onSuccess: (mediaId) => {
        upload.current = null;
        setTransfer((prev) =>
          prev && doneShownMs !== undefined ? { ...prev, sent: prev.total, state: 'done' } : null,
        );
        onUploaded(mediaId, file);
      },
      onError: (failure) => {
        upload.current = null;
        setTransfer(null);
        fail(failure);
        void refreshList();
      },
    });
    upload.current = next;
    if (resumable) {
      const previous = await next.findPreviousUploads().catch(() => []);
      if (previous[0]) next.resumeFromPreviousUpload(previous[0]);
    }
    next.start();
  };

  const pause = () => {
    void upload.current?.abort();
    setTransfer((prev) => (prev ? { ...prev, state: 'paused' } : prev));
  };
  const resume = () => {
    upload.current?.start();
    setTransfer((prev) => (prev ? { ...prev, state: 'uploading' } : prev));
  };
  /** Stopped and abandoned on the server too: the partial data is removed. */
  const abandon = () => {
    const current = upload.current;
    upload.current = null;
    setTransfer(null);
    void current?.abort(true).catch(() => undefined);
  };

  const percent = transfer && transfer.total > 0 ? Math.floor((transfer.sent / transfer.total) * 100) : 0;
  return { transfer, problem, percent, start, pause, resume, abandon };
}
