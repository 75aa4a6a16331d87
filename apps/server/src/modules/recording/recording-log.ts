import { createHash } from 'node:crypto';
import type { MessageKey } from '@emolens/contracts';
import { AppError } from '../../http/errors.ts';
import type { Storage } from '../media/storage.ts';

/**
 * The rules of a browser's recording log, shared by a respondent's session and a dot test: recorder chunks
 * idempotent by index with a SHA-256 check, and event batches idempotent by sequence number with times that
 * never go backwards and stay inside the recording's clock. Each owner keeps its own tables (its repository)
 * and says whether it still records; the rules live here once.
 */

const SHA256_HEX = /^[0-9a-f]{64}$/;
const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** The first chunk of a segment starts a video file of the segment's type: webm's EBML header, or mp4's `ftyp` box. */
export function startsVideo(mime: string, bytes: Buffer): boolean {
  if (mime === 'video/webm') return bytes.subarray(0, 4).equals(EBML_MAGIC);
  if (mime === 'video/mp4') return bytes.length >= 8 && bytes.subarray(4, 8).toString('latin1') === 'ftyp';
  return false;
}

/** A chunk under an index as its repository holds it. */
export interface StoredChunk {
  sha256: string;
  storage_key: string;
}

export interface ChunkOwner {
  /** Chunks stored so far (the next index), the one at this index, and the recording's type; null: no such segment. */
  slot(): Promise<{ mimeType: string; count: number; at: StoredChunk | undefined } | null>;
  /** Still recording (as read with the request; `insert` checks again under the owner's row lock). */
  recording: boolean;
  /** Why a chunk is refused once the owner no longer records. */
  ended: MessageKey;
  /** Where the bytes go, by their hash (other bytes are another file). */
  key(sha256: string): string;
  /**
   * Whether the bytes are of the recording's type (throws why not); without it, the first chunk of a segment must
   * start a video of the segment's type.
   */
  admit?(mimeType: string, index: number, body: Buffer): Promise<void>;
  /** Inserts the row unless the owner stopped recording or a row holds the index; returns that row then. */
  insert(sha256: string, key: string): Promise<{ inserted: boolean; recording: boolean; existing?: StoredChunk }>;
}

/**
 * One recorder chunk: the same bytes again are a harmless repeat (also after the recording ended: a retry
 * whose answer was lost); other bytes under a stored index, or an index past the next one, are refused. Two
 * identical requests at once store one row: the loser of the insert finds the winner's row (same bytes, same
 * file). The bytes are written (beside and renamed) before the row, so a row always names a whole file.
 */
export async function storeChunk(
  storage: Storage,
  owner: ChunkOwner,
  index: number,
  body: Buffer,
  checksum: string | undefined,
  maxBytes: number,
): Promise<{ stored: boolean }> {
  if (body.length > maxBytes) throw new AppError('payload_too_large', { message: 'respondent.chunkTooLarge' });
  const sha256 = createHash('sha256').update(body).digest('hex');
  const claimed = checksum?.trim().toLowerCase();
  if (!claimed || !SHA256_HEX.test(claimed) || claimed !== sha256) {
    throw new AppError('bad_request', { message: 'respondent.chunkChecksum' });
  }
  const slot = await owner.slot();
  if (!slot) throw new AppError('invalid_state', { message: 'respondent.segmentUnknown' });
  if (slot.at) {
    if (slot.at.sha256 === sha256) return { stored: false };
    throw new AppError('conflict', { message: 'respondent.chunkConflict' });
  }
  if (!owner.recording) throw new AppError('invalid_state', { message: owner.ended });
  if (index > slot.count) throw new AppError('invalid_state', { message: 'respondent.chunkOutOfOrder' });
  if (body.length === 0) throw new AppError('unsupported_media_type', { message: 'respondent.chunkNotVideo' });
  if (owner.admit) await owner.admit(slot.mimeType, index, body);
  else if (index === 0 && !startsVideo(slot.mimeType, body)) {
    throw new AppError('unsupported_media_type', { message: 'respondent.chunkNotVideo' });
  }
  const key = owner.key(sha256);
  await storage.put(key, body, body.length, 'application/octet-stream');
  const result = await owner.insert(sha256, key);
  if (result.inserted) return { stored: true };
  // Not recorded: the file is ours alone unless the stored row names the same file (same bytes).
  if (result.existing?.storage_key !== key) await storage.delete(key).catch(() => undefined);
  if (result.existing?.sha256 === sha256) return { stored: false };
  if (!result.recording) throw new AppError('invalid_state', { message: owner.ended });
  throw new AppError('conflict', { message: 'respondent.chunkConflict' });
}

/** A batch's fingerprint: a repeat of a stored batch is told from a different batch under its number. */
export function batchDigest(events: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(events)).digest('hex');
}

/** What the owner's row-locked transaction read for a batch of number `seq`. */
export interface BatchSlot {
  /** The number the next new batch must have. */
  next: number;
  /** The batch stored under `seq`, if any. */
  atSeq: { digest: string } | undefined;
  recording: boolean;
  ended: MessageKey;
}

/**
 * Whether a batch is a repeat (the same events under a stored number: answered, not stored again) or the next
 * one; a stored number with other events is a conflict, a number past the next one a gap, and a new batch
 * after the recording ended is refused.
 */
export function admitBatch(seq: number, digest: string, slot: BatchSlot): 'repeat' | 'next' {
  if (seq < slot.next) {
    if (slot.atSeq?.digest === digest) return 'repeat';
    throw new AppError('conflict', { message: 'respondent.eventBatchConflict' });
  }
  if (!slot.recording) throw new AppError('invalid_state', { message: slot.ended });
  if (seq > slot.next) throw new AppError('invalid_state', { message: 'respondent.eventBatchGap' });
  return 'next';
}

/**
 * The batch's last time: times never go backwards (within the batch and from the previous batch) and do not
 * run past the recording's clock plus the slack.
 */
export function checkEventTimes(
  events: readonly { t: number }[],
  previousLastT: number,
  clockMs: number,
  slackMs: number,
): number {
  let last = previousLastT;
  for (const event of events) {
    if (event.t < last) throw new AppError('bad_request', { message: 'respondent.eventsNotMonotonic' });
    last = event.t;
  }
  if (last > clockMs + slackMs) throw new AppError('bad_request', { message: 'respondent.eventsInFuture' });
  return last;
}
