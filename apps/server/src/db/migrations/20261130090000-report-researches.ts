import { type Kysely, sql } from 'kysely';

/**
 * A report over several researches of a project (issue 13, item 1; decision 019): the other researches whose
 * respondents it pools with its own research's, as a JSON array of ids. A research deleted later simply drops out
 * of the next build. Snapshots built before name their one research and each respondent's, as new ones do, and
 * their items have no step curves (website tasks by progress, issue 13 item 2).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('reports')
    .addColumn('researches', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await sql`
    update reports r
    set snapshot = jsonb_set(
      jsonb_set(
        jsonb_set(
          r.snapshot,
          '{items}',
          coalesce(
            (select jsonb_agg(i.value || '{"step_curves": null}'::jsonb order by i.ordinality)
             from jsonb_array_elements(r.snapshot -> 'items') with ordinality i),
            '[]'::jsonb
          )
        ),
        '{people}',
        coalesce(
          (select jsonb_agg(p.value || jsonb_build_object('campaign_id', r.campaign_id) order by p.ordinality)
           from jsonb_array_elements(r.snapshot -> 'people') with ordinality p),
          '[]'::jsonb
        )
      ),
      '{researches}',
      jsonb_build_array(
        jsonb_build_object('id', r.campaign_id, 'title', c.title, 'respondents', (r.snapshot ->> 'respondents')::int)
      )
    )
    from campaigns c
    where c.id = r.campaign_id and r.snapshot is not null`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reports').dropColumn('researches').execute();
}
