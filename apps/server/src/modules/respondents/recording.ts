import { createHash } from 'node:crypto';
import { RESPONDENT_LIMITS } from '@emolens/contracts';
import type { RespondentSessionRow } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import type { RespondentsDeps } from './respondents.service.ts';

const SHA256_HEX = /^[0-9a-f]{64}$/;
const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** The first chunk of a segment starts a video file of the segment's type: webm's EBML header, or mp4's `ftyp` box. */
export function startsVideo(mime: string, bytes: Buffer): boolean {
  if (mime === 'video/webm') return bytes.subarray(0, 4).equals(EBML_MAGIC);
  if (mime === 'video/mp4') return bytes.length >= 8 && bytes.subarray(4, 8).toString('latin1') === 'ftyp';
  return false;
}

/** Where a chunk is stored: by session, segment and index, and the start of its hash (a different body is another file). */
export function chunkKey(sessionId: string, segment: number, index: number, sha256: string): string {
  return `recordings/${sessionId}/${segment}/${String(index).padStart(5, '0')}-${sha256.slice(0, 16)}.bin`;
}

/**
 * One recorder chunk (design section 6), idempotent by (segment, index): the index the server
 * expects next is stored; an index already stored with the same bytes is a harmless repeat (also
 * after the session ended: a retry whose answer was lost); other bytes under a stored index, or an
 * index past the next one, are refused. Two identical requests at once store one row: the loser of
 * the insert finds the winner's row (same bytes, same file).
 */
export async function putChunk(
  deps: RespondentsDeps,
  session: RespondentSessionRow,
  params: { segment: number; index: number },
  body: Buffer,
  checksum: string | undefined,
): Promise<{ segment: number; index: number; stored: boolean }> {
  const { segment, index } = params;
  if (session.is_preview) throw new AppError('invalid_state', { message: 'respondent.previewNotSaved' });
  if (body.length > RESPONDENT_LIMITS.chunkBytes) {
    throw new AppError('payload_too_large', { message: 'respondent.chunkTooLarge' });
  }
  const sha256 = createHash('sha256').update(body).digest('hex');
  const claimed = checksum?.trim().toLowerCase();
  if (!claimed || !SHA256_HEX.test(claimed) || claimed !== sha256) {
    throw new AppError('bad_request', { message: 'respondent.chunkChecksum' });
  }
  const state = await deps.respondents.chunkState(session.id, segment, index);
  if (!state) throw new AppError('invalid_state', { message: 'respondent.segmentUnknown' });
  if (state.at) {
    if (state.at.sha256 === sha256) return { segment, index, stored: false };
    throw new AppError('conflict', { message: 'respondent.chunkConflict' });
  }
  if (session.status !== 'started') throw new AppError('invalid_state', { message: 'respondent.sessionEnded' });
  if (index > state.count) throw new AppError('invalid_state', { message: 'respondent.chunkOutOfOrder' });
  if (body.length === 0 || (index === 0 && !startsVideo(state.mimeType, body))) {
    throw new AppError('unsupported_media_type', { message: 'respondent.chunkNotVideo' });
  }
  const key = chunkKey(session.id, segment, index, sha256);
  // The chunk's row comes after its bytes, and only rows are read: the file may be written in place.
  await deps.storage.put(key, body, body.length, 'application/octet-stream', { unreferenced: true });
  const result = await deps.respondents.insertChunk({
    session_id: session.id,
    segment,
    index,
    size: body.length,
    sha256,
    storage_key: key,
  });
  if (result.inserted) return { segment, index, stored: true };
  // Not recorded: the file is ours alone unless the stored row names the same file (same bytes).
  if (result.existing?.storage_key !== key) await deps.storage.delete(key).catch(() => undefined);
  if (result.ended) throw new AppError('invalid_state', { message: 'respondent.sessionEnded' });
  if (result.existing?.sha256 === sha256) return { segment, index, stored: false };
  throw new AppError('conflict', { message: 'respondent.chunkConflict' });
}
