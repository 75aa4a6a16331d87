import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import { fromPglite, PgBoss } from 'pg-boss';
import { copyOut, pgliteCopy } from './binary-copy.ts';
import type { DB } from './types.ts';

/**
 * The one place that knows which database runs underneath. Everything above it (migrations,
 * repositories, the job queue) is one code path for PGlite and PostgreSQL.
 */
export interface Database {
  kind: 'pglite' | 'postgres';
  db: Kysely<DB>;
  /** A pg-boss instance on the same database (not started); `maintain` runs schedules and upkeep. */
  /** `superviseSeconds`: how often a maintaining instance retries jobs of dead workers and expired ones. */
  createBoss(options: { maintain: boolean; superviseSeconds?: number }): PgBoss;
  /** A query's rows in PostgreSQL's binary COPY format (`binary-copy.ts`): a bytea as its raw bytes, not hex. */
  copyOut(query: string): Promise<Uint8Array>;
  /** PostgreSQL's connection string, for a worker thread's own connection; null: the embedded PGlite (this thread's). */
  connectionString: string | null;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  /** dataDir undefined: in memory (tests), started from `loadDataDir` (a `dumpDataDir` tarball) when given. */
  | { kind: 'pglite'; dataDir: string | undefined; loadDataDir?: Blob };

export async function openDatabase(
  target: DatabaseTarget,
  options: { onConnectionError?: (err: Error) => void } = {},
): Promise<Database> {
  if (target.kind === 'postgres') {
    // Timestamps come back as Date from both drivers; keep int8 as string (never used for ids).
    // A database that does not answer fails a request in 5 s instead of holding it (it answers 503).
    const pool = new pg.Pool({ connectionString: target.url, max: 10, connectionTimeoutMillis: 5_000 });
    // An idle connection the server closes (a restart, a terminated backend) is dropped by the pool
    // and the next query opens another; unhandled, the error would end the process.
    pool.on('error', (err) => options.onConnectionError?.(err));
    // A connection cut while it is checked out (a query or transaction in flight) has no pool listener: pg-pool
    // takes its idle one off until release, and an 'error' with no listener ends the process. The query in flight
    // already fails with the error (503), and the pool drops the broken client on release, so nothing is left to do.
    pool.on('connect', (client) => client.on('error', () => undefined));
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
    return {
      kind: 'postgres',
      db,
      createBoss: ({ maintain, superviseSeconds }) =>
        new PgBoss({
          connectionString: target.url,
          max: 4,
          schedule: maintain,
          supervise: maintain,
          ...supervision(superviseSeconds),
        }),
      copyOut: async (query) => {
        const client = await pool.connect();
        try {
          return await copyOut(client, query);
        } finally {
          client.release();
        }
      },
      connectionString: target.url,
      close: () => db.destroy(),
    };
  }
  if (target.dataDir) {
    mkdirSync(target.dataDir, { recursive: true });
    await initialisePglite(target.dataDir);
  }
  const pglite = await PGlite.create(target.dataDir, {
    ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])],
  });
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
  return {
    kind: 'pglite',
    db,
    createBoss: ({ maintain, superviseSeconds }) =>
      new PgBoss({
        db: fromPglite(pglite),
        backend: 'pglite',
        schedule: maintain,
        supervise: maintain,
        ...supervision(superviseSeconds),
      }),
    copyOut: async (query) => {
      const { blob } = await pglite.query(pgliteCopy(query));
      if (!blob) throw new Error('PGlite answered a COPY without its blob');
      return new Uint8Array(await blob.arrayBuffer());
    },
    connectionString: null,
    // Kysely's PGlite driver closes the PGlite instance on destroy.
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}

/**
 * pg-boss fails the jobs whose heartbeat stopped (a worker killed mid-job) and the expired ones only in its monitor
 * pass, which a supervise pass runs at most every `monitorIntervalSeconds` (60 by default, whatever the supervise
 * interval): a killed worker's job was retried 31–67 s later. Both at `superviseSeconds`, a job is retried at most
 * its heartbeat + `superviseSeconds` + the 2-second poll after its worker died (decision 012).
 */
function supervision(seconds: number | undefined) {
  return seconds ? { superviseIntervalSeconds: seconds, monitorIntervalSeconds: seconds } : {};
}

/**
 * The embedded server's settings (decision 024): PostgreSQL's 128 MB of shared buffers are WebAssembly memory that
 * is never given back (measured: a PGlite on the demo installation's data takes 120 MiB with 16 MB, 246 MiB with
 * the default).
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB'];

const INIT_SCRIPT = join(import.meta.dirname, 'pglite-init.mjs');

/**
 * A data directory without a database gets one from a short-lived child process: initdb's WebAssembly memory
 * (about 700 MB, measured: decision 024) would otherwise stay in this process until it ends.
 */
async function initialisePglite(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  await promisify(execFile)(process.execPath, [INIT_SCRIPT, dataDir], { timeout: 120_000 });
}
