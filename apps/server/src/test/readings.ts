import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { READINGS_MIME_TYPE } from '@emolens/contracts';
import {
  analyzeFrames,
  createHuman,
  encodeReadings,
  type FrameData,
  type FrameReadings,
  probeVideo,
} from '@emolens/engine';
import { photoClip } from './clips.ts';
import type { RespondentClient } from './respondent.ts';

/**
 * Privacy mode's readings (issue 32; decision 064) as a respondent's browser uploads them, made by the engine: a
 * webcam-like clip of a real face analysed frame by frame here, in this process, as the page's worker reads it (one
 * face, no landmarks kept), times on the clip's own clock. Made once per test file.
 */
const made = new Map<string, Promise<FrameReadings>>();

export function clipReadings(seconds: number): Promise<FrameReadings> {
  const key = String(seconds);
  let readings = made.get(key);
  if (!readings) {
    readings = readClip(seconds);
    made.set(key, readings);
  }
  return readings;
}

async function readClip(seconds: number): Promise<FrameReadings> {
  const dir = mkdtempSync(join(tmpdir(), 'readings-clip-'));
  try {
    const file = join(dir, 'clip.webm');
    writeFileSync(file, photoClip('astronaut', seconds, 320));
    const info = await probeVideo(file);
    const human = await createHuman();
    const full: FrameData[] = [];
    const frames = analyzeFrames(file, { info, fps: 10, keepLandmarks: false, human });
    let next = await frames.next();
    while (!next.done) {
      full.push({ ...next.value, time: next.value.time - info.startTime });
      next = await frames.next();
    }
    const { sampling } = next.value;
    return {
      sampling: { fps: sampling.fps, gazeFps: sampling.fps, width: sampling.width, height: sampling.height },
      full,
      light: [],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The readings cut by time into `count` chunks, each encoded as the page uploads it. */
export async function readingsChunks(readings: FrameReadings, count: number): Promise<Buffer[]> {
  const per = Math.ceil(readings.full.length / count);
  const chunks: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const full = readings.full.slice(i * per, (i + 1) * per);
    chunks.push(Buffer.from(await encodeReadings({ ...readings, full, light: [] })));
  }
  return chunks;
}

/** A device session's recording: a readings segment and its chunks, each answered 201. The segment's answer. */
export async function uploadReadings(client: RespondentClient, chunks: Buffer[]) {
  const segment = await client.request('POST', `/r/sessions/${client.sessionId}/segments`, {
    body: { mime_type: READINGS_MIME_TYPE, screen: { width: 1280, height: 800, device_pixel_ratio: 2 } },
  });
  if (segment.statusCode !== 201)
    throw new Error(`readings segment not started: ${segment.statusCode} ${segment.body}`);
  for (const [index, bytes] of chunks.entries()) {
    const put = await client.chunk(segment.json().segment, index, bytes);
    if (put.statusCode !== 201) throw new Error(`readings chunk ${index} refused: ${put.statusCode} ${put.body}`);
  }
  return segment.json() as { segment: number; offset_ms: number };
}
