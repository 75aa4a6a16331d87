import { type Kysely, sql } from 'kysely';

/**
 * Single sign-on (issue 33 item 4, decision 067): the provider identities (issuer + subject) linked to accounts. An
 * identity signs in as its account whatever e-mail it later carries; an account holds at most one identity per issuer,
 * so a provider account whose e-mail changes to another person's cannot take over that person's linked account.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_identities')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    /** The verified e-mail the identity had when it was linked (for the operator; never used to match). */
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_login_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('user_identities_issuer_subject_key', ['issuer', 'subject'])
    .addUniqueConstraint('user_identities_user_issuer_key', ['user_id', 'issuer'])
    .execute();
  // Accounts are matched by e-mail whatever its case.
  await db.schema.createIndex('users_email_lower_idx').on('users').expression(sql`lower(email)`).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_email_lower_idx').execute();
  await db.schema.dropTable('user_identities').execute();
}
