import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import type { Logger } from 'pino';

/**
 * The work files of jobs (a respondent's recording joined for the engine, a file fetched from S3, the demo's
 * clips) live under WORK_DIR (default DATA_DIR/work), never in the system's temporary directory, where a process
 * killed mid-job (kill -9, out of memory) would leave a respondent's face for ever, out of reach of withdrawal and
 * retention.
 *
 * Each process works in a directory of its own, `<machine>_<pid>_<token>`, and removes it when it stops. What a dead
 * process left is removed by the next one that starts running jobs, or begins a job, on the same WORK_DIR — never
 * what a live one is working on, even when several workers share the directory (decision 025):
 * - a directory of this machine (same host name and boot) whose process is gone goes at once, and so does one with
 *   this process's own pid (an earlier life of a restarted container);
 * - any other directory only when its lease is out: a live process renews it (the directory's modification time)
 *   every minute, so one untouched for 10 minutes belongs to a process that is gone — one on another machine sharing
 *   the volume, or whose pid this machine has since given to another program.
 */
export const LEASE_RENEW_MS = 60_000;
export const LEASE_MS = 10 * 60_000;

export interface ProcessIdentity {
  /** The host name and the kernel's boot id: pids are only comparable on one machine since its last boot. */
  machine: string;
  pid: number;
  token: string;
}

function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().replaceAll('-', '').slice(0, 12);
  } catch {
    return '';
  }
}

export function thisProcess(): ProcessIdentity {
  const host = hostname().replace(/[^A-Za-z0-9.-]/g, '-') || 'host';
  const boot = bootId();
  return { machine: boot ? `${host}-${boot}` : host, pid: process.pid, token: randomBytes(6).toString('hex') };
}

const NAME = /^(.+)_(\d+)_([0-9a-f]+)$/;

export function directoryName(owner: ProcessIdentity): string {
  return `${owner.machine}_${owner.pid}_${owner.token}`;
}

function parse(name: string): ProcessIdentity | undefined {
  const match = NAME.exec(name);
  if (!match) return undefined;
  return { machine: match[1] as string, pid: Number(match[2]), token: match[3] as string };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: a process of another user has that pid.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class WorkDir {
  /** This process's directory. */
  readonly own: string;
  private users = 0;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<string[]> | undefined;
  private log: Logger | undefined;

  constructor(
    readonly root: string,
    private readonly self: ProcessIdentity = thisProcess(),
  ) {
    this.own = join(root, directoryName(self));
  }

  /**
   * A process starts running jobs: its directory is made, what dead processes left is removed, and the lease is kept
   * until `close`.
   */
  async open(log?: Logger): Promise<void> {
    this.users++;
    if (log) this.log = log;
    await mkdir(this.own, { recursive: true });
    this.renewing();
    await this.sweep();
  }

  /** Stops renewing the lease and removes this process's directory (once every `open` is closed). */
  async close(): Promise<void> {
    this.users = Math.max(0, this.users - 1);
    if (this.users) return;
    clearInterval(this.timer);
    this.timer = undefined;
    await rm(this.own, { recursive: true, force: true });
  }

  /** A new empty directory for one piece of work, named `<prefix>-…`; the caller removes it when done. */
  async make(prefix: string): Promise<string> {
    // Made again should it have gone (a lease read as out by a machine with a clock far ahead).
    await mkdir(this.own, { recursive: true });
    this.renewing();
    await this.sweep();
    return mkdtemp(join(this.own, `${prefix}-`));
  }

  /** Removes the directories of processes that are gone; their names. One sweep at a time. */
  sweep(): Promise<string[]> {
    this.sweeping ??= this.sweepOnce()
      .catch((err) => {
        // Left for the next sweep: a job never fails for another process's leftovers.
        this.log?.warn({ err }, 'work files of stopped processes not removed');
        return [];
      })
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }

  private async sweepOnce(): Promise<string[]> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    const removed: string[] = [];
    for (const name of names) {
      if (name === basename(this.own)) continue;
      const owner = parse(name);
      if (!owner) continue;
      const path = join(this.root, name);
      if (!(await this.gone(owner, path))) continue;
      await rm(path, { recursive: true, force: true });
      removed.push(name);
    }
    if (removed.length) this.log?.info({ directories: removed }, 'work files of stopped processes removed');
    return removed;
  }

  private async gone(owner: ProcessIdentity, path: string): Promise<boolean> {
    if (owner.machine === this.self.machine && (owner.pid === this.self.pid || !alive(owner.pid))) return true;
    const info = await stat(path).catch(() => undefined);
    return info !== undefined && Date.now() - info.mtimeMs > LEASE_MS;
  }

  private renewing(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      const now = new Date();
      utimes(this.own, now, now)
        .catch(() => mkdir(this.own, { recursive: true }))
        .then(() => this.sweep())
        .catch((err) => this.log?.warn({ err }, 'work directory lease not renewed'));
    }, LEASE_RENEW_MS);
    this.timer.unref();
  }
}

const processDirs = new Map<string, WorkDir>();

/** This process's work directory under `root` (one per root, shared by every app of the process). */
export function workDirFor(root: string): WorkDir {
  let dir = processDirs.get(root);
  if (!dir) {
    dir = new WorkDir(root);
    processDirs.set(root, dir);
  }
  return dir;
}
