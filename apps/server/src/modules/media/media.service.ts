import { randomUUID } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import {
  campaignSettingsSchema,
  MEDIA_LIMITS,
  MESSAGES,
  type Media,
  type MediaKind,
  type MessageKey,
  mediaExtension,
  mediaKindOf,
  ref,
  type UploadMetadata,
  uploadMetadataSchema,
} from '@emolens/contracts';
import type { Logger } from 'pino';
import type { AppContext } from '../../context.ts';
import { isUuid } from '../../db/sql.ts';
import type { MediaRow, User } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import {
  type CampaignsRepository,
  type CampaignWithProject,
  createCampaignsRepository,
} from '../campaigns/campaigns.repository.ts';
import { scopeOf } from '../projects/projects.service.ts';
import { probeMediaJob } from './jobs/probe-media.job.ts';
import { createMediaRepository, type MediaRepository } from './media.repository.ts';
import { type Storage, storageFor } from './storage.ts';

const CAMPAIGN_NOT_FOUND: MessageKey = 'campaign.notFound';

export interface MediaDeps {
  media: MediaRepository;
  campaigns: CampaignsRepository;
  storage: Storage;
  queue: JobQueue;
  log: Logger;
}

export function mediaDeps(ctx: AppContext): MediaDeps {
  return {
    media: createMediaRepository(ctx.database.db),
    campaigns: createCampaignsRepository(ctx.database.db),
    storage: storageFor(ctx.config),
    queue: ctx.queue,
    log: ctx.log,
  };
}

/**
 * A refusal of the tus layer: `@tus/server` answers `status_code` with `body` as plain text.
 * The bodies are the spec's messages (section 8), shown to the user as they are.
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

/** What the first bytes say the file is: checked by content, whatever its name claims. */
export type ContentFormat = 'iso-bmff' | 'matroska' | 'jpeg' | 'png';
const FORMAT_KIND: Record<ContentFormat, MediaKind> = {
  'iso-bmff': 'video',
  matroska: 'video',
  jpeg: 'image',
  png: 'image',
};
/** Content formats each accepted extension may carry (webm and mkv are both Matroska/EBML). */
const EXTENSION_FORMATS: Record<string, ContentFormat> = {
  mp4: 'iso-bmff',
  webm: 'matroska',
  mkv: 'matroska',
  jpeg: 'jpeg',
  jpg: 'jpeg',
  png: 'png',
};
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function detectFormat(head: Uint8Array): ContentFormat | undefined {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes.length >= 8 && bytes.toString('latin1', 4, 8) === 'ftyp') return 'iso-bmff';
  if (bytes.length >= 4 && bytes.readUInt32BE(0) === 0x1a45dfa3) return 'matroska';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  return undefined;
}

/**
 * Pixel size of a PNG or JPEG from its first bytes (PNG: the IHDR chunk; JPEG: the first
 * start-of-frame segment, after any EXIF), or undefined when it is not there.
 */
export function imageSize(head: Buffer): { width: number; height: number } | undefined {
  if (head.length >= 24 && head.subarray(0, 8).equals(PNG_SIGNATURE)) {
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  }
  let at = 2;
  while (at + 9 < head.length && head[at] === 0xff) {
    const marker = head[at + 1] ?? 0;
    // SOF0–SOF15, except DHT (C4), JPG (C8) and DAC (CC), which share the range.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: head.readUInt16BE(at + 5), width: head.readUInt16BE(at + 7) };
    }
    at += 2 + head.readUInt16BE(at + 2);
  }
  return undefined;
}

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

async function readHead(path: string, length = 16): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
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
    error: row.error,
    created_at: row.created_at.toISOString(),
  };
}

export function storageKeyOf(campaignId: string, mediaId: string, ext: string): string {
  return `campaigns/${campaignId}/${mediaId}.${ext}`;
}

export function posterKeyOf(row: Pick<MediaRow, 'campaign_id' | 'id'>): string {
  return `campaigns/${row.campaign_id}/${row.id}.poster.jpg`;
}

/** The research, when the user may see it and it is still editable (its project is a draft). */
async function editableCampaign(deps: MediaDeps, user: User, campaignId: string) {
  const campaign = isUuid(campaignId) ? await deps.campaigns.findVisible(campaignId, scopeOf(user)) : undefined;
  if (!campaign) throw new UploadRejected(404, MESSAGES[CAMPAIGN_NOT_FOUND]);
  if (campaign.project_status !== 'new') throw new UploadRejected(409, MESSAGES['campaign.frozen']);
  return campaign;
}

/** The metadata the server keeps with a partial upload (the declared one plus who and what). */
export interface StoredUploadMetadata extends UploadMetadata {
  owner: string;
  kind: MediaKind;
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
  const declared = uploadMetadataSchema.safeParse(
    Object.fromEntries(Object.entries(upload.metadata ?? {}).map(([k, v]) => [k, v ?? ''])),
  );
  if (!declared.success) throw new UploadRejected(400, 'Upload-Metadata needs filename and campaign_id');
  const meta = declared.data;
  await editableCampaign(deps, user, meta.campaign_id);
  const kind = mediaKindOf(meta.filename);
  const declaredType = meta.filetype.toLowerCase();
  const typeFits = !declaredType || declaredType === 'application/octet-stream' || declaredType.startsWith(`${kind}/`);
  if (!kind || !typeFits) throw new UploadRejected(415, MESSAGES['media.invalidFormat']);
  if (upload.size === undefined) throw new UploadRejected(400, 'Upload-Length is required');
  if (upload.size === 0) throw new UploadRejected(415, MESSAGES['media.invalidFormat']);
  if (upload.size > limitOf(kind)) throw new UploadRejected(413, MESSAGES['media.tooLarge']);
  return { ...meta, owner: user.id, kind };
}

/**
 * A finished upload (`file`, already taken out of the upload directory by the caller): checked by
 * its first bytes, moved into storage and attached to the research; videos are queued for probing.
 * On any refusal the file is removed and nothing is attached.
 */
export async function attachUpload(
  deps: MediaDeps,
  user: User,
  upload: { file: string; size: number; metadata: Record<string, string | null> | undefined },
): Promise<Media> {
  try {
    const meta = await checkUploadCreate(deps, user, upload);
    // Enough for the frame header of a JPEG behind a large EXIF block.
    const head = await readHead(upload.file, meta.kind === 'image' ? 256 * 1024 : 16);
    const format = detectFormat(head);
    if (!format || FORMAT_KIND[format] !== meta.kind) throw new UploadRejected(415, MESSAGES['media.invalidFormat']);
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
      ...(meta.kind === 'image' ? (imageSize(head) ?? { width: null, height: null }) : { width: null, height: null }),
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
  } finally {
    await rm(upload.file, { force: true });
  }
}

async function queueProbe(deps: MediaDeps, id: string): Promise<void> {
  try {
    await deps.queue.send(probeMediaJob.name, { media_id: id });
  } catch (err) {
    deps.log.error({ err, media: id }, 'media probe could not be queued');
    await deps.media.update(id, { status: 'failed', error: 'The video could not be queued for processing' });
  }
}

async function visibleMedia(deps: MediaDeps, user: User, id: string) {
  const row = isUuid(id) ? await deps.media.findVisible(id, scopeOf(user)) : undefined;
  if (!row) throw new AppError('not_found', { message: 'media.notFound' });
  return row;
}

export async function listMedia(deps: MediaDeps, user: User, campaignId: string): Promise<Media[]> {
  const campaign = isUuid(campaignId) ? await deps.campaigns.findVisible(campaignId, scopeOf(user)) : undefined;
  if (!campaign) throw new AppError('not_found', { message: CAMPAIGN_NOT_FOUND });
  return (await deps.media.listByCampaign(campaignId, scopeOf(user))).map(toMedia);
}

export async function getMedia(deps: MediaDeps, user: User, id: string): Promise<Media> {
  return toMedia(await visibleMedia(deps, user, id));
}

/** Where the research's content names the image (a shelf or a task), or undefined. */
function usedBy(campaign: CampaignWithProject, imageId: string): string | undefined {
  const shelf = campaign.shelf_content_scenario.find((display) => display.image === imageId);
  if (shelf) return shelf.name;
  return campaignSettingsSchema.parse(campaign.settings).webResourceScenario.find((task) => task.image === imageId)
    ?.description;
}

/**
 * Removes a file of an editable research, the stored bytes and poster included. A shelf image or a
 * task screenshot stays until its shelf or task names another one (a picture leaves the gallery).
 */
export async function deleteMedia(deps: MediaDeps, user: User, id: string): Promise<void> {
  const row = await visibleMedia(deps, user, id);
  if (row.project_status !== 'new') throw new AppError('invalid_state', { message: 'campaign.frozen' });
  const campaign = await deps.campaigns.findVisible(row.campaign_id, scopeOf(user));
  const user_of = campaign && usedBy(campaign, id);
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

/** The stored file itself (pictures in the cabinet: gallery, shelves, screenshots; videos). */
export async function fileOf(deps: MediaDeps, user: User, id: string) {
  const row = await visibleMedia(deps, user, id);
  return { body: await deps.storage.stream(row.storage_key), mime: row.mime, size: Number(row.size) };
}

export async function posterOf(deps: MediaDeps, user: User, id: string) {
  const row = await visibleMedia(deps, user, id);
  if (!row.poster_key) throw new AppError('not_found', { message: 'media.posterNotReady' });
  return deps.storage.stream(row.poster_key);
}
