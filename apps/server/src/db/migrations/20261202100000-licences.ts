import { type Kysely, sql } from 'kysely';

/**
 * Licence packages and session accounting (issue 15, item 3). `session_accounts` holds each metered account's
 * balance (an account is metered from its first package); the database refuses a negative one. `session_ledger`
 * is the history: packages added (positive) and sessions consumed (negative) by usable respondents, interview
 * analyses and started self-service tests, each once per `ref` (a respondent session, an analysis, a test).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('session_accounts')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('balance', 'integer', (c) => c.notNull().defaultTo(0).check(sql`balance >= 0`))
    .addColumn('unpaid', 'integer', (c) => c.notNull().defaultTo(0).check(sql`unpaid >= 0`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('session_ledger')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in ('package', 'respondent', 'analysis', 'self_service')`),
    )
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('delta', 'integer', (c) => c.notNull())
    .addColumn('unpaid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('package', 'text')
    .addColumn('quantity', 'integer')
    .addColumn('project_id', 'uuid', (c) => c.references('projects.id').onDelete('set null'))
    .addColumn('seconds', 'integer')
    .addColumn('actor_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('session_ledger_ref', ['user_id', 'ref'])
    .execute();
  await db.schema
    .createIndex('session_ledger_history')
    .on('session_ledger')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('session_ledger_project').on('session_ledger').column('project_id').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('session_ledger').execute();
  await db.schema.dropTable('session_accounts').execute();
}
