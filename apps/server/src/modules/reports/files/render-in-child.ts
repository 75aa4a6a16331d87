import { fork } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { childExecArgv } from '@emolens/engine/pool';
import type { RenderJob } from './render-child.ts';

const CHILD = fileURLToPath(new URL('./render-child.ts', import.meta.url));

/**
 * Makes a report file in a child process (`render-child.ts`): the job is written to `dir` as JSON, the child's
 * progress messages are passed on, and its failure (exit code, last lines of stderr) rejects. Aborting kills it.
 */
export async function renderInChild(
  job: RenderJob,
  dir: string,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<void> {
  const file = join(dir, 'job.json');
  await writeFile(file, JSON.stringify(job));
  await new Promise<void>((resolve, reject) => {
    const child = fork(CHILD, [file], { execArgv: childExecArgv(1024), stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('message', (message: { progress?: number }) => {
      if (typeof message.progress === 'number') options.onProgress?.(message.progress);
    });
    const abort = () => child.kill('SIGKILL');
    options.signal?.addEventListener('abort', abort, { once: true });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      options.signal?.removeEventListener('abort', abort);
      if (code === 0) resolve();
      else reject(new Error(`report file renderer ended with ${code ?? signal}: ${stderr.trim()}`));
    });
  });
}
