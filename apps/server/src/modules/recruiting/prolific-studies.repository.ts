import type { ProlificCodes, ProlificDevice } from '@emolens/contracts';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB, ProlificStudiesTable } from '../../db/types.ts';

/** A study as it is made: its columns but those the database fills in, with the token it uses and who made it. */
type NewProlificStudy = Omit<Selectable<ProlificStudiesTable>, 'acceptance' | 'created_at' | 'updated_at'> & {
  token_id: string;
  created_by: string;
  completion_codes: ProlificCodes;
  devices: ProlificDevice[];
};

/**
 * A research's Prolific study (issue 33, item 2), the completion codes a session's end sends its participant back
 * with, and the sessions of Prolific's submissions (the submission id is the `SESSION_ID` the link carried).
 */
export function createProlificStudiesRepository(db: Kysely<DB>) {
  return {
    find(researchId: string) {
      return db.selectFrom('prolific_studies').selectAll().where('campaign_id', '=', researchId).executeTakeFirst();
    },

    /** The study made; false when the research has one already (made concurrently). */
    async insert(row: NewProlificStudy): Promise<boolean> {
      const result = await db
        .insertInto('prolific_studies')
        .values({
          ...row,
          completion_codes: JSON.stringify(row.completion_codes),
          devices: JSON.stringify(row.devices),
        })
        .onConflict((c) => c.column('campaign_id').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    async setState(researchId: string, status: string) {
      await db
        .updateTable('prolific_studies')
        .set({ status, updated_at: sql<Date>`now()` })
        .where('campaign_id', '=', researchId)
        .execute();
    },

    /** The completion codes of these researches' studies (researches without one are left out). */
    async codesOf(researchIds: string[]): Promise<Map<string, ProlificCodes>> {
      if (!researchIds.length) return new Map();
      const rows = await db
        .selectFrom('prolific_studies')
        .select(['campaign_id', 'completion_codes'])
        .where('campaign_id', 'in', researchIds)
        .execute();
      return new Map(rows.map((r) => [r.campaign_id, r.completion_codes]));
    },

    /**
     * The sessions of this research's project that came with these Prolific submission ids (`SESSION_ID`) and this
     * study (`STUDY_ID`), by submission id. A submission started twice has the latest session.
     */
    async sessionsOfSubmissions(researchId: string, studyId: string, submissionIds: string[]) {
      if (!submissionIds.length) return new Map<string, string>();
      const rows = await db
        .selectFrom('respondent_sessions as s')
        .innerJoin('campaigns as c', 'c.project_id', 's.project_id')
        .select(['s.id', sql<string>`s.panel->>'SESSION_ID'`.as('submission_id')])
        .where('c.id', '=', researchId)
        .where('s.is_preview', '=', false)
        .where(sql<string>`s.panel->>'STUDY_ID'`, '=', studyId)
        .where(sql<string>`s.panel->>'SESSION_ID'`, 'in', submissionIds)
        .orderBy('s.started_at')
        .execute();
      return new Map(rows.map((r) => [r.submission_id, r.id]));
    },
  };
}

export type ProlificStudiesRepository = ReturnType<typeof createProlificStudiesRepository>;
