import { z } from 'zod';
import { formatMessage, MESSAGES, type MessageKey } from './messages.ts';
import type { ContentType } from './researches.ts';
import { isCleanText } from './text.ts';

/**
 * Content uploads (spec sections 5 and 8). The spec gives two readings of the limits; the larger
 * one is taken: video 2 285 568 000 bytes, image 25 395 200 bytes.
 */
export const MEDIA_LIMITS = { videoBytes: 2_285_568_000, imageBytes: 25_395_200 } as const;

export const MEDIA_KINDS = ['video', 'image'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** Accepted file extensions per kind (mkv is listed in one reading of the spec). */
export const MEDIA_EXTENSIONS = {
  video: ['mp4', 'webm', 'mkv'],
  image: ['jpeg', 'jpg', 'png'],
} as const satisfies Record<MediaKind, readonly string[]>;

/** The MIME type each extension is stored and served as. */
export const MEDIA_MIME_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  jpeg: 'image/jpeg',
  jpg: 'image/jpeg',
  png: 'image/png',
};

/**
 * The one kind of file each content type is made of: a video research shows a video; the pictures
 * gallery, the shelves and the website-prototype tasks are built from images; a contentless research
 * has no files. The server refuses any other kind, decided by what the file decodes to.
 */
export const CONTENT_MEDIA_KIND = {
  video: 'video',
  pictures: 'image',
  shelf: 'image',
  site: 'image',
  contentless: null,
} as const satisfies Record<ContentType, MediaKind | null>;

/** What a file picker may offer (`accept` attribute). */
export const MEDIA_ACCEPT = {
  video: '.mp4,.webm,.mkv,video/mp4,video/webm,video/x-matroska',
  image: '.jpeg,.jpg,.png,image/jpeg,image/png',
} as const;

/** The longest file name an upload may carry. */
export const MEDIA_NAME_MAX = 255;

/**
 * The refusals of the upload layer (tus answers a status and plain text, so these go out as the
 * catalogue's English; the web app tells them apart by status).
 */
export const MEDIA_MESSAGES = {
  invalidFormat: MESSAGES['media.invalidFormat'],
  tooLarge: MESSAGES['media.tooLarge'],
  /** An `Upload-Metadata` value that is not text a name can hold (a NUL, a control character, broken UTF-8). */
  invalidMetadata: MESSAGES['media.invalidMetadata'],
  nameTooLong: formatMessage(MESSAGES['media.nameTooLong'], { max: MEDIA_NAME_MAX }),
  metadataRequired: MESSAGES['media.metadataRequired'],
  lengthRequired: MESSAGES['media.lengthRequired'],
} as const;

/**
 * Why a stored file failed: kept on the media row as the code, answered with its catalogue message
 * (English beside the key). Details of the failure go to the server log only.
 */
export const MEDIA_ERROR_CODES = ['invalid_format', 'processing_failed'] as const;
export type MediaErrorCode = (typeof MEDIA_ERROR_CODES)[number];
export const MEDIA_ERROR_MESSAGES = {
  invalid_format: 'media.invalidFormat',
  processing_failed: 'media.processingFailed',
} as const satisfies Record<MediaErrorCode, MessageKey>;

/** Mount point of the resumable uploads (tus protocol). */
export const MEDIA_UPLOAD_PATH = '/mediaserver';
/** Response header of the last upload request naming the stored media. */
export const MEDIA_ID_HEADER = 'x-media-id';

export const MEDIA_ROLES = ['content', 'picture'] as const;
export type MediaRole = (typeof MEDIA_ROLES)[number];

/** The extension of a file name, lower-cased, without the dot ('' when none). */
export function mediaExtension(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
}

/** The kind a file name's extension belongs to, or undefined when it is not accepted. */
export function mediaKindOf(filename: string): MediaKind | undefined {
  const ext = mediaExtension(filename);
  return MEDIA_KINDS.find((kind) => (MEDIA_EXTENSIONS[kind] as readonly string[]).includes(ext));
}

const metadataText = (max: number) =>
  z.string().max(max).refine(isCleanText, { message: MEDIA_MESSAGES.invalidMetadata });

/** tus `Upload-Metadata` of a content upload, as the client declares it. */
export const uploadMetadataSchema = z.object({
  filename: metadataText(MEDIA_NAME_MAX).pipe(z.string().trim().min(1)),
  /** The browser's declared MIME type; may be empty. */
  filetype: metadataText(255).default(''),
  campaign_id: metadataText(64),
  role: z.enum(MEDIA_ROLES).default('content'),
});
export type UploadMetadata = z.infer<typeof uploadMetadataSchema>;

export const MEDIA_STATUSES = ['uploading', 'processing', 'ready', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

export const mediaOutput = z.object({
  id: z.string(),
  campaign_id: z.string(),
  kind: z.enum(MEDIA_KINDS),
  role: z.enum(MEDIA_ROLES),
  filename: z.string(),
  size: z.number().int().nonnegative(),
  mime: z.string(),
  status: z.enum(MEDIA_STATUSES),
  duration_seconds: z.number().nullable(),
  fps: z.number().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** Cabinet URL of the poster frame (videos, once probed). */
  poster_url: z.string().nullable(),
  /** Why the file failed (status `failed`); the web app translates the code. */
  error_code: z.enum(MEDIA_ERROR_CODES).nullable(),
  /** The English message of `error_code`. */
  error: z.string().nullable(),
  created_at: z.string(),
});
export type Media = z.infer<typeof mediaOutput>;

export const mediaListOutput = z.object({ items: z.array(mediaOutput) });
export type MediaList = z.infer<typeof mediaListOutput>;
