import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/types.ts';

/** A counter after a hit: the hits in the current window and what is left of it (ms), on the database's clock. */
export interface CounterState {
  hits: number;
  ttlMs: number;
}

/**
 * Rate-limit counters in the database (decision 069): every API process counts in the same row, so N processes
 * allow each limit once. A fixed window per key, as @fastify/rate-limit's own stores count: the first hit opens
 * it for `windowMs`, later hits add one until it has passed, and the next hit opens a new one.
 */
export function createRateLimitCountersRepository(db: Kysely<DB>) {
  return {
    /** One hit on `key`: one statement, atomic under concurrent hits from any process. */
    async hit(key: string, windowMs: number): Promise<CounterState> {
      const expired = sql<boolean>`rate_limit_counters.expires_at <= now()`;
      const row = await db
        .insertInto('rate_limit_counters')
        .values({ key, hits: 1, expires_at: sql`now() + ${windowMs}::double precision * interval '1 millisecond'` })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            hits: sql`case when ${expired} then 1 else rate_limit_counters.hits + 1 end`,
            expires_at: sql`case when ${expired} then excluded.expires_at else rate_limit_counters.expires_at end`,
          }),
        )
        .returning([
          'hits',
          sql<number>`extract(epoch from (rate_limit_counters.expires_at - now())) * 1000`.as('ttl_ms'),
        ])
        .executeTakeFirstOrThrow();
      return { hits: row.hits, ttlMs: Math.max(0, Number(row.ttl_ms)) };
    },

    /** The counter as it stands, without a hit; zero hits when it has none or its window has passed. */
    async read(key: string): Promise<CounterState> {
      const row = await db
        .selectFrom('rate_limit_counters')
        .select(['hits', sql<number>`extract(epoch from (expires_at - now())) * 1000`.as('ttl_ms')])
        .where('key', '=', key)
        .where('expires_at', '>', sql<Date>`now()`)
        .executeTakeFirst();
      return row ? { hits: row.hits, ttlMs: Math.max(0, Number(row.ttl_ms)) } : { hits: 0, ttlMs: 0 };
    },

    /** Removes the counters whose window has passed (they would be reset by their next hit anyway). */
    async deleteExpired(): Promise<number> {
      const result = await db
        .deleteFrom('rate_limit_counters')
        .where('expires_at', '<=', sql<Date>`now()`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type RateLimitCountersRepository = ReturnType<typeof createRateLimitCountersRepository>;
