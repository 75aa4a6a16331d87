// npm run bench:idle-memory — how much memory the one-command default holds (issue 16, item 3; decision 024).
// `emolens serve --all` on a fresh embedded database, as `npm start` runs it: resident memory when it first
// answers, once the demo project is made and the server is idle again (engine processes gone), and after a
// restart on the same data. Then PGlite's own share: a bare PGlite on that data with the server's settings and
// with PostgreSQL's default buffers, and a database made in this process (what initdb leaves behind).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import {
  type EmolensProcess,
  freePort,
  healthy,
  logged,
  startEmolens,
  stopEmolens,
  waitFor,
} from '../apps/server/src/test/installation.ts';

const MiB = 1024 * 1024;

/** Resident memory of a process (MiB) from /proc, 0 when it is gone. */
function rssMiB(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

function children(pid: number): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function snapshot(proc: EmolensProcess) {
  const pid = proc.child.pid ?? 0;
  const kids = children(pid);
  const main = rssMiB(pid);
  const maps = readFileSync(`/proc/${pid}/maps`, 'utf8');
  return {
    main,
    tree: main + kids.reduce((sum, kid) => sum + rssMiB(kid), 0),
    children: kids.length,
    onnxLoaded: maps.includes('libonnxruntime'),
  };
}

const show = (what: string, s: ReturnType<typeof snapshot>) =>
  console.log(
    `${what.padEnd(44)} server ${s.main.toFixed(0).padStart(4)} MiB · with children ${s.tree.toFixed(0).padStart(4)} MiB` +
      ` (${s.children} child processes; engine models in the server: ${s.onnxLoaded ? 'yes' : 'no'})`,
  );

async function serve(dataDir: string, port: number): Promise<EmolensProcess> {
  const proc = startEmolens('serve', ['serve', '--all'], {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    DEMO_PASSWORD: 'bench-demo-password',
  });
  await waitFor('the server', () => healthy(`http://127.0.0.1:${port}`), 180);
  return proc;
}

/** RSS growth (MiB) of this process while PGlite opens `dataDir` with `options` and runs the app's usual reads. */
async function pgliteShare(dataDir: string | undefined, startParams?: string[]): Promise<number> {
  const before = process.memoryUsage().rss;
  const pglite = await PGlite.create(dataDir, startParams ? { startParams } : {});
  // The app's usual reads where its tables are (a new database has none).
  await pglite.query('select count(*) from users').catch(() => undefined);
  await pglite.query('select * from process_results order by created_at desc limit 50').catch(() => undefined);
  await pglite.query("select count(*) from pgboss.job where state = 'completed'").catch(() => undefined);
  const grown = (process.memoryUsage().rss - before) / MiB;
  await pglite.close();
  return grown;
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'emolens-idle-'));
  const port = await freePort();
  console.log(`idle memory of \`serve --all\` on the embedded database (node ${process.version})`);
  try {
    let proc = await serve(dataDir, port);
    show('answering, demo project being made', snapshot(proc));
    await waitFor(
      'the demo project',
      () => logged(proc, 'demo project: completed, its report is being built') > 0,
      900,
      500,
    );
    show('demo project made', snapshot(proc));
    // The engine processes leave after 60 s without work, the report thread after 30 s.
    await new Promise((r) => setTimeout(r, 75_000));
    show('idle 75 s later', snapshot(proc));
    await stopEmolens(proc);

    proc = await serve(dataDir, port);
    await new Promise((r) => setTimeout(r, 60_000));
    show('restarted on the same data, idle 60 s', snapshot(proc));
    await stopEmolens(proc);

    const share = (mode: string, dir: string) =>
      Number(
        execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--pglite', mode, dir]).toString(),
      );
    const pgdata = join(dataDir, 'pgdata');
    console.log(`PGlite on that data, shared_buffers=16MB (the server's): +${share('tuned', pgdata).toFixed(0)} MiB`);
    console.log(`PGlite on that data, PostgreSQL's default 128MB:        +${share('default', pgdata).toFixed(0)} MiB`);
    const fresh = await mkdtemp(join(tmpdir(), 'emolens-initdb-'));
    const made = share('default', fresh);
    await rm(fresh, { recursive: true, force: true });
    console.log(`PGlite making a new database in its process (initdb): +${made.toFixed(0)} MiB, never given back`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

// Each PGlite figure in a process of its own (`--pglite <tuned|default> <dir>`): memory is not given back.
if (process.argv[2] === '--pglite') {
  const [, , , mode, dir] = process.argv;
  const startParams = mode === 'tuned' ? [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'] : undefined;
  process.stdout.write(String(await pgliteShare(dir, startParams)));
} else {
  await main();
}
