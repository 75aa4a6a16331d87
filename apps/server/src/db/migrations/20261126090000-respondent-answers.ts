import { type Kysely, sql } from 'kysely';

/**
 * Questionnaire runtime (issue 12, decision 014): a session's answers per slot (screener, survey), replaced
 * whole by each save, the screener quota options a session passed with (the places it holds), and the
 * respondent's sex and age as the questionnaires' profile questions give them (for the response filter).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('respondent_answers')
    .addColumn('session_id', 'uuid', (c) => c.notNull().references('respondent_sessions.id').onDelete('cascade'))
    .addColumn('slot', 'text', (c) => c.notNull().check(sql`slot in ('screener', 'survey')`))
    // The questionnaire answered; answers keep it from being deleted (a linked one cannot be anyway).
    .addColumn('survey_id', 'uuid', (c) => c.notNull().references('surveys.id').onDelete('restrict'))
    // `{ question id: answer }` as the contracts' `answerSchema` writes it, checked before it is stored.
    .addColumn('answers', 'jsonb', (c) => c.notNull())
    // The final answers are in (sent once).
    .addColumn('done', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('respondent_answers_pkey', ['session_id', 'slot'])
    .execute();
  await db.schema
    .alterTable('respondent_sessions')
    .addColumn('sex', 'text', (c) => c.check(sql`sex in ('man', 'woman')`))
    .addColumn('age', 'smallint', (c) => c.check(sql`age between 0 and 120`))
    .execute();
  await db.schema.createIndex('respondent_answers_survey_idx').on('respondent_answers').column('survey_id').execute();

  // A session that passed its screener with a quota option holds a place of that option in its scenario
  // while it runs or holds a completion's slot (see the respondents repository).
  await db.schema
    .createTable('respondent_quota_places')
    .addColumn('session_id', 'uuid', (c) => c.notNull().references('respondent_sessions.id').onDelete('cascade'))
    .addColumn('scenario_id', 'uuid', (c) => c.notNull().references('scenarios.id').onDelete('cascade'))
    .addColumn('question_id', 'text', (c) => c.notNull())
    .addColumn('option_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('respondent_quota_places_pkey', ['session_id', 'question_id', 'option_id'])
    .execute();
  await db.schema
    .createIndex('respondent_quota_places_option_idx')
    .on('respondent_quota_places')
    .columns(['scenario_id', 'question_id', 'option_id'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('respondent_quota_places').execute();
  await db.schema.dropTable('respondent_answers').execute();
  await db.schema.alterTable('respondent_sessions').dropColumn('sex').dropColumn('age').execute();
}
