import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.ts';

/** The workers' heartbeats as /healthz reports them, on the database's clock. */
export interface WorkerBeats {
  /** Seconds since the newest heartbeat of any worker; null when no worker has ever beaten. */
  lastAgeSeconds: number | null;
  /** Workers whose heartbeat is younger than the stale age asked for. */
  fresh: number;
}

/** Each worker process's heartbeat (decision 069). */
export function createWorkerHeartbeatsRepository(db: Kysely<DB>) {
  return {
    async beat(worker: { id: string; host: string; pid: number }): Promise<void> {
      await db
        .insertInto('worker_heartbeats')
        .values({ worker: worker.id, host: worker.host, pid: worker.pid })
        .onConflict((oc) => oc.column('worker').doUpdateSet({ beat_at: sql`now()` }))
        .execute();
    },

    async latest(staleSeconds: number): Promise<WorkerBeats> {
      const row = await db
        .selectFrom('worker_heartbeats')
        .select([
          sql<number | null>`extract(epoch from (now() - max(beat_at)))`.as('age'),
          sql<number>`count(*) filter (where beat_at > now() - ${staleSeconds}::double precision * interval '1 second')`.as(
            'fresh',
          ),
        ])
        .executeTakeFirstOrThrow();
      return {
        lastAgeSeconds: row.age === null ? null : Math.max(0, Number(row.age)),
        fresh: Number(row.fresh),
      };
    },

    /** Forgets workers silent for longer than this (stopped or gone): the newest of them stays to be reported. */
    async forgetSilent(olderThanSeconds: number): Promise<number> {
      const result = await db
        .deleteFrom('worker_heartbeats')
        .where('beat_at', '<', sql<Date>`now() - ${olderThanSeconds}::double precision * interval '1 second'`)
        .where('beat_at', '<', (eb) => eb.selectFrom('worker_heartbeats').select(eb.fn.max('beat_at').as('newest')))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type WorkerHeartbeatsRepository = ReturnType<typeof createWorkerHeartbeatsRepository>;
