import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { directoryName, LEASE_MS, thisProcess, WorkDir } from './work-dir.ts';

/**
 * Issue 28, item 19: what processes that are gone left in WORK_DIR is removed, what live ones work on is not — on
 * this machine by their pid, elsewhere (a volume shared by several machines) by their lease. The killed worker
 * itself: modules/processing/killed-worker.test.ts.
 */
let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'emolens-work-dir-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid as number;
}

/** A directory as a process left it, with a file in a job's directory; its name. */
async function leftBy(owner: { machine: string; pid: number; token?: string }, ageMs = 0): Promise<string> {
  const name = directoryName({ token: 'abc123', ...owner });
  const dir = join(root, name);
  await mkdir(join(dir, 'engine-x'), { recursive: true });
  await writeFile(join(dir, 'engine-x', 'segment-0.webm'), 'face');
  const when = new Date(Date.now() - ageMs);
  await utimes(dir, when, when);
  return name;
}

describe('the work directory of a process', () => {
  it('removes at start what dead processes left and keeps what live ones work on', async () => {
    const self = thisProcess();
    const dead = await leftBy({ machine: self.machine, pid: await deadPid() });
    // An earlier life of this process's pid (a restarted container): gone, whatever its age.
    const earlierLife = await leftBy({ machine: self.machine, pid: process.pid, token: 'def456' });
    const liveSibling = await leftBy({ machine: self.machine, pid: process.ppid });
    // Another machine sharing the volume: its pids say nothing here, its lease does.
    const elsewhereLive = await leftBy({ machine: 'other-host-1234', pid: 1 }, LEASE_MS / 2);
    const elsewhereGone = await leftBy({ machine: 'other-host-1234', pid: 2 }, LEASE_MS + 60_000);
    // A live pid of this machine whose lease ran out: the pid was given to another program.
    const reusedPid = await leftBy({ machine: self.machine, pid: process.ppid, token: 'fed789' }, LEASE_MS + 60_000);
    await writeFile(join(root, 'not-a-process'), 'kept');

    const work = new WorkDir(root, self);
    await work.open();
    expect((await readdir(root)).sort()).toEqual(
      [basename(work.own), liveSibling, elsewhereLive, 'not-a-process'].sort(),
    );
    for (const gone of [dead, earlierLife, elsewhereGone, reusedPid]) expect(await readdir(root)).not.toContain(gone);

    // A job's directory is made inside this process's own; closing removes it all.
    const job = await work.make('engine');
    expect(job.startsWith(`${work.own}/engine-`)).toBe(true);
    await work.close();
    expect(await readdir(root)).not.toContain(basename(work.own));
  });

  it('removes what a process that died meanwhile left when the next job begins', async () => {
    const self = thisProcess();
    const work = new WorkDir(root, self);
    await work.open();
    const died = await leftBy({ machine: self.machine, pid: await deadPid() });
    expect(await readdir(root)).toContain(died);
    await work.make('engine');
    expect(await readdir(root)).toEqual([basename(work.own)]);
    await work.close();
  });

  it('makes its own directory again should it have gone', async () => {
    const work = new WorkDir(root);
    await work.open();
    await rm(work.own, { recursive: true });
    const job = await work.make('s3');
    expect(await readdir(work.own)).toEqual([basename(job)]);
    await work.close();
    expect(await readdir(root)).toEqual([]);
  });
});
