import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Kysely } from 'kysely';
import { type Migration, type MigrationProvider, type MigrationResult, Migrator } from 'kysely/migration';
import type { DB } from './types.ts';

const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Loads `<timestamp>-<name>.ts` files; their names sort in the order they must run. */
class DirectoryMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{14}-[\w-]+\.ts$/.test(f)).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      migrations[file.replace(/\.ts$/, '')] = (await import(
        pathToFileURL(join(MIGRATIONS_DIR, file)).href
      )) as Migration;
    }
    return migrations;
  }
}

export class MigrationError extends Error {}

export async function migrateToLatest(db: Kysely<DB>): Promise<MigrationResult[]> {
  const migrator = new Migrator({ db, provider: new DirectoryMigrationProvider() });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error');
    throw new MigrationError(`Migration ${failed?.migrationName ?? '?'} failed: ${String(error)}`, { cause: error });
  }
  return results;
}
