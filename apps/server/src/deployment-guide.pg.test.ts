import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, REPO_ROOT } from './config.ts';
import { JOBS } from './jobs/registry.ts';
import {
  codeSpans,
  type FencedBlock,
  fencedBlocks,
  type RunningBlock,
  runBlock,
  section,
  stopGroup,
  tableRows,
} from './test/guide-commands.ts';
import { freePort, freshPostgres, healthy, waitFor } from './test/installation.ts';
import { startS3Server } from './test/s3-server.ts';

/**
 * The operations guide (docs/deployment.md) and the README's Configuration table, held to the code: every
 * setting config.ts reads is in the table and nothing else is; the guide's env file, schedules and log messages
 * are the code's; and its commands marked `test=…` run as written — migrations, a user, two APIs, a worker, a
 * backup and its restore — on a fresh PostgreSQL database and S3 server. PostgreSQL only (TEST_DATABASE_URL).
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const SERVER_SRC = join(REPO_ROOT, 'apps/server/src');
const readme = () => readFile(join(REPO_ROOT, 'README.md'), 'utf8');
const guide = () => readFile(join(REPO_ROOT, 'docs/deployment.md'), 'utf8');
const VARIABLE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** Every environment variable loadConfig reads: the names it looks up on the environment it is given. */
function configVariables(): string[] {
  const read = new Set<string>();
  const env = new Proxy({} as NodeJS.ProcessEnv, {
    get(target, key) {
      if (typeof key === 'string') read.add(key);
      return Reflect.get(target, key);
    },
  });
  loadConfig(env);
  return [...read].filter((key) => VARIABLE.test(key)).sort();
}

async function freshDatabase(prefix = 'emolens_guide'): Promise<string> {
  if (!TEST_DATABASE_URL) throw new Error('this test needs TEST_DATABASE_URL (PostgreSQL)');
  const database = await freshPostgres(TEST_DATABASE_URL, prefix);
  cleanups.push(database.drop);
  return database.url;
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The `.ts` sources of the server, tests left out. */
async function serverSources(): Promise<string> {
  const files = (await readdir(SERVER_SRC, { recursive: true })).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('test/'),
  );
  return (await Promise.all(files.map((f) => readFile(join(SERVER_SRC, f), 'utf8')))).join('\n');
}

const countLogged = (lines: string[], msg: string) => lines.filter((l) => l.includes(`"msg":"${msg}"`)).length;

describe('the README Configuration table', () => {
  it('lists every environment variable config.ts reads, each once, and no other; it links to the deployment guide', async () => {
    const variables = configVariables();
    expect(variables.length).toBeGreaterThan(40);
    expect(variables).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'PORT', 'APP_SECRET', 'S3_BUCKET', 'UPLOAD_DIR']),
    );
    const configuration = section(await readme(), 'Configuration');
    const rows = tableRows(configuration);
    expect(rows.length).toBeGreaterThan(10);
    const listed = rows.flatMap((cells) => codeSpans(cells[0] ?? ''));
    // The first column holds variable names only.
    expect(listed.filter((name) => !VARIABLE.test(name))).toEqual([]);
    const missing = variables.filter((v) => !listed.includes(v));
    const stale = listed.filter((name) => !variables.includes(name));
    expect({ missing, stale }).toEqual({ missing: [], stale: [] });
    expect(listed.filter((name, i) => listed.indexOf(name) !== i)).toEqual([]);
    expect(configuration).toMatch(/\(docs\/deployment\.md\)|`docs\/deployment\.md`|<docs\/deployment\.md>/);
  });
});

describe('the deployment guide', () => {
  it('names only settings config.ts reads, in its env file and in its text', async () => {
    const text = await guide();
    const variables = configVariables();
    const envFile = fencedBlocks(text).filter((b) => b.words.includes('env-file'));
    expect(envFile).toHaveLength(1);
    const assigned = (envFile[0] as FencedBlock).body
      .split('\n')
      .filter((l) => l.trim() && !l.trimStart().startsWith('#'))
      .map((l) => l.split('=')[0]?.trim() ?? '');
    expect(assigned.length).toBeGreaterThan(10);
    expect(assigned.filter((name) => !variables.includes(name))).toEqual([]);
    const named = codeSpans(text).filter((span) => VARIABLE.test(span) && span.includes('_'));
    expect(named.filter((name) => !variables.includes(name))).toEqual([]);
  });

  it("lists the code's schedules", async () => {
    const rows = tableRows(section(await guide(), 'Workers'))
      .map((cells) => [codeSpans(cells[0] ?? '')[0], codeSpans(cells[1] ?? '')[0]])
      .filter(([name, cron]) => name && cron);
    const scheduled = JOBS.filter((job) => job.cron).map((job) => [job.name, job.cron]);
    expect(rows.sort()).toEqual(scheduled.sort());
  });

  it('quotes log messages the code writes', async () => {
    const messages = tableRows(section(await guide(), 'Logs')).flatMap((cells) => codeSpans(cells[0] ?? ''));
    expect(messages.length).toBeGreaterThan(15);
    const sources = await serverSources();
    expect(messages.filter((msg) => !sources.includes(`'${msg}'`))).toEqual([]);
  });

  it('runs its commands: migrate, a user, two APIs, their health, the queue, a worker, a backup and its restore', {
    timeout: 150_000,
  }, async () => {
    const blocks = fencedBlocks(await guide()).filter((b) => b.testId);
    expect(blocks.map((b) => b.testId)).toEqual([
      'migrate',
      'user',
      'serve',
      'health',
      'queue',
      'worker',
      'backup',
      'restore',
    ]);
    for (const block of blocks) expect(block.lang, `the block at line ${block.line}`).toBe('sh');

    const s3 = await startS3Server();
    cleanups.push(() => s3.stop());
    const databaseUrl = await freshDatabase();
    const restoreUrl = await freshDatabase('emolens_guide_restore');
    const dir = await mkdtemp(join(tmpdir(), 'emolens-guide-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const backupDir = join(dir, 'backups');
    await mkdir(backupDir);
    const ports: number[] = [];
    while (ports.length < 3) {
      const port = await freePort();
      if (!ports.includes(port)) ports.push(port);
    }
    const [port, apiPort1, apiPort2] = ports.map(String) as [string, string, string];

    // An operator's shell: the env file's settings (test values) and the guide's shell variables, nothing else.
    const base = Object.fromEntries(
      ['PATH', 'HOME', 'USER', 'LANG', 'TMPDIR'].flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])),
    ) as Record<string, string>;
    const settings: Record<string, string> = {
      ...s3.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      APP_SECRET: randomBytes(32).toString('hex'),
      PUBLIC_URL: 'https://emolens.example.org',
      TRUST_PROXY: 'true',
      COOKIE_SECURE: 'true',
      SEED_DEMO: 'false',
      HOST: '127.0.0.1',
      PORT: port,
      UPLOAD_DIR: join(dir, 'shared-uploads'),
      ENGINE_WORKERS: '1',
      DATA_DIR: join(dir, 'data'),
      LOG_LEVEL: 'info',
    };
    const shell = {
      API_PORT_1: apiPort1,
      API_PORT_2: apiPort2,
      ADMIN_PASSWORD: randomBytes(12).toString('base64url'),
      BACKUP_DIR: backupDir,
      RESTORE_DATABASE_URL: restoreUrl,
    };
    const env = { ...base, ...settings, ...shell };
    // The guide's env file names no setting this run leaves out.
    const envFile = fencedBlocks(await guide()).find((b) => b.words.includes('env-file')) as FencedBlock;
    for (const line of envFile.body.split('\n').filter((l) => l.includes('='))) {
      expect(Object.keys(settings)).toContain(line.split('=')[0]);
    }

    const byId = new Map(blocks.map((b) => [b.testId, b]));
    const run = (id: string): RunningBlock => {
      const block = byId.get(id) as FencedBlock;
      const running = runBlock(id, block.body, { cwd: REPO_ROOT, env });
      cleanups.push(() => stopGroup(running.pgid, 'SIGKILL', 10));
      return running;
    };
    /** Runs a block to its end; its output. */
    const succeeds = async (id: string, seconds = 90): Promise<string> => {
      const running = run(id);
      const timer = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), seconds * 1000).unref());
      const code = await Promise.race([running.exited, timer]);
      const output = running.lines.join('\n');
      expect(code, `block ${id}:\n${output}`).toBe(0);
      return output;
    };

    // PostgreSQL: every migration applied.
    const migrations = (await readdir(join(SERVER_SRC, 'db/migrations'))).filter((f) => /^\d{14}-[\w-]+\.ts$/.test(f));
    const migrated = await succeeds('migrate');
    expect(migrated).toContain('Migrations applied.');
    expect(countLogged(migrated.split('\n'), 'migration applied')).toBe(migrations.length);

    // The first account.
    const created = await succeeds('user');
    expect(created).toMatch(/^User admin created \(id \S+, role categorizer_admin\)\.$/m);

    // Two APIs, started in the background, both answering.
    const apis = run('serve');
    expect(await apis.exited).toBe(0);
    const bases = [apiPort1, apiPort2].map((p) => `http://127.0.0.1:${p}`);
    await waitFor(
      'both APIs to answer /healthz',
      async () => (await Promise.all(bases.map(healthy))).every(Boolean),
      90,
    );
    expect(countLogged(apis.lines, 'migration applied')).toBe(0);

    const health = (await succeeds('health')).split('\n');
    // Each API ready for the balancer; /healthz names every part, and no worker has run yet (decision 069).
    expect(health.filter((l) => l === '{"status":"ready","database":"ok","shuttingDown":false}')).toHaveLength(2);
    const noWorkerYet =
      '{"status":"degraded","database":"ok","storage":"ok","queue":"running","workers":{"status":"none","lastHeartbeatSeconds":null,"alive":0}}';
    expect(health.filter((l) => l === noWorkerYet)).toHaveLength(2);

    expect(await succeeds('queue')).toMatch(/name\s*\|\s*state\s*\|\s*count/);

    // A worker: started, and the schedules are in the database.
    const worker = run('worker');
    expect(await worker.exited).toBe(0);
    await waitFor('the worker to start', () => countLogged(worker.lines, 'worker started') === 1, 90);
    const schedules = await query<{ name: string; cron: string }>(
      databaseUrl,
      'select name, cron from pgboss.schedule',
    );
    expect(schedules.map((s) => [s.name, s.cron]).sort()).toEqual(
      JOBS.filter((job) => job.cron)
        .map((job) => [job.name, job.cron])
        .sort(),
    );

    // A backup with the database's tables and the job queue's schema.
    await succeeds('backup');
    const dumps = (await readdir(backupDir)).filter((f) => /^emolens-\d{8}T\d{6}Z\.dump$/.test(f));
    expect(dumps).toHaveLength(1);
    const dump = join(backupDir, dumps[0] as string);
    expect((await stat(dump)).size).toBeGreaterThan(10_000);
    const { stdout: contents } = await promisify(execFile)('pg_restore', ['--list', dump]);
    expect(contents).toMatch(/TABLE public users /);
    expect(contents).toMatch(/SCHEMA - pgboss /);

    // Its restore into an empty database has the account and the schedules.
    await succeeds('restore');
    expect(await query<{ username: string }>(restoreUrl, 'select username from users')).toEqual([
      { username: 'admin' },
    ]);
    expect(await query(restoreUrl, 'select name from pgboss.schedule')).toHaveLength(schedules.length);

    // SIGTERM stops the APIs (saying so) and the worker, each within the time the guide gives.
    // What a process wrote just before it ended may still be in its pipe when the group is seen gone: read it first.
    const said = (lines: string[], msg: string, times: number) =>
      waitFor(`"${msg}" ${times} time(s)`, () => countLogged(lines, msg) >= times, 5).then(() =>
        countLogged(lines, msg),
      );
    expect(await stopGroup(apis.pgid, 'SIGTERM', 30)).toBe(true);
    expect(await said(apis.lines, 'shutting down: finishing in-flight requests and jobs', 2)).toBe(2);
    expect(await stopGroup(worker.pgid, 'SIGTERM', 30)).toBe(true);
    expect(await said(worker.lines, 'shutting down: finishing running jobs', 1)).toBe(1);
  });
});
