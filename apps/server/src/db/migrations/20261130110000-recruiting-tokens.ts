import { type Kysely, sql } from 'kysely';

/**
 * Toloka and Amazon Mechanical Turk tokens (issue 14, item 3): a user's linked token, encrypted (AES-256-GCM: IV,
 * tag, ciphertext; for Toloka the OAuth token, for Amazon the JSON of both keys) with a hint that is not secret;
 * the users it is shared with; and each user's ACTIVE token per service, their own or one shared with them.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are typed against no schema on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('recruiting_tokens')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service', 'text', (c) => c.notNull().check(sql`service in ('toloka', 'mturk')`))
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('production', 'sandbox')`))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('secret_ciphertext', 'bytea', (c) => c.notNull())
    /** Toloka: the token's last 4 characters; Amazon: the access key id (not secret). */
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    /** When the service last accepted the token. */
    .addColumn('validated_at', 'timestamptz')
    // The target of the active tokens' key: the active token of a service is a token of that service.
    .addUniqueConstraint('recruiting_tokens_id_service', ['id', 'service'])
    .execute();
  await db.schema
    .createIndex('recruiting_tokens_user')
    .on('recruiting_tokens')
    .columns(['user_id', 'service', 'created_at'])
    .execute();

  await db.schema
    .createTable('recruiting_token_shares')
    .addColumn('token_id', 'uuid', (c) => c.notNull().references('recruiting_tokens.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('recruiting_token_shares_pk', ['token_id', 'user_id'])
    .execute();
  await db.schema.createIndex('recruiting_token_shares_user').on('recruiting_token_shares').column('user_id').execute();

  await db.schema
    .createTable('recruiting_active_tokens')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('token_id', 'uuid', (c) => c.notNull())
    .addPrimaryKeyConstraint('recruiting_active_tokens_pk', ['user_id', 'service'])
    .addForeignKeyConstraint(
      'recruiting_active_tokens_token',
      ['token_id', 'service'],
      'recruiting_tokens',
      ['id', 'service'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('recruiting_active_tokens_token')
    .on('recruiting_active_tokens')
    .column('token_id')
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('recruiting_active_tokens').execute();
  await db.schema.dropTable('recruiting_token_shares').execute();
  await db.schema.dropTable('recruiting_tokens').execute();
}
