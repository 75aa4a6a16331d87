import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { DB } from '../db/types.ts';

/**
 * A migrated database made once per test run and copied for each test file (decision 029): PGlite's data directory
 * dumped to a file (each file loads it: `loadDataDir`), or a PostgreSQL database each file's database is created
 * from (`CREATE DATABASE … TEMPLATE`). Vitest's global setup makes it and hands its name to the test processes in
 * these variables; without them (a bench, a file run by hand) each database is migrated on its own.
 */
export const PGLITE_TEMPLATE_ENV = 'EMOLENS_TEST_PGLITE_TEMPLATE';
export const POSTGRES_TEMPLATE_ENV = 'EMOLENS_TEST_POSTGRES_TEMPLATE';

/** The tarball of a migrated in-memory PGlite, written to `path`. */
export async function makePgliteTemplate(path: string): Promise<void> {
  // The server's start settings (db/client.ts) are not kept in the data directory: each copy is opened with them.
  const pglite = await PGlite.create();
  const db = new Kysely<DB>({ dialect: new PGliteDialect({ pglite }) });
  try {
    await migrateToLatest(db);
    const dump = await pglite.dumpDataDir('none');
    await writeFile(path, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await db.destroy();
  }
}

/** The template's tarball, read once per process; undefined when no template was made. */
let pgliteTemplate: Promise<Blob> | undefined;
export function pgliteTemplateDump(): Promise<Blob> | undefined {
  const path = process.env[PGLITE_TEMPLATE_ENV];
  if (!path) return undefined;
  pgliteTemplate ??= readFile(path).then((bytes) => new Blob([bytes]));
  return pgliteTemplate;
}

/** A migrated PostgreSQL database on the server of `serverUrl`, to create others from; its name. */
export async function makePostgresTemplate(serverUrl: string): Promise<string> {
  const name = `emolens_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl(serverUrl, name) });
  try {
    await migrateToLatest(database.db);
  } finally {
    // A template is copied only while nobody is connected to it.
    await database.close();
  }
  return name;
}

export function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function adminQuery(serverUrl: string, query: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(query);
  } finally {
    await admin.end();
  }
}

/** Vitest's global setup: the template of the run's database kind, removed when the run ends. */
export default async function setup(): Promise<() => Promise<void>> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = await makePostgresTemplate(serverUrl);
    process.env[POSTGRES_TEMPLATE_ENV] = name;
    return () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
  }
  const dir = join(process.cwd(), '.tmp');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `pglite-template-${process.pid}.tar`);
  await makePgliteTemplate(path);
  process.env[PGLITE_TEMPLATE_ENV] = path;
  return () => rm(path, { force: true });
}
