/**
 * One engine pool process (started by `EnginePool` with child_process.fork): loads the face engine once and
 * runs one task at a time on its own event loop, so the caller's stays free. It exits when the
 * parent goes away, and crashes (the parent reports 'engine_crashed') on anything unexpected.
 */
import { EngineError } from '../errors.ts';
import type { SessionProgress } from '../session-types.ts';
import { createHuman, type HumanLike } from './human.ts';
import type { FromChild, PoolJob, RecordingProgress, ToChild } from './pool-protocol.ts';
import { analyzeRecording } from './recording.ts';
import { analyzeSession } from './session.ts';

/** A recording's progress goes to the parent at most this often (the session analysis throttles its own). */
const PROGRESS_INTERVAL_MS = 250;
const USAGE_INTERVAL_MS = 1000;

let human: Promise<HumanLike> | null = null;
const loadHuman = () => {
  human ??= createHuman();
  return human;
};

function send(message: FromChild): void {
  process.send?.(message);
}

function sendUsage(): void {
  const cpu = process.cpuUsage();
  send({ type: 'usage', rss: process.memoryUsage.rss(), cpuMicros: cpu.user + cpu.system });
}

async function run(id: number, job: PoolJob): Promise<void> {
  let last = 0;
  const onProgress = (progress: SessionProgress | RecordingProgress) => {
    const now = Date.now();
    if (job.kind === 'recording' && now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    send({ type: 'progress', id, progress });
  };
  try {
    const h = await loadHuman();
    let result: FromChild & { type: 'done' };
    if (job.kind === 'session') {
      result = { type: 'done', id, result: await analyzeSession(job.task, { human: h, onProgress }) };
    } else {
      result = { type: 'done', id, result: await analyzeRecording(job.file, { ...job.options, human: h, onProgress }) };
    }
    sendUsage();
    send(result);
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    sendUsage();
    send({
      type: 'failed',
      id,
      error: {
        name: e.name,
        message: e.message,
        ...(e instanceof EngineError ? { code: e.code } : {}),
        ...(e.stack ? { stack: e.stack } : {}),
      },
    });
  }
}

process.on('message', (message: ToChild) => {
  if (message.type === 'run') void run(message.id, message.job);
});
// An orphan would hold a core and its memory for nothing.
process.on('disconnect', () => process.exit(0));
setInterval(sendUsage, USAGE_INTERVAL_MS).unref();
