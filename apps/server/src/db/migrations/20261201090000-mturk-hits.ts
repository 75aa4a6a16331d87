import { type Kysely, sql } from 'kysely';

/**
 * A research's Amazon Mechanical Turk HIT (issue 14, item 6): the ExternalQuestion HIT made from the research with a
 * linked Amazon token (and its environment), what was asked of MTurk, its state as MTurk last reported it, and the
 * acceptance setting of its assignments. One HIT per research.
 *
 * Decisions on assignments now serve both platforms: `toloka_assignment_decisions` becomes `assignment_decisions`
 * with the platform in its key, and Toloka's own decisions are `decided_on_platform`.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('mturk_hits')
    .addColumn('campaign_id', 'uuid', (c) => c.primaryKey().references('campaigns.id').onDelete('cascade'))
    .addColumn('token_id', 'uuid')
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('production', 'sandbox')`))
    .addColumn('hit_id', 'text', (c) => c.notNull())
    .addColumn('group_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('reward', 'double precision', (c) => c.notNull())
    .addColumn('max_assignments', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('acceptance', 'text', (c) =>
      c.notNull().defaultTo('confirm').check(sql`acceptance in ('confirm', 'auto')`),
    )
    .addColumn('created_by', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await sql`alter table toloka_assignment_decisions rename to assignment_decisions`.execute(db);
  await sql`alter table assignment_decisions add column platform text not null default 'toloka'
    check (platform in ('toloka', 'mturk'))`.execute(db);
  await sql`alter table assignment_decisions alter column platform drop default`.execute(db);
  await sql`alter table assignment_decisions drop constraint toloka_assignment_decisions_pkey`.execute(db);
  await sql`alter table assignment_decisions add primary key (platform, assignment_id)`.execute(db);
  await sql`update assignment_decisions set reason = 'decided_on_platform' where reason = 'decided_in_toloka'`.execute(
    db,
  );
  await sql`
    create or replace function forget_decision_session() returns trigger language plpgsql as $$
    begin
      update assignment_decisions set session_id = null where session_id = old.id;
      return null;
    end
    $$`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from assignment_decisions where platform = 'mturk'`.execute(db);
  await sql`update assignment_decisions set reason = 'decided_in_toloka' where reason = 'decided_on_platform'`.execute(
    db,
  );
  await sql`alter table assignment_decisions drop constraint assignment_decisions_pkey`.execute(db);
  await sql`alter table assignment_decisions drop column platform`.execute(db);
  await sql`alter table assignment_decisions add constraint toloka_assignment_decisions_pkey primary key (assignment_id)`.execute(
    db,
  );
  await sql`alter table assignment_decisions rename to toloka_assignment_decisions`.execute(db);
  await sql`
    create or replace function forget_decision_session() returns trigger language plpgsql as $$
    begin
      update toloka_assignment_decisions set session_id = null where session_id = old.id;
      return null;
    end
    $$`.execute(db);
  await db.schema.dropTable('mturk_hits').execute();
}
