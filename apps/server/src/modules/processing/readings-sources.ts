import { READINGS_MIME_TYPE } from '@emolens/contracts';
import { decodeReadings, type FrameReadings, mergeReadings, type ReadingsSource } from '@emolens/engine';
import type { AppContext } from '../../context.ts';
import { ProcessError, type StoredSegment } from './engine-job.ts';

/**
 * Privacy mode (issue 32; decision 064): a device session's recording is the face engine's readings, uploaded in the
 * same chunks a video is. Each segment's chunks are read from storage, decoded and merged, on the session clock like
 * a video segment: what `analyzeReadings` is given instead of video files. Null for a video session (no readings
 * segment); a session mixing both cannot be made by the respondent API and is refused.
 */
export async function readingsSources(
  ctx: Pick<AppContext, 'deps'>,
  segments: readonly StoredSegment[],
  signal: AbortSignal,
): Promise<ReadingsSource[] | null> {
  const recorded = segments.filter((s) => s.chunks.length > 0);
  const readings = recorded.filter((s) => s.mime_type === READINGS_MIME_TYPE);
  if (!readings.length) return null;
  if (readings.length !== recorded.length) throw new ProcessError('invalid_readings');
  const sources: ReadingsSource[] = [];
  for (const segment of readings) {
    const chunks: FrameReadings[] = [];
    for (const chunk of segment.chunks) {
      signal.throwIfAborted();
      chunks.push(await decodeReadings(await storedBytes(ctx, chunk.storage_key)));
    }
    sources.push({ offsetMs: segment.offset_ms, readings: mergeReadings(chunks) });
  }
  return sources;
}

async function storedBytes(ctx: Pick<AppContext, 'deps'>, key: string): Promise<Uint8Array> {
  const body = await ctx.deps.storage.stream(key).catch(() => {
    throw new ProcessError('recording_missing');
  });
  const parts: Buffer[] = [];
  for await (const data of body) parts.push(data as Buffer);
  return new Uint8Array(Buffer.concat(parts));
}
