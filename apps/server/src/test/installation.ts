import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/**
 * Real `emolens` processes (`serve`, `worker`, …) started as an operator starts them, for the tests and
 * benchmarks of several processes on one installation.
 */
export const MAIN = resolve(import.meta.dirname, '../main.ts');

/** A process of the installation and the log lines it has printed so far. */
export interface EmolensProcess {
  name: string;
  child: ChildProcess;
  lines: string[];
}

export function startEmolens(name: string, args: string[], env: Record<string, string>): EmolensProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let rest = '';
  const take = (data: Buffer) => {
    const parts = (rest + data.toString()).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  return { name, child, lines };
}

const running = (proc: EmolensProcess) => proc.child.exitCode === null && proc.child.signalCode === null;

/** Stops the process with the signal and resolves with its exit code (null when a signal ended it). */
export async function stopEmolens(proc: EmolensProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (!running(proc)) return proc.child.exitCode;
  const exited = new Promise<number | null>((r) => proc.child.once('exit', (code) => r(code)));
  proc.child.kill(signal);
  return exited;
}

/** How many log lines of the process carry this message. */
export const logged = (proc: EmolensProcess, msg: string) =>
  proc.lines.filter((l) => l.includes(`"msg":"${msg}"`)).length;

export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  seconds: number,
  everyMs = 100,
): Promise<void> {
  const until = Date.now() + seconds * 1000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** The process at `base` answers its health check. */
export async function healthy(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/healthz`)).status === 200;
  } catch {
    return false;
  }
}
