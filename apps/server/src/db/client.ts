import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import { fromPglite, PgBoss } from 'pg-boss';
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
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'postgres'; url: string }
  /** dataDir undefined: in memory (tests). */
  | { kind: 'pglite'; dataDir: string | undefined };

export async function openDatabase(
  target: DatabaseTarget,
  options: { onConnectionError?: (err: Error) => void } = {},
): Promise<Database> {
  if (target.kind === 'postgres') {
    // Timestamps come back as Date from both drivers; keep int8 as string (never used for ids).
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle connection the server closes (a restart, a terminated backend) is dropped by the pool
    // and the next query opens another; unhandled, the error would end the process.
    pool.on('error', (err) => options.onConnectionError?.(err));
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
          ...(superviseSeconds ? { superviseIntervalSeconds: superviseSeconds } : {}),
        }),
      close: () => db.destroy(),
    };
  }
  if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
  const pglite = await PGlite.create(target.dataDir);
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
        ...(superviseSeconds ? { superviseIntervalSeconds: superviseSeconds } : {}),
      }),
    // Kysely's PGlite driver closes the PGlite instance on destroy.
    close: async () => {
      await db.destroy();
      if (!pglite.closed) await pglite.close();
    },
  };
}
