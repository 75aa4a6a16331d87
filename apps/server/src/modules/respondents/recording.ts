import { RESPONDENT_LIMITS } from '@emolens/contracts';
import type { RespondentSessionRow } from '../../db/types.ts';
import { AppError } from '../../http/errors.ts';
import { storeChunk } from '../recording/recording-log.ts';
import { admitChunk } from './analysis-rules.ts';
import type { RespondentsDeps } from './respondents.service.ts';

/** Where a chunk is stored: by session, segment and index, and the start of its hash (a different body is another file). */
export function chunkKey(sessionId: string, segment: number, index: number, sha256: string): string {
  return `recordings/${sessionId}/${segment}/${String(index).padStart(5, '0')}-${sha256.slice(0, 16)}.bin`;
}

/**
 * One recorder chunk of a session's segment (design section 6), by the recording log's rules
 * (`storeChunk`): idempotent by (segment, index), checked by its SHA-256, in order.
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
  const { stored } = await storeChunk(
    deps.storage,
    {
      slot: async () => (await deps.recording.segmentChunkState(session.id, segment, index)) ?? null,
      recording: session.status === 'started',
      ended: 'respondent.sessionEnded',
      key: (sha256) => chunkKey(session.id, segment, index, sha256),
      // Video to the server, or readings from the device (privacy mode, decision 064).
      admit: (mimeType, at, bytes) => admitChunk(session, mimeType, at, bytes),
      insert: (sha256, key) =>
        deps.recording.insertChunk('session', {
          id: session.id,
          segment,
          index,
          size: body.length,
          sha256,
          storage_key: key,
        }),
    },
    index,
    body,
    checksum,
    RESPONDENT_LIMITS.chunkBytes,
  );
  return { segment, index, stored };
}
