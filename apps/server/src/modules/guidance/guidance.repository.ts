import type { GuidanceSummary } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/types.ts';

/** Sessions' live guidance (decision 045). */
export function createGuidanceRepository(db: Kysely<DB>) {
  return {
    /** Stores the session's guidance, replacing what an earlier processing stored. */
    async save(sessionId: string, summary: GuidanceSummary): Promise<void> {
      const problems = JSON.stringify(summary.problems);
      await db
        .insertInto('session_guidance')
        .values({ session_id: sessionId, guided_seconds: summary.guided_seconds, problems })
        .onConflict((c) =>
          c
            .column('session_id')
            .doUpdateSet({ guided_seconds: summary.guided_seconds, problems, updated_at: new Date() }),
        )
        .execute();
    },

    /** The guidance of the sessions the report's built snapshot lists (its `people`), in no particular order. */
    async ofReport(reportId: string) {
      // The snapshot since decision 026 is text, before it jsonb: either lists the people.
      const listed = sql<string>`(
        select (person ->> 'session_id')::uuid
        from reports r
        cross join lateral jsonb_array_elements(coalesce(r.snapshot_text::jsonb, r.snapshot) -> 'people') as person
        where r.id = ${reportId}
      )`;
      return db
        .selectFrom('session_guidance as g')
        .select(['g.session_id', 'g.guided_seconds', 'g.problems'])
        .where(sql<boolean>`g.session_id in ${listed}`)
        .execute();
    },
  };
}

export type GuidanceRepository = ReturnType<typeof createGuidanceRepository>;
