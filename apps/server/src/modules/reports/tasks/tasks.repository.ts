import type { TaskMark } from '@emolens/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../../db/types.ts';

/**
 * What the website tasks' statistics read and write: the research's tasks, its respondents' event logs and the
 * analyst's marks. Part of the reports repository (`reports.repository.ts`).
 */
export function createTaskReads(db: Kysely<DB>) {
  return {
    /** What task statistics need of the research: its content type, settings (tasks, report rule) and images. */
    research(researchId: string) {
      return db
        .selectFrom('campaigns')
        .select(['id', 'content_type', 'settings'])
        .where('id', '=', researchId)
        .executeTakeFirst();
    },

    /**
     * The research's respondents with their event logs (every batch's events, in order) and screen sizes: the
     * sessions of the scenarios that show it and those with a recording of it, previews left out; `only`: just these.
     */
    async taskSessions(researchId: string, only: readonly string[] | null = null) {
      if (only?.length === 0) return [];
      return db
        .selectFrom('respondent_sessions as s')
        .select([
          's.id as session_id',
          's.participant_id',
          's.screen_width',
          's.screen_height',
          (eb) =>
            eb
              .selectFrom('session_event_batches as b')
              .select(
                sql<unknown[]>`coalesce(jsonb_agg(e.value order by b.seq, e.ordinality), '[]'::jsonb)`.as('events'),
              )
              .innerJoinLateral(sql`jsonb_array_elements(b.events) with ordinality`.as('e'), (j) => j.onTrue())
              .whereRef('b.session_id', '=', 's.id')
              .as('events'),
        ])
        .where((eb) =>
          eb.or([
            eb(
              's.scenario_id',
              'in',
              eb.selectFrom('scenario_campaigns').select('scenario_id').where('campaign_id', '=', researchId),
            ),
            eb(
              's.id',
              'in',
              eb.selectFrom('video_processes').select('session_id').where('campaign_id', '=', researchId),
            ),
          ]),
        )
        .where('s.is_preview', '=', false)
        .$if(only !== null, (q) => q.where('s.id', 'in', only as string[]))
        .orderBy('s.started_at')
        .orderBy('s.id')
        .execute();
    },

    taskMarks(researchId: string) {
      return db
        .selectFrom('task_marks')
        .select(['session_id', 'task', 'mark'])
        .where('campaign_id', '=', researchId)
        .execute();
    },

    /** Marks written as given: "not marked" removes the mark. */
    async setTaskMarks(
      researchId: string,
      userId: string,
      marks: readonly { session_id: string; task: number; mark: TaskMark }[],
    ) {
      await db.transaction().execute(async (trx) => {
        for (const m of marks) {
          const mark = m.mark;
          if (mark === 'not_marked') {
            await trx
              .deleteFrom('task_marks')
              .where('campaign_id', '=', researchId)
              .where('session_id', '=', m.session_id)
              .where('task', '=', m.task)
              .execute();
          } else {
            await trx
              .insertInto('task_marks')
              .values({
                campaign_id: researchId,
                session_id: m.session_id,
                task: m.task,
                mark,
                marked_by: userId,
              })
              .onConflict((c) =>
                c.columns(['campaign_id', 'session_id', 'task']).doUpdateSet({
                  mark,
                  marked_by: userId,
                  marked_at: sql<Date>`now()`,
                }),
              )
              .execute();
          }
        }
      });
    },
  };
}
