import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_BACKEND, type TestDatabase } from '../test/harness.ts';
import { readBinaryCopy } from './binary-copy.ts';

/** A query's rows as a binary COPY, on the test's database (PGlite, or PostgreSQL with TEST_DATABASE_URL). */
describe(`binary COPY on ${TEST_BACKEND}`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.dispose();
  });

  it('hands every byte of a bytea back as it is stored, with text and nulls beside it', async () => {
    // Every byte value, the high ones included (a UTF-8 reading would mangle them), over more than one message.
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 37) % 256);
    await database.db.schema.createTable('copy_probe').addColumn('k', 'integer').addColumn('b', 'bytea').execute();
    await database.db
      .insertInto('copy_probe' as never)
      .values([
        { k: 1, b: bytes },
        { k: 2, b: null },
        { k: 3, b: new Uint8Array() },
      ] as never)
      .execute();
    const rows = readBinaryCopy(await database.copyOut("select k::text, b, 'é' as t from copy_probe order by k"));
    const text = (v: Uint8Array | null) => (v ? new TextDecoder().decode(v) : v);
    expect(rows.map((r) => [text(r[0] ?? null), r[1]?.byteLength ?? null, text(r[2] ?? null)])).toEqual([
      ['1', 70_000, 'é'],
      ['2', null, 'é'],
      ['3', 0, 'é'],
    ]);
    expect(Buffer.compare(Buffer.from(rows[0]?.[1] as Uint8Array), Buffer.from(bytes))).toBe(0);
    // Nothing at all: just the header and the trailer.
    expect(readBinaryCopy(await database.copyOut('select b from copy_probe where false'))).toEqual([]);
  });

  it('refuses what is not a binary COPY, and a failed query leaves the database usable', async () => {
    expect(() => readBinaryCopy(new TextEncoder().encode('k\tb\n1\t\\x00\n'))).toThrow(/not PostgreSQL binary COPY/);
    await expect(database.copyOut('select no_such_column from copy_probe')).rejects.toThrow(/no_such_column/);
    const rows = readBinaryCopy(await database.copyOut('select 42::text'));
    expect(rows.map((r) => new TextDecoder().decode(r[0] as Uint8Array))).toEqual(['42']);
  });
});
