import { parentPort } from 'node:worker_threads';
import { buildSnapshot } from './build.ts';
import type { ThreadRequest, ThreadResponse } from './build-thread.ts';
import { readDigest, rescaledGaze } from './digest.ts';

/**
 * The report build's worker thread (`build-thread.ts`): reads each session's digest, scales a pooled research's
 * gaze, and makes the snapshot, reporting progress. One request at a time.
 */
const port = parentPort;
if (!port) throw new Error('build-thread.worker.ts runs as a worker thread');
const reply = (message: ThreadResponse) => port.postMessage(message);

port.on('message', async ({ id, input }: ThreadRequest) => {
  try {
    const segments = new Map(input.sessions.map((s) => [s.session_id, s.segment]));
    const sessions = input.sessions.map(({ digest, scale, segment: _segment, ...session }) => {
      const read = readDigest(digest);
      return { ...session, digest: scale ? rescaledGaze(read, new Map(scale)) : read };
    });
    const snapshot = await buildSnapshot({
      ...input,
      sessions,
      segmentOf: (s) => segments.get(s.session_id) ?? null,
      onProgress: (fraction) => reply({ id, progress: fraction }),
    });
    reply({ id, snapshot });
  } catch (err) {
    reply({ id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
