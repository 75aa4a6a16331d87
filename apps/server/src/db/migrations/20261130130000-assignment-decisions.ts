import { type Kysely, sql } from 'kysely';

/**
 * Automatic acceptance of Toloka assignments (issue 14, item 5): the pool's acceptance setting ('confirm': decisions
 * wait for the analyst; 'auto': sent at once), and each decision on a worker's assignment — accept or reject with its
 * reason, the code's session, and whether it was sent to Toloka (pending_confirmation, sent, failed with the error).
 * One decision per assignment: reviewing again never decides or sends twice.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('toloka_pools')
    .addColumn('acceptance', 'text', (c) =>
      c.notNull().defaultTo('confirm').check(sql`acceptance in ('confirm', 'auto')`),
    )
    .execute();
  await db.schema
    .createTable('toloka_assignment_decisions')
    .addColumn('assignment_id', 'text', (c) => c.primaryKey())
    .addColumn('campaign_id', 'uuid', (c) => c.notNull().references('campaigns.id').onDelete('cascade'))
    .addColumn('worker_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'uuid')
    .addColumn('decision', 'text', (c) => c.notNull().check(sql`decision in ('accept', 'reject')`))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('excluded_reason', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending_confirmation', 'sent', 'failed')`))
    .addColumn('error', 'text')
    .addColumn('decided_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('sent_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('toloka_assignment_decisions_campaign')
    .on('toloka_assignment_decisions')
    .columns(['campaign_id', 'decided_at'])
    .execute();
  await db.schema
    .createIndex('toloka_assignment_decisions_session')
    .on('toloka_assignment_decisions')
    .columns(['campaign_id', 'session_id'])
    .execute();
  // A respondent's data deleted (retention, a request): their decisions keep the worker and the verdict, not the
  // session.
  await sql`
    create function forget_decision_session() returns trigger language plpgsql as $$
    begin
      update toloka_assignment_decisions set session_id = null where session_id = old.id;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger respondent_session_deleted after delete on respondent_sessions
    for each row execute function forget_decision_session()`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists respondent_session_deleted on respondent_sessions`.execute(db);
  await sql`drop function if exists forget_decision_session()`.execute(db);
  await db.schema.dropTable('toloka_assignment_decisions').execute();
  await db.schema.alterTable('toloka_pools').dropColumn('acceptance').execute();
}
