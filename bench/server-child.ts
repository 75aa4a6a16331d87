// What the API benchmarks share: the real app in a child process of its own (so the measuring client does not
// share its event loop), on a throw-away PostgreSQL database or the embedded one, and latency percentiles.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Server side: the app as `npm start` builds it, migrated, with the limits that stop a flood of requests lifted
 * (measured is the work behind each request, not the rate limiter).
 */
export async function benchApp(dataDir: string, databaseUrl: string | undefined) {
  const { buildApp, databaseTarget } = await import('../apps/server/src/app.ts');
  const { loadConfig } = await import('../apps/server/src/config.ts');
  const { openDatabase } = await import('../apps/server/src/db/client.ts');
  const { migrateToLatest } = await import('../apps/server/src/db/migrate.ts');
  const unlimited = '100000000';
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    HOST: '127.0.0.1',
    PORT: '0',
    WEB_DIST: join(dataDir, 'no-web'),
    RATE_LIMIT_PER_MINUTE: unlimited,
    ADDRESS_RATE_LIMIT_PER_MINUTE: unlimited,
    PUBLIC_RATE_LIMIT_PER_MINUTE: unlimited,
    RESPONDENT_RATE_LIMIT_PER_MINUTE: unlimited,
    RESPONDENT_ADDRESS_RATE_LIMIT_PER_MINUTE: unlimited,
    LINK_SESSIONS_PER_MINUTE: unlimited,
  });
  const database = await openDatabase(databaseTarget(config));
  await migrateToLatest(database.db);
  return { app: await buildApp(config, { database }), config };
}

type BenchApp = Awaited<ReturnType<typeof benchApp>>['app'];

/** Server side: listens on a free port, tells the parent the port and `facts` as one JSON line, stops on SIGTERM. */
export async function announce(app: BenchApp, facts: Record<string, unknown>): Promise<void> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ ...facts, port })}\n`);
  process.on('SIGTERM', () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

export interface ServerChild {
  child: ChildProcess;
  base: string;
}

/** Client side: runs `script --server <dataDir> [databaseUrl]` and resolves with what it announced. */
export function startServerChild<Facts>(
  script: string,
  dataDir: string,
  databaseUrl: string | undefined,
): Promise<ServerChild & Facts> {
  const args = ['--import', 'tsx', script, '--server', dataDir, ...(databaseUrl ? [databaseUrl] : [])];
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let ready = false;
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line && !ready) {
        ready = true;
        const facts = JSON.parse(line) as Facts & { port: number };
        resolve({ ...facts, child, base: `http://127.0.0.1:${facts.port}` });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

export async function stopServerChild(server: ServerChild): Promise<void> {
  server.child.kill('SIGTERM');
  await new Promise((resolve) => server.child.once('exit', resolve));
}

/** A database of its own on the PostgreSQL server at `url`, dropped afterwards. */
export async function freshDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `emolens_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** A benchmark's size `name` from the environment, else `fallback`. */
export const envNumber = (name: string, fallback: number) => Number(process.env[name] ?? fallback);

/**
 * Client side: a throw-away data folder (and with `databaseUrl` a fresh PostgreSQL database), the server child of
 * `script` on them while `run` measures it, then the child stopped and both removed.
 */
export async function withServerChild<Facts>(
  script: string,
  name: string,
  databaseUrl: string | undefined,
  run: (server: ServerChild & Facts) => Promise<void>,
): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), `emolens-bench-${name}-`));
  const database = databaseUrl ? await freshDatabase(databaseUrl) : undefined;
  const server = await startServerChild<Facts>(script, dataDir, database?.url);
  try {
    await run(server);
  } finally {
    await stopServerChild(server);
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function percentiles(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const ms = (q: number) => at(q).toFixed(1).padStart(6);
  return `n ${String(sorted.length).padStart(6)}  p50 ${ms(0.5)} ms  p95 ${ms(0.95)}  p99 ${ms(0.99)}  max ${ms(1)}`;
}
