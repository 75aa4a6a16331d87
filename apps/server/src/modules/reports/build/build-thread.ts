import { Worker } from 'node:worker_threads';
import type { KeyMetrics } from '@emolens/contracts';
import type { BuildInput, BuildSession, Segment } from './build.ts';
import type { DigestSource } from './stored-digests.ts';

/**
 * The snapshot's arithmetic off the event loop (design: CPU-heavy work never runs on the API's event loop; in the
 * embedded mode jobs run inside the API's process). A worker thread (`build-thread.worker.ts`) reads the sessions'
 * stored digests itself (`stored-digests.ts`: on PostgreSQL over a connection of its own, on PGlite from the binary
 * COPY the job ran, handed over, not copied), gets each session's segment and, for a pooled research, its gaze scale,
 * and everything else the build reads (`BuildInput`); it answers the snapshot's JSON text, so that the event loop neither reads the
 * digests nor receives the snapshot as objects nor serialises it (decision 026).
 * A thread stays for IDLE_MS after a build, so builds in a row pay its start (≈ 0.3 s: tsx compiles the module)
 * and its connection once, and is gone when idle, so it costs no memory between reports.
 */
export interface ThreadSession extends Omit<BuildSession, 'digest'> {
  /** The result whose report digest (`digest.ts`) the thread reads. */
  result_id: string;
  /** Per item, how this session's gaze maps onto the report's items (another research pooled); null: as it is. */
  scale: [number, { x: number; y: number }][] | null;
  segment: Segment | null;
}

export type ThreadInput = Omit<BuildInput, 'sessions' | 'segmentOf' | 'onProgress'> & {
  sessions: ThreadSession[];
  digests: DigestSource;
};
/** The built snapshot as its JSON text, with what the job needs of it. */
export interface ThreadResult {
  text: string;
  respondents: number;
  /** The research's key metrics (decision 016); null when no point has anyone behind it. */
  metrics: KeyMetrics | null;
}

export interface ThreadRequest {
  id: number;
  input: ThreadInput;
}
export type ThreadResponse =
  | { id: number; progress: number }
  | { id: number; result: ThreadResult }
  | { id: number; error: string };

const ENTRY = new URL('../../../jobs/ts-thread.mjs', import.meta.url);
const MODULE = new URL('./build-thread.worker.ts', import.meta.url).href;
const IDLE_MS = 30_000;

interface Idle {
  worker: Worker;
  timer: NodeJS.Timeout;
}
const idle: Idle[] = [];
let nextId = 1;

function takeWorker(): Worker {
  const kept = idle.pop();
  if (kept) {
    clearTimeout(kept.timer);
    return kept.worker;
  }
  const worker = new Worker(ENTRY, { workerData: { module: MODULE } });
  // Neither a kept thread nor its timer holds the process open.
  worker.unref();
  return worker;
}

function keepWorker(worker: Worker) {
  const entry: Idle = {
    worker,
    timer: setTimeout(() => {
      idle.splice(idle.indexOf(entry), 1);
      void worker.terminate();
    }, IDLE_MS).unref(),
  };
  idle.push(entry);
}

/** The COPY's bytes the job read (the embedded database), handed to the thread: its own buffer, when it is whole. */
function handedOver(input: ThreadInput): ArrayBuffer[] {
  if (!('copy' in input.digests)) return [];
  const { copy } = input.digests;
  const { buffer } = copy;
  return buffer instanceof ArrayBuffer && copy.byteOffset === 0 && copy.byteLength === buffer.byteLength
    ? [buffer]
    : [];
}

/** Builds the snapshot in a worker thread; `onProgress` is called in order, and awaited before the answer. */
export function buildInThread(
  input: ThreadInput,
  onProgress?: (fraction: number) => Promise<void> | void,
): Promise<ThreadResult> {
  const worker = takeWorker();
  const id = nextId++;
  let progress: Promise<void> = Promise.resolve();
  return new Promise<ThreadResult>((resolve, reject) => {
    const done = (settle: () => void, keep: boolean) => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (keep) keepWorker(worker);
      else void worker.terminate();
      settle();
    };
    const onMessage = (message: ThreadResponse) => {
      if (message.id !== id) return;
      if ('progress' in message) {
        if (onProgress) progress = progress.then(() => onProgress(message.progress));
      } else if ('result' in message) {
        const { result } = message;
        done(() => resolve(progress.then(() => result)), true);
      } else {
        done(() => reject(new Error(`report build failed in its thread: ${message.error}`)), true);
      }
    };
    const onError = (err: Error) => done(() => reject(err), false);
    const onExit = (code: number) => done(() => reject(new Error(`report build thread ended with ${code}`)), false);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ id, input } satisfies ThreadRequest, handedOver(input));
  });
}
