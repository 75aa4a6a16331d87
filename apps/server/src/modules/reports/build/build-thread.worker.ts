import { parentPort } from 'node:worker_threads';
import { readDigest, rescaledGaze } from '../../processing/digest.ts';
import { buildSnapshot } from './build.ts';
import type { ThreadRequest, ThreadResponse } from './build-thread.ts';
import { readStoredDigests } from './stored-digests.ts';

/**
 * The report build's worker thread (`build-thread.ts`): reads the sessions' digests (`stored-digests.ts`), scales a
 * pooled research's gaze, makes the whole snapshot (reporting progress) and answers its JSON text. One request at a
 * time.
 */
const port = parentPort;
if (!port) throw new Error('build-thread.worker.ts runs as a worker thread');
const reply = (message: ThreadResponse) => port.postMessage(message);

port.on('message', async ({ id, input }: ThreadRequest) => {
  try {
    const { digests: source, ...build } = input;
    const digests = await readStoredDigests(source);
    const segments = new Map(build.sessions.map((s) => [s.session_id, s.segment]));
    const sessions = build.sessions.map(({ result_id, scale, segment: _segment, ...session }) => {
      const digest = digests.get(result_id);
      if (!digest) throw new Error(`no report digest of result ${result_id}`);
      // The COPY's bytes are this thread's own: read in place.
      const read = readDigest(digest, { own: true });
      return { ...session, digest: scale ? rescaledGaze(read, new Map(scale)) : read };
    });
    const { snapshot, metrics } = await buildSnapshot({
      ...build,
      sessions,
      segmentOf: (s) => segments.get(s.session_id) ?? null,
      onProgress: (fraction) => reply({ id, progress: fraction }),
    });
    reply({ id, result: { text: JSON.stringify(snapshot), respondents: snapshot.respondents, metrics } });
  } catch (err) {
    reply({ id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
});
