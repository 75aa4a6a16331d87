import { type Kysely, sql } from 'kysely';

/**
 * Questionnaires (issue 12): screeners and surveys, owned by a user, their questions as one jsonb
 * document (checked by the contracts' `surveyBodySchema` / `surveyProblems` before it is written).
 * A scenario's screener and survey slots become references to them (decision 014): uuid columns
 * with a foreign key that refuses deleting a questionnaire still linked (the service says so first).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('surveys')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('owner_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type in ('screener', 'survey')`))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('questions', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`date_trunc('milliseconds', now())`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`date_trunc('milliseconds', now())`))
    .execute();
  await db.schema.createIndex('surveys_owner_idx').on('surveys').columns(['owner_id', 'type', 'updated_at']).execute();

  // The slots held free text until now, with no questionnaire to name: any value there names nothing.
  await sql`
    alter table scenarios
      alter column screener_survey_id type uuid using null,
      alter column embedded_survey_id type uuid using null`.execute(db);
  await sql`
    alter table scenarios
      add constraint scenarios_screener_survey_fk foreign key (screener_survey_id) references surveys (id) on delete restrict,
      add constraint scenarios_embedded_survey_fk foreign key (embedded_survey_id) references surveys (id) on delete restrict`.execute(
    db,
  );
  await db.schema.createIndex('scenarios_screener_survey_idx').on('scenarios').column('screener_survey_id').execute();
  await db.schema.createIndex('scenarios_embedded_survey_idx').on('scenarios').column('embedded_survey_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('scenarios_embedded_survey_idx').execute();
  await db.schema.dropIndex('scenarios_screener_survey_idx').execute();
  await sql`
    alter table scenarios
      drop constraint scenarios_screener_survey_fk,
      drop constraint scenarios_embedded_survey_fk`.execute(db);
  await sql`
    alter table scenarios
      alter column screener_survey_id type text,
      alter column embedded_survey_id type text`.execute(db);
  await db.schema.dropTable('surveys').execute();
}
