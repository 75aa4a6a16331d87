import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import {
  CONTENT_MEDIA_KIND,
  type ContentType,
  isCleanText,
  MEDIA_ERROR_MESSAGES,
  MEDIA_LIMITS,
  MEDIA_MESSAGES,
  MESSAGES,
  type Media,
  type MediaKind,
  type MessageKey,
  mediaExtension,
  mediaKindOf,
  ref,
  researchSettingsSchema,
  type UploadMetadata,
  uploadMetadataSchema,
} from '@emolens/contracts';
import type { Deps } from '../../context.ts';
import type { MediaRow, User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { checkAccess, requireAccess } from '../access/access.ts';
import { projectRules } from '../projects/project-rules.ts';
import type { ResearchWithProject } from '../researches/researches.repository.ts';
import {
  type ContentFormat,
  decodeImage,
  detectFormat,
  FORMAT_KIND,
  InvalidContent,
  probeVideoContent,
  readHead,
} from './content-check.ts';
import { probeMediaJob } from './jobs/probe-media.job.ts';
import { type StoredFile, storedFile } from './serving.ts';
import { StorageUnavailable } from './storage.ts';

const RESEARCH_NOT_FOUND: MessageKey = 'campaign.notFound';

export type MediaDeps = Pick<Deps, 'access' | 'media' | 'researches' | 'storage' | 'queue' | 'log'>;

/**
 * A refusal of the tus layer: `@tus/server` answers `status_code` with `body` as plain text.
 * The bodies are the spec's messages (section 8) and the contracts' MEDIA_MESSAGES, shown to the
 * user as they are; never an error's own text.
 */
export class UploadRejected extends Error {
  constructor(
    readonly status_code: number,
    readonly body: string,
  ) {
    super(body);
  }
}

export function limitOf(kind: MediaKind): number {
  return kind === 'video' ? MEDIA_LIMITS.videoBytes : MEDIA_LIMITS.imageBytes;
}

/** Content formats each accepted extension may carry (webm and mkv are both Matroska/EBML). */
const EXTENSION_FORMATS: Record<string, ContentFormat> = {
  mp4: 'iso-bmff',
  webm: 'matroska',
  mkv: 'matroska',
  jpeg: 'jpeg',
  jpg: 'jpeg',
  png: 'png',
};

/** The type a decoded file is served as (the upload's declared type plays no part). */
function mimeOf(format: ContentFormat, ext: string): string {
  switch (format) {
    case 'iso-bmff':
      return 'video/mp4';
    case 'matroska':
      return ext === 'mkv' ? 'video/x-matroska' : 'video/webm';
    case 'jpeg':
      return 'image/jpeg';
    case 'png':
      return 'image/png';
  }
}

/**
 * Decodes a finished upload as its first bytes suggest: an image whole, to its pixel size; a video
 * to a video stream (the probe job then reads its duration and a poster frame before it is ready).
 */
async function checkContent(
  file: string,
  kind: MediaKind,
): Promise<{ format: ContentFormat; width: number | null; height: number | null }> {
  const format = detectFormat(await readHead(file));
  if (!format || FORMAT_KIND[format] !== kind) {
    throw new InvalidContent(`the first bytes are not a known ${kind} format`);
  }
  if (format === 'png' || format === 'jpeg') return { format, ...(await decodeImage(file, format)) };
  await probeVideoContent(file);
  return { format, width: null, height: null };
}

export function posterUrl(row: Pick<MediaRow, 'id' | 'poster_key'>): string | null {
  return row.poster_key ? `/api/cabinet/media/${row.id}/poster/` : null;
}

export function toMedia(row: MediaRow): Media {
  return {
    id: row.id,
    campaign_id: row.campaign_id,
    kind: row.kind,
    role: row.role,
    filename: row.filename,
    size: Number(row.size),
    mime: row.mime,
    status: row.status,
    duration_seconds: row.duration_seconds,
    fps: row.fps,
    width: row.width,
    height: row.height,
    poster_url: posterUrl(row),
    error_code: row.error,
    error: row.error && MESSAGES[MEDIA_ERROR_MESSAGES[row.error]],
    created_at: row.created_at.toISOString(),
  };
}

export function storageKeyOf(researchId: string, mediaId: string, ext: string): string {
  return `campaigns/${researchId}/${mediaId}.${ext}`;
}

export function posterKeyOf(row: Pick<MediaRow, 'campaign_id' | 'id'>): string {
  return `campaigns/${row.campaign_id}/${row.id}.poster.jpg`;
}

/** The research, when the user may see it and it is still editable (its project is a draft). */
async function editableResearch(deps: MediaDeps, user: User, researchId: string) {
  const allowed = await checkAccess(deps.access, user, 'campaign.manage', [researchId]);
  const [research] = allowed.size ? await deps.researches.listByIds([researchId]) : [];
  if (!research) throw new UploadRejected(404, RESEARCH_NOT_FOUND);
  if (!projectRules.editSetup(research.project_status)) throw new UploadRejected(409, MESSAGES['campaign.frozen']);
  return research;
}

/** The metadata the server keeps with a partial upload (the declared one plus who and what). */
export interface StoredUploadMetadata extends UploadMetadata {
  owner: string;
  kind: MediaKind;
  /** The research's content type when the upload began. */
  content_type: ContentType;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The raw `Upload-Metadata` header, read strictly: tus decodes its base64 values leniently (broken
 * UTF-8, such as an encoded lone surrogate, silently becomes U+FFFD), so the bytes are checked here.
 * A header tus cannot parse at all is left to tus, which refuses it with 400.
 */
export function checkRawMetadata(header: string | null | undefined): void {
  for (const pair of (header ?? '').split(',')) {
    const [key = '', value] = pair.trim().split(' ');
    let text = '';
    try {
      text = value ? STRICT_UTF8.decode(Buffer.from(value, 'base64')) : '';
    } catch {
      throw new UploadRejected(400, MEDIA_MESSAGES.invalidMetadata);
    }
    if (!isCleanText(key) || !isCleanText(text)) throw new UploadRejected(400, MEDIA_MESSAGES.invalidMetadata);
  }
}

/**
 * Checks a new upload before anything is stored: the research is the user's and editable, the
 * declared name is an accepted format, the declared length within its kind's limit.
 */
export async function checkUploadCreate(
  deps: MediaDeps,
  user: User,
  upload: { size: number | undefined; metadata: Record<string, string | null> | undefined },
): Promise<StoredUploadMetadata> {
  const values = Object.fromEntries(Object.entries(upload.metadata ?? {}).map(([k, v]) => [k, v ?? '']));
  // Every value, the ones the server does not read included: none is kept if one is not text.
  if (!Object.entries(values).every(([k, v]) => isCleanText(k) && isCleanText(v))) {
    throw new UploadRejected(400, MEDIA_MESSAGES.invalidMetadata);
  }
  const declared = uploadMetadataSchema.safeParse(values);
  if (!declared.success) {
    const issue = declared.error.issues[0];
    const tooLong = issue?.code === 'too_big' && issue.path[0] === 'filename';
    throw new UploadRejected(400, tooLong ? MEDIA_MESSAGES.nameTooLong : MEDIA_MESSAGES.metadataRequired);
  }
  const meta = declared.data;
  const research = await editableResearch(deps, user, meta.campaign_id);
  const kind = mediaKindOf(meta.filename);
  const declaredType = meta.filetype.toLowerCase();
  const typeFits = !declaredType || declaredType === 'application/octet-stream' || declaredType.startsWith(`${kind}/`);
  if (!kind || !typeFits) throw new UploadRejected(415, MEDIA_MESSAGES.invalidFormat);
  // Refused before any byte is sent when the name already tells; the decoded file decides at the end.
  requireContentKind(research.content_type, kind);
  if (upload.size === undefined) throw new UploadRejected(400, MEDIA_MESSAGES.lengthRequired);
  if (upload.size === 0) throw new UploadRejected(415, MEDIA_MESSAGES.invalidFormat);
  if (upload.size > limitOf(kind)) throw new UploadRejected(413, MEDIA_MESSAGES.tooLarge);
  return { ...meta, owner: user.id, kind, content_type: research.content_type };
}

/** A research takes only its content type's kind of file (a video research: videos; the others: images). */
function requireContentKind(contentType: ContentType, kind: MediaKind): void {
  if (CONTENT_MEDIA_KIND[contentType] !== kind) throw new UploadRejected(415, MEDIA_MESSAGES.invalidFormat);
}

/**
 * A finished upload (`file`, already taken out of the upload directory by the caller): decoded,
 * moved into storage and attached to the research; videos are queued for probing.
 * On any refusal the file is removed and nothing is attached; when the storage does not answer, it is kept.
 */
export async function attachUpload(
  deps: MediaDeps,
  user: User,
  upload: { file: string; size: number; metadata: Record<string, string | null> | undefined },
): Promise<Media> {
  let keep = false;
  try {
    const meta = await checkUploadCreate(deps, user, upload);
    let checked: Awaited<ReturnType<typeof checkContent>>;
    try {
      checked = await checkContent(upload.file, meta.kind);
    } catch (err) {
      if (!(err instanceof InvalidContent)) throw err;
      deps.log.info(
        { err, filename: meta.filename, research: meta.campaign_id },
        'upload refused: content does not decode',
      );
      throw new UploadRejected(415, MEDIA_MESSAGES.invalidFormat);
    }
    const { format } = checked;
    // What the bytes decoded to, not the name, decides whether the research takes the file.
    requireContentKind(meta.content_type, FORMAT_KIND[format]);
    const ext = mediaExtension(meta.filename);
    const mime = mimeOf(format, EXTENSION_FORMATS[ext] === format ? ext : '');
    const id = randomUUID();
    const key = storageKeyOf(meta.campaign_id, id, ext);
    await deps.storage.putFile(key, upload.file, mime);
    const row = {
      id,
      campaign_id: meta.campaign_id,
      owner_id: user.id,
      kind: meta.kind,
      role: meta.role,
      filename: meta.filename,
      size: upload.size,
      mime,
      storage_key: key,
      status: meta.kind === 'video' ? ('processing' as const) : ('ready' as const),
      duration_seconds: null,
      fps: null,
      width: checked.width,
      height: checked.height,
      poster_key: null,
      error: null,
    };
    let inserted = false;
    try {
      inserted = await deps.media.insertIfEditable(row);
    } finally {
      if (!inserted) await deps.storage.delete(key).catch(() => undefined);
    }
    // The project was launched while the file was being stored.
    if (!inserted) throw new UploadRejected(409, MESSAGES['campaign.frozen']);
    if (meta.kind === 'video') await queueProbe(deps, id);
    const stored = await deps.media.findById(id);
    if (!stored) throw new UploadRejected(409, MESSAGES['campaign.frozen']);
    return toMedia(stored);
  } catch (err) {
    // The storage does not answer: the file stays for the caller to finish later (media.routes.ts).
    keep = err instanceof StorageUnavailable;
    throw err;
  } finally {
    if (!keep) await rm(upload.file, { force: true });
  }
}

async function queueProbe(deps: MediaDeps, id: string): Promise<void> {
  try {
    await deps.queue.send(probeMediaJob.name, { media_id: id });
  } catch (err) {
    deps.log.error({ err, media: id }, 'media probe could not be queued');
    await deps.media.update(id, { status: 'failed', error: 'processing_failed' });
  }
}

async function visibleMedia(deps: MediaDeps, user: User, id: string) {
  await requireAccess(deps.access, user, 'media.manage', id);
  const row = await deps.media.find(id);
  if (!row) throw new AppError('not_found', { message: 'media.notFound' });
  return row;
}

export async function listMedia(deps: MediaDeps, user: User, researchId: string): Promise<Media[]> {
  await requireAccess(deps.access, user, 'campaign.manage', researchId);
  return (await deps.media.listByResearch(researchId)).map(toMedia);
}

export async function getMedia(deps: MediaDeps, user: User, id: string): Promise<Media> {
  return toMedia(await visibleMedia(deps, user, id));
}

/** Where the research's content names the image (a shelf or a task), or undefined. */
function usedBy(research: ResearchWithProject, imageId: string): string | undefined {
  const shelf = research.shelf_content_scenario.find((display) => display.image === imageId);
  if (shelf) return shelf.name;
  return researchSettingsSchema.parse(research.settings).webResourceScenario.find((task) => task.image === imageId)
    ?.description;
}

/**
 * Removes a file of an editable research, the stored bytes and poster included. A shelf image or a
 * task screenshot stays until its shelf or task names another one (a picture leaves the gallery).
 */
export async function deleteMedia(deps: MediaDeps, user: User, id: string): Promise<void> {
  const row = await visibleMedia(deps, user, id);
  if (!projectRules.editSetup(row.project_status)) {
    throw new AppError('invalid_state', { message: 'campaign.frozen' });
  }
  const [research] = await deps.researches.listByIds([row.campaign_id]);
  const user_of = research && usedBy(research, id);
  if (user_of) {
    throw new AppError('media_in_use', {
      message: ref('media.inUse', { name: user_of }),
    });
  }
  const deleted = await deps.media.deleteIfEditable(id);
  if (!deleted) throw new AppError('invalid_state', { message: 'campaign.frozen' });
  await sweepDeletedFiles(deps);
}

/**
 * Removes the stored bytes of deleted files (recorded by the database whatever deleted the row: a
 * file, or its research or project by cascade). What fails stays recorded for the next run.
 */
export async function emptyStorageTrash(deps: Pick<MediaDeps, 'media' | 'storage' | 'log'>): Promise<number> {
  let removed = 0;
  for (;;) {
    const keys = await deps.media.trash(200);
    const done: string[] = [];
    for (const key of keys) {
      try {
        await deps.storage.delete(key);
        done.push(key);
      } catch (err) {
        deps.log.warn({ err, key }, 'stored file not deleted; kept for the next run');
      }
    }
    await deps.media.forgetTrash(done);
    removed += done.length;
    if (keys.length < 200 || done.length === 0) return removed;
  }
}

/** Best effort right after a deletion; the hourly job takes what is left. */
export async function sweepDeletedFiles(deps: Pick<MediaDeps, 'media' | 'storage' | 'log'>): Promise<void> {
  await emptyStorageTrash(deps).catch((err) => deps.log.warn({ err }, 'deleted files not swept yet'));
}

/** The stored file itself (pictures in the cabinet: gallery, shelves, screenshots; videos), once it decoded. */
export async function fileOf(deps: MediaDeps, user: User, id: string): Promise<StoredFile> {
  const row = await visibleMedia(deps, user, id);
  // A file that failed, or a video still being checked, is not served as what it claims to be.
  if (row.status !== 'ready') throw new AppError('not_found', { message: 'media.notReady' });
  return storedFile(row.storage_key, Number(row.size), row.mime, row.filename);
}

export async function posterOf(deps: MediaDeps, user: User, id: string): Promise<StoredFile> {
  const row = await visibleMedia(deps, user, id);
  if (!row.poster_key || row.status !== 'ready') throw new AppError('not_found', { message: 'media.posterNotReady' });
  // The poster's size is not kept beside the row: the storage tells it.
  const size = await deps.storage.size(row.poster_key);
  return storedFile(row.poster_key, size, 'image/jpeg', posterFilename(row.filename));
}

function posterFilename(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return `${dot > 0 ? filename.slice(0, dot) : filename}.poster.jpg`;
}
