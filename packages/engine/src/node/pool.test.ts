import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PHOTOS, requirePhotos, stillVideo } from '../../test/fixtures.ts';
import { EngineError } from '../errors.ts';
import { decodeFramesTable } from '../frames-codec.ts';
import type { SessionProgress, SessionTask } from '../session-types.ts';
import { childExecArgv, EnginePool } from './pool.ts';

let short: string;
let long: string;
const pools: EnginePool[] = [];
const pool = (options: ConstructorParameters<typeof EnginePool>[0]) => {
  const p = new EnginePool(options);
  pools.push(p);
  return p;
};

beforeAll(() => {
  requirePhotos();
  short = stillVideo(PHOTOS.astronaut, 'astronaut.webm', { seconds: 2, width: 512 });
  long = stillVideo(PHOTOS.astronaut, 'astronaut-12s.webm', { seconds: 12, width: 512 });
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

const task = (file: string, extra: Partial<SessionTask> = {}): SessionTask => ({
  sources: [{ file, offsetMs: 0 }],
  events: [],
  research: null,
  ...extra,
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    expect(error).toBeInstanceOf(EngineError);
    return (error as EngineError).code;
  }
}

/** Resolves with the child's pid once the task has reported progress (it is analysing frames). */
function firstProgress(p: EnginePool): { seen: Promise<number>; onProgress: () => void } {
  let done: (pid: number) => void = () => {};
  const seen = new Promise<number>((resolve) => {
    done = resolve;
  });
  return {
    seen,
    onProgress: () => done(p.stats().processes.find((x) => x.busy)?.pid ?? 0),
  };
}

describe('EnginePool', () => {
  it('analyses a real session in a child process, leaving the caller’s event loop free', async () => {
    const p = pool({ size: 2 });
    let ticks = 0;
    let worstGap = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      worstGap = Math.max(worstGap, now - last);
      last = now;
      ticks++;
    }, 20);
    const progress: SessionProgress[] = [];
    const result = await p.run(task(short), { onProgress: (x) => progress.push(x) });
    clearInterval(timer);
    expect(result.frameCount).toBe(20);
    expect(result.summary).toMatchObject({ frames: 20, badFrames: 0, faceFound: true, usable: true, people: 1 });
    expect(result.summary.meanValence).toBeGreaterThan(0.5);
    // The binary frames crossed the process boundary intact.
    expect(result.frames).toBeInstanceOf(Uint8Array);
    expect(decodeFramesTable(result.frames).rows).toBe(20);
    expect(progress.map((x) => x.stage)).toContain('decoding');
    // Human's load and 20 frames of WebAssembly took seconds; the parent kept ticking throughout.
    expect(ticks).toBeGreaterThan(20);
    expect(worstGap).toBeLessThan(1000);
    const stats = p.stats();
    expect(stats).toMatchObject({ size: 2, busy: 0, queued: 0, started: 1 });
    expect(stats.processes).toHaveLength(1);
    expect(stats.processes[0]?.pid).not.toBe(process.pid);
    expect(stats.processes[0]?.rssMb).toBeGreaterThan(50);
    expect(stats.cpuSeconds).toBeGreaterThan(0);
  }, 60_000);

  it('queues a second task while its only child is busy, and serves both with one child', async () => {
    const p = pool({ size: 1 });
    const a = p.run(task(short));
    const b = p.run(task(short, { fps: 5 }));
    expect(p.stats()).toMatchObject({ busy: 1, queued: 1 });
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.frameCount).toBe(20);
    expect(rb.frameCount).toBe(10);
    expect(p.stats()).toMatchObject({ started: 1, busy: 0, queued: 0 });
    expect(p.stats().processes[0]?.tasks).toBe(2);
  }, 60_000);

  it('passes engine errors through with their code', async () => {
    const p = pool({ size: 1 });
    expect(await code(p.run(task('/nonexistent/recording.webm')))).toBe('file_not_found');
    // analyzeRecording runs in the children too, for a file without a session.
    expect((await p.analyzeRecording(short, { fps: 5 })).summary.frames).toBe(10);
  }, 60_000);

  it('cancels a running task by killing its child, and serves the next one with a fresh child', async () => {
    const p = pool({ size: 1 });
    const controller = new AbortController();
    const progress = firstProgress(p);
    const running = p.run(task(long), { signal: controller.signal, onProgress: progress.onProgress });
    const queued = p.run(task(short));
    const pid = await progress.seen;
    controller.abort();
    expect(await code(running)).toBe('canceled');
    const next = await queued;
    expect(next.frameCount).toBe(20);
    expect(alive(pid)).toBe(false);
    expect(p.stats().started).toBe(2);
    // Cancelled before it started: never reaches a child.
    expect(await code(p.run(task(short), { signal: AbortSignal.abort() }))).toBe('canceled');
  }, 60_000);

  it('reports engine_crashed when the child is killed -9 mid-run, never hangs, and keeps serving', async () => {
    const p = pool({ size: 1 });
    const progress = firstProgress(p);
    const running = p.run(task(long), { onProgress: progress.onProgress });
    const pid = await progress.seen;
    process.kill(pid, 'SIGKILL');
    expect(await code(running)).toBe('engine_crashed');
    const next = await p.run(task(short));
    expect(next.frameCount).toBe(20);
    expect(p.stats().processes.map((x) => x.pid)).not.toContain(pid);
  }, 60_000);

  it('fails a task whose child passes the memory cap, and replaces a child left too big after a task', async () => {
    const capped = pool({ size: 1, memoryMb: 120 });
    expect(await code(capped.analyzeRecording(long))).toBe('engine_crashed');
    expect(capped.stats().processes).toHaveLength(0);

    const recycled = pool({ size: 1, recycleMb: 60 });
    expect((await recycled.analyzeRecording(short)).summary.frames).toBe(20);
    // Retired as soon as its task was done (a child stays for the next task below the cap: above).
    expect(recycled.stats().processes).toHaveLength(0);
    expect((await recycled.analyzeRecording(short)).summary.frames).toBe(20);
    expect(recycled.stats().started).toBe(2);
  }, 90_000);

  it('lets a child without work exit after idleMs, and starts a fresh one for the next task', async () => {
    const p = pool({ size: 1, idleMs: 1_000 });
    expect((await p.analyzeRecording(short, { fps: 5 })).summary.frames).toBe(10);
    const [first] = p.stats().processes;
    expect(first?.busy).toBe(false);
    // Work that comes within idleMs keeps the child.
    await new Promise((r) => setTimeout(r, 500));
    expect((await p.analyzeRecording(short, { fps: 5 })).summary.frames).toBe(10);
    expect(p.stats()).toMatchObject({ started: 1, processes: [{ pid: first?.pid, tasks: 2 }] });
    // Then it is left idle: gone after idleMs, its memory given back.
    const idleFrom = Date.now();
    await vi.waitFor(
      () => {
        expect(p.stats().processes).toHaveLength(0);
        expect(alive(first?.pid ?? 0)).toBe(false);
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(Date.now() - idleFrom).toBeGreaterThanOrEqual(900);
    expect((await p.analyzeRecording(short, { fps: 5 })).summary.frames).toBe(10);
    expect(p.stats().started).toBe(2);
  }, 60_000);

  it('close() kills every child and fails running and queued tasks with canceled', async () => {
    const p = pool({ size: 1 });
    const progress = firstProgress(p);
    const running = p.run(task(long), { onProgress: progress.onProgress });
    const queued = p.run(task(short));
    const outcomes = Promise.all([code(running), code(queued)]);
    const pid = await progress.seen;
    await p.close();
    expect(await outcomes).toEqual(['canceled', 'canceled']);
    expect(alive(pid)).toBe(false);
    expect(p.stats().processes).toHaveLength(0);
    expect(await code(p.run(task(short)))).toBe('canceled');
  }, 60_000);

  it('starts children with the parent’s tsx loader, or tsx’s own when the parent has none', () => {
    expect(childExecArgv(1500, ['--import', 'tsx', '--inspect'])).toEqual([
      '--import',
      'tsx',
      '--max-old-space-size=1500',
    ]);
    const [flag, loader, heap] = childExecArgv(800, ['--conditions', 'node']);
    expect(flag).toBe('--import');
    expect(loader).toMatch(/^file:\/\/.*\/tsx\/dist\/loader\.mjs$/);
    expect(heap).toBe('--max-old-space-size=800');
  });
});
