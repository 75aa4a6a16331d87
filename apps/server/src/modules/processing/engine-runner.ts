import type { SessionProgress, SessionResult, SessionTask } from '@emolens/engine';

/**
 * The engine as the worker sees it: analyses run in a pool of child processes (never on this event
 * loop), started on the first analysis, so a process that never processes never loads the engine.
 */
export interface EngineRunner {
  /** Analyses run at once. */
  readonly size: number;
  run(
    task: SessionTask,
    options?: { signal?: AbortSignal; onProgress?: (progress: SessionProgress) => void },
  ): Promise<SessionResult>;
  close(): Promise<void>;
}

export function createEngineRunner(size: number): EngineRunner {
  let pool: Promise<import('@emolens/engine/pool').EnginePool> | undefined;
  return {
    size,
    async run(task, options) {
      pool ??= import('@emolens/engine/pool').then(({ EnginePool }) => new EnginePool({ size }));
      return (await pool).run(task, options);
    },
    async close() {
      const started = pool;
      pool = undefined;
      if (started) await (await started).close();
    },
  };
}
